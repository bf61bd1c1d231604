package receipt

import (
	"bytes"
	"errors"
	"image/png"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
)

func sample() Receipt {
	return Receipt{
		Transfer: aft.Transfer{Position: 3, ID: "CAGE-0042", Type: aft.InHouseToMachine, Status: aft.StatusFull,
			Amounts: aft.Amounts{Cashable: 2500, Restricted: 1000, NonRestricted: 500}, PoolID: 7, RestrictedExpiration: 12312030,
			At: time.Date(2026, 3, 5, 14, 30, 9, 0, time.UTC), ReceiptStatus: aft.ReceiptPending,
			ReceiptData: []byte{aft.FieldSource, 11, 'C', 'A', 'I', 'X', 'A', ' ', 'C', 'A', 'G', 'E', '1',
				aft.FieldPatronName, 9, 'A', 'N', 'A', ' ', 'S', 'I', 'L', 'V', 'A',
				aft.FieldAccountBalance, 5, 0, 0, 0x10, 0x00, 0x00}},
		Text:    aft.ReceiptText{Location: "CASINO ESTORIL", Address: [2]string{"AV. DR. STANLEY HO", "2765-190 ESTORIL"}, InHouse: [4]string{"OBRIGADO / THANK YOU"}},
		Machine: "EGM-0042", Asset: 4321,
	}
}

func TestReceiptLines(t *testing.T) {
	txt, err := sample().Plain()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CASINO ESTORIL", "2765-190 ESTORIL", "TRANSFER TO GAME", "CAIXA CAGE1",
		"05/03/2026 14:30:09", "EGM-0042", "4321", "CAGE-0042", "ANA SILVA", "1.000,00 €",
		"31/12/2030", "THANK YOU"} {
		if !strings.Contains(txt, want) {
			t.Errorf("receipt has no %q:\n%s", want, txt)
		}
	}
	// Each kind with its amount on its line, and the total.
	for _, want := range []string{`CRÉDITO/CASHABLE +25,00 €`, `RESTRITO/RESTRICTED +10,00 €`, `NÃO RESTR\./NON-RESTRICTED +5,00 €`, `TOTAL +40,00 €`} {
		if !regexp.MustCompile(`(?m)^` + want + `$`).MatchString(txt) {
			t.Errorf("receipt has no line %s:\n%s", want, txt)
		}
	}
	if strings.Contains(txt, "REPRINT") {
		t.Error("a first print marked as a reprint")
	}
	for _, l := range strings.Split(txt, "\n") {
		if n := len([]rune(l)); n > Columns {
			t.Errorf("line %q is %d characters", l, n)
		}
	}
	r := sample()
	r.Reprint, r.Transfer.Type, r.Transfer.Amounts = true, aft.InHouseToHost, aft.Amounts{Cashable: 700}
	txt, err = r.Plain()
	if err != nil || !strings.Contains(txt, "REPRINT") || !strings.Contains(txt, "TRANSFER FROM GAME") || strings.Contains(txt, "RESTRICTED") {
		t.Fatalf("reprint to the host (%v):\n%s", err, txt)
	}
}

func TestReceiptRefused(t *testing.T) {
	for name, edit := range map[string]func(*Receipt){
		"a bonus":             func(r *Receipt) { r.Transfer.Type = aft.BonusCoinOut },
		"no amount":           func(r *Receipt) { r.Transfer.Amounts = aft.Amounts{} },
		"no time":             func(r *Receipt) { r.Transfer.At = time.Time{} },
		"broken receipt data": func(r *Receipt) { r.Transfer.ReceiptData = []byte{aft.FieldAccountBalance, 1, 0} },
		"a machine too long":  func(r *Receipt) { r.Machine = strings.Repeat("M", Columns+1) },
	} {
		r := sample()
		edit(&r)
		if _, err := r.Lines(); !errors.Is(err, ErrReceipt) {
			t.Errorf("%s: %v", name, err)
		}
		if err := r.RenderPNG(&bytes.Buffer{}); err == nil {
			t.Errorf("%s: rendered", name)
		}
	}
}

// The picture has a row of ink for every printed line and white paper
// around it.
func TestReceiptPicture(t *testing.T) {
	var buf bytes.Buffer
	if err := sample().RenderPNG(&buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if b.Dx() != PaperWidth {
		t.Fatalf("width %d", b.Dx())
	}
	ls, _ := sample().Lines()
	inked := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r < 0x8000 {
				if x < edge || x >= PaperWidth-edge/2 {
					t.Fatalf("ink at %d,%d in the margin", x, y)
				}
				inked++
				break
			}
		}
	}
	if inked < 10*len(ls) {
		t.Fatalf("%d rows inked for %d lines", inked, len(ls))
	}
}

func TestDebitReceipt(t *testing.T) {
	r := sample()
	r.Text.Debit = [4]string{"DEBITO / DEBIT", "", "", ""}
	r.Transfer.Type, r.Transfer.POSID, r.Transfer.Amounts = aft.DebitToMachine, 77, aft.Amounts{Cashable: 10_000}
	r.Transfer.ReceiptData = []byte{aft.FieldDebitCard, 2, 0x43, 0x21, aft.FieldTransactionFee, 5, 0, 0, 0, 0x02, 0x50}
	txt, err := r.Plain()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{` +DEBIT CARD WITHDRAWAL`, `POS +77`, `CARTÃO/CARD +XXXX4321`, `CRÉDITO/CASHABLE +100,00 €`,
		`TAXA/TRANSACTION FEE +2,50 €`, `DEBITADO/TOTAL DEBIT +102,50 €`, ` +DEBITO / DEBIT`} {
		if !regexp.MustCompile(`(?m)^` + want + `$`).MatchString(txt) {
			t.Errorf("debit receipt has no line %s:\n%s", want, txt)
		}
	}
	// The in-house closing lines and the patron are not a debit's.
	if strings.Contains(txt, "THANK YOU") || strings.Contains(txt, "TRANSFER TO GAME") {
		t.Errorf("debit receipt with in-house lines:\n%s", txt)
	}
	// The host's total debited wins over the sum.
	r.Transfer.ReceiptData = append(r.Transfer.ReceiptData, aft.FieldDebitAmount, 5, 0, 0, 0x01, 0x03, 0x00)
	if txt, err = r.Plain(); err != nil || !regexp.MustCompile(`(?m)^DEBITADO/TOTAL DEBIT +103,00 €$`).MatchString(txt) {
		t.Fatalf("total debited as sent (%v):\n%s", err, txt)
	}
	if err := r.RenderPNG(&bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
}
