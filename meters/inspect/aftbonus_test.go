package inspect

import (
	"strings"
	"testing"

	"github.com/openegm/cabinet/meters"
)

// Every handpay kind the ledger knows has its words in the report.
func TestReportNamesEveryHandpayKind(t *testing.T) {
	for _, k := range []string{meters.HandpayWin, meters.HandpayCancelled, meters.HandpayProgressive, meters.HandpayBonus} {
		r := Report{Handpays: []HandpayRow{{Kind: k, Cents: 100}}}
		for _, lang := range []string{"pt", "en"} {
			if txt := string(r.Text(lang)); strings.Contains(txt, "kind_"+k) {
				t.Errorf("%s report shows %q untranslated", lang, "kind_"+k)
			}
		}
	}
}
