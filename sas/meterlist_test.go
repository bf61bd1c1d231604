package sas

import (
	"testing"

	"github.com/openegm/cabinet/sas/metercode"
)

func TestFixedMeterPoll(t *testing.T) {
	got := FixedMeterPoll(0x1C)
	want := []MeterCode{MeterTotalCoinIn, metercode.TotalCoinOut, metercode.TotalDrop, metercode.TotalJackpot,
		MeterGamesPlayed, metercode.GamesWon, metercode.SlotDoorOpenings, metercode.PowerResets}
	if len(got) != len(want) {
		t.Fatalf("1C: %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("1C[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	got[0] = 0x77 // a copy: the table is untouched
	if FixedMeterPoll(0x1C)[0] != MeterTotalCoinIn {
		t.Fatal("FixedMeterPoll returned the table itself")
	}
	if FixedMeterPoll(0x2F) != nil || FixedMeterPoll(0x20) != nil {
		t.Fatal("variable meter polls have no fixed layout")
	}
}

func TestKnownMeterCodes(t *testing.T) {
	cs := KnownMeterCodes()
	seen := map[MeterCode]bool{}
	for i, c := range cs {
		if i > 0 && cs[i-1] >= c {
			t.Fatalf("not strictly increasing at %d: %v", i, cs)
		}
		if c >= metercode.LocalBase {
			t.Fatalf("local code %v listed", c)
		}
		seen[c] = true
	}
	for _, c := range []MeterCode{MeterTotalCoinIn, metercode.TotalDrop, metercode.GamesSinceDoorClosure, metercode.BillValueInStacker, bill(1), bill(1_000_000), metercode.AFTInHouseRestrictedIn, metercode.AFTInHouseNonRestrictedOutCnt} {
		if !seen[c] {
			t.Errorf("%v missing", c)
		}
	}
	// 39 single meters, 2 of the stacker, 24 bill meters, 24 AFT meters.
	if len(cs) != 39+2+24+24 {
		t.Errorf("%d codes, want %d", len(cs), 39+2+24+24)
	}
}
