package meters

import (
	"reflect"
	"strings"
	"testing"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas/metercode"
)

func applyAll(t *testing.T, s *State, recs ...Record) {
	t.Helper()
	for _, r := range recs {
		if err := s.Apply(r); err != nil {
			t.Fatalf("%v: %v", r.Type(), err)
		}
	}
}

func bonusJackpot(s *State, id string, cents int64, handpay bool) AFTTransfer {
	r := aftRec(s, id, aft.BonusJackpot, cents)
	r.Transfer.Handpay = handpay
	return r
}

// A bonus jackpot below the handpay limit is a machine-paid bonus on the
// credit meter; at the limit it is owed by a handpay of its own kind,
// naming its transaction, and the attendant's reset meters it as an
// attendant-paid external bonus (0x21) and total jackpot (0x02).
func TestAFTBonusJackpotToCreditsOrByHand(t *testing.T) {
	s := NewState()
	applyAll(t, s, bonusJackpot(s, "J-1", 300, false))
	if s.Get(Credits) != 300 || s.Get(CoinOut) != 300 || s.Get(MachinePaidBonus) != 300 || s.Get(TotalWon) != 300 {
		t.Fatalf("to credits: credits %d coin out %d 0x1E %d won %d", s.Get(Credits), s.Get(CoinOut), s.Get(MachinePaidBonus), s.Get(TotalWon))
	}
	applyAll(t, s, bonusJackpot(s, "J-2", 250_000, true))
	if s.Get(Credits) != 300 || s.OwedHandpay != 250_000 || s.Get(TotalWon) != 250_300 || s.Get(CoinOut) != 300 {
		t.Fatalf("by hand: credits %d owed %d won %d", s.Get(Credits), s.OwedHandpay, s.Get(TotalWon))
	}
	if h, ok := s.OwedLockout(); !ok || h != (HandpayPending{Kind: HandpayBonus, Cents: 250_000, Ref: "J-2"}) {
		t.Fatalf("owed lockout %+v %v", h, ok)
	}
	checkRefusals(t, []foldRefusal{
		{"another transfer while it is owed", func(*testing.T) *State { return s.Clone() },
			func(s *State) Record { return aftRec(s, "IN", aft.InHouseToMachine, 100) }, "owed by handpay"},
		{"the lockout of a game's win", func(*testing.T) *State { return s.Clone() },
			func(*State) Record { return HandpayPending{Kind: HandpayWin, Cents: 250_000} }, "owed as aft_bonus"},
		{"the lockout of another transfer", func(*testing.T) *State { return s.Clone() },
			func(*State) Record { return HandpayPending{Kind: HandpayBonus, Cents: 250_000, Ref: "J-1"} }, `ref "J-2"`},
		{"the lockout of another amount", func(*testing.T) *State { return s.Clone() },
			func(*State) Record { return HandpayPending{Kind: HandpayBonus, Cents: 250_001, Ref: "J-2"} }, "owed by handpay is 250000"},
	})
	applyAll(t, s, HandpayPending{At: 5, Kind: HandpayBonus, Cents: 250_000, Ref: "J-2"})
	if _, ok := s.OwedLockout(); ok || s.Owed != nil || s.Handpay == nil {
		t.Fatalf("after the lockout: owed %+v, handpay %+v", s.Owed, s.Handpay)
	}
	applyAll(t, s, HandpayReset{At: 6, Who: "att-1", Cents: 250_000})
	for m, want := range map[Meter]int64{AttendantPaidBonus: 250_000, HandpaidWins: 250_000, TotalHandPaid: 250_000,
		AttendantPaidPaytable: 0, AttendantPaidProgressive: 0, MachinePaidBonus: 300, Credits: 300, TotalWon: 250_300} {
		if s.Get(m) != want {
			t.Errorf("%s = %d, want %d", Defs[m].Name, s.Get(m), want)
		}
	}
	for code, want := range map[metercode.Code]int64{metercode.AttendantPaidExternalBonus: 250_000, metercode.MachinePaidExternalBonus: 300,
		metercode.TotalJackpot: 250_000, metercode.AFTBonusCashableIn: 250_300, metercode.AFTBonusCashableInCount: 2} {
		if v, ok := s.SASMeter(code); !ok || v != want {
			t.Errorf("SAS %v = %d (%v), want %d", code, v, ok, want)
		}
	}
}

// The lockout owed keeps its kind, game and level: a power-up that finds
// a win owed locks up for that one, not for a game's win.
func TestOwedLockoutKeepsItsKind(t *testing.T) {
	s := NewState()
	applyAll(t, s, MoneyIn{Source: SourceBill, Cents: 2000},
		GameStart{Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{1}, WinCents: 900},
		GameEnd{Game: 1, WinCents: 900, Handpay: true})
	if h, ok := s.OwedLockout(); !ok || h != (HandpayPending{Kind: HandpayWin, Cents: 900, Game: 1}) {
		t.Fatalf("a game's win: %+v %v", h, ok)
	}
	applyAll(t, s, HandpayPending{Kind: HandpayWin, Cents: 900, Game: 1}, HandpayReset{Who: "a", Cents: 900},
		GameStart{Game: 2, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{1}, Progressives: []int{3}},
		GameEnd{Game: 2}, ProgressiveHit{Game: 2, Level: 3, Cents: 5000}, ProgressiveAward{Game: 2, Level: 3, Cents: 5000, Attendant: true})
	if h, ok := s.OwedLockout(); !ok || h != (HandpayPending{Kind: HandpayProgressive, Cents: 5000, Game: 2, Level: 3}) {
		t.Fatalf("an attendant-paid jackpot: %+v %v", h, ok)
	}
	checkRefusals(t, []foldRefusal{{"its lockout as a game's win", func(*testing.T) *State { return s.Clone() },
		func(*State) Record { return HandpayPending{Kind: HandpayWin, Cents: 5000, Game: 2} }, "owed as progressive"}})
	// A state folded before the kind was kept: the amount alone, the last
	// game's win (and no game at all does not stop the machine).
	old := s.Clone()
	old.Owed = nil
	if h, ok := old.OwedLockout(); !ok || h != (HandpayPending{Kind: HandpayWin, Cents: 5000, Game: 2}) {
		t.Fatalf("legacy: %+v %v", h, ok)
	}
	old.Games = nil
	if h, ok := old.OwedLockout(); !ok || h.Cents != 5000 || h.Game != 0 {
		t.Fatalf("legacy without games: %+v %v", h, ok)
	}
}

// Each term of the win meters' sums, one cent off, breaks Check.
func TestCheckWinMeters(t *testing.T) {
	base := func() *State {
		s := NewState()
		m := &s.Meters
		m[AttendantPaidPaytable], m[AttendantPaidProgressive], m[AttendantPaidBonus] = 100, 20, 3
		m[HandpaidWins], m[HandpaidCancelled], m[TotalHandPaid] = 123, 40, 163
		m[CoinOut], m[MachinePaidBonus], m[TotalWon] = 7, 7, 130+500
		m[BillsIn], m[Credits] = 40, 7 // 40 in + 7 won − 40 cancelled by hand
		s.OwedHandpay, s.Owed = 500, &HandpayPending{Kind: HandpayBonus, Cents: 500, Ref: "X"}
		s.AFT.Meters = map[metercode.Code]int64{aft.MeterBonusCashableIn: 7 + 3 + 400, aft.MeterBonusNonRestrictedIn: 100}
		return s
	}
	if err := base().Check(); err != nil {
		t.Fatalf("a state that keeps the sums: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(*State)
		want string
	}{
		{"total jackpot", func(s *State) { s.Meters[HandpaidWins]++ }, "total jackpot 124"},
		{"attendant-paid external bonus", func(s *State) { s.Meters[AttendantPaidBonus]++ }, "external bonus 4"},
		{"total hand paid", func(s *State) { s.Meters[TotalHandPaid]++ }, "total hand paid 164"},
		{"total won", func(s *State) { s.Meters[TotalWon]++ }, "total won 631"},
		{"a win owed", func(s *State) { s.OwedHandpay--; s.Owed.Cents-- }, "total won 630"},
		{"the AFT bonus meters", func(s *State) { s.AFT.Meters[aft.MeterBonusNonRestrictedIn]++ }, "AFT bonus meters (AE + B0) 511"},
		{"a bonus owed as a game's win", func(s *State) { s.Owed.Kind = HandpayWin }, "AFT bonus meters (AE + B0) 510"},
	} {
		s := base()
		c.edit(s)
		if err := s.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// A receipt is due only when asked for, on a transfer of money, and is
// confirmed printed once; the texts of 0x75 fold into the AFT state.
func TestAFTReceiptRecords(t *testing.T) {
	s := NewState()
	withReceipt := func(s *State, id string, typ aft.TransferType, cents int64) AFTTransfer {
		r := aftRec(s, id, typ, cents)
		r.Transfer.Flags, r.Transfer.ReceiptStatus = aft.FlagReceipt, aft.ReceiptPending
		r.Transfer.ReceiptData = []byte{aft.FieldPatronName, 2, 'J', 'O'}
		return r
	}
	applyAll(t, s, withReceipt(s, "R-1", aft.InHouseToMachine, 700),
		AFTReceiptText{At: 3, Text: aft.ReceiptTextSet{Fields: []aft.TextField{{Code: aft.TextLocation, Text: "CASINO"}}}})
	if e, _ := s.AFT.At(1); e.ReceiptStatus != aft.ReceiptPending || s.AFT.ReceiptText.Location != "CASINO" {
		t.Fatalf("entry %+v, texts %+v", e, s.AFT.ReceiptText)
	}
	applyAll(t, s, AFTReceipt{At: 4, Receipt: aft.Receipt{Position: 1, ID: "R-1"}})
	if e, _ := s.AFT.At(1); e.ReceiptStatus != aft.ReceiptPrinted || s.AFT.Current.ReceiptStatus != aft.ReceiptPrinted {
		t.Fatalf("after the print: %+v", e)
	}
	st := func(*testing.T) *State { return s.Clone() }
	checkRefusals(t, []foldRefusal{
		{"printed twice", st, func(*State) Record { return AFTReceipt{Receipt: aft.Receipt{Position: 1, ID: "R-1"}} }, "not pending"},
		{"a receipt of no transfer", st, func(*State) Record { return AFTReceipt{Receipt: aft.Receipt{Position: 2, ID: "R-2"}} }, "not in the history"},
		{"a receipt not asked for", st, func(s *State) Record {
			r := withReceipt(s, "R-3", aft.InHouseToMachine, 5)
			r.Transfer.Flags = 0
			return r
		}, "did not ask for"},
		{"a receipt of a bonus", st, func(s *State) Record { return withReceipt(s, "R-4", aft.BonusCoinOut, 5) }, "no receipt"},
		{"a receipt printed before its record", st, func(s *State) Record {
			r := withReceipt(s, "R-5", aft.InHouseToMachine, 5)
			r.Transfer.ReceiptStatus = aft.ReceiptPrinted
			return r
		}, "printed after its record"},
		{"receipt data that breaks table 8.3f", st, func(s *State) Record {
			r := withReceipt(s, "R-6", aft.InHouseToMachine, 5)
			r.Transfer.ReceiptData = []byte{aft.FieldPatronName, 9}
			return r
		}, "bad receipt data"},
		{"a text of no code", st, func(*State) Record {
			return AFTReceiptText{Text: aft.ReceiptTextSet{Fields: []aft.TextField{{Code: 0x30, Text: "X"}}}}
		}, "not a receipt text"},
		{"a bonus jackpot's lockout without its ID", st, func(*State) Record { return HandpayPending{Kind: HandpayBonus, Cents: 5} }, "must"},
		{"a game's lockout with an ID", st, func(*State) Record { return HandpayPending{Kind: HandpayCancelled, Cents: 5, Ref: "X"} }, "only an AFT bonus"},
	})
}

func TestAFTBonusRecordsRoundTrip(t *testing.T) {
	for _, r := range []Record{
		AFTReceipt{At: 1, Receipt: aft.Receipt{Position: 9, ID: "T-9"}, Reprint: true},
		AFTReceiptText{At: 2, Text: aft.ReceiptTextSet{Fields: []aft.TextField{{Code: aft.TextInHouse1, Text: "OBRIGADO"}, {Code: aft.TextAddress1}}}},
		HandpayPending{At: 3, Kind: HandpayBonus, Cents: 100, Ref: "J-1"},
	} {
		data, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(r.Type(), data)
		if err != nil || !reflect.DeepEqual(back, r) {
			t.Fatalf("%v: %+v %v", r.Type(), back, err)
		}
	}
	if TypeAFTReceipt.String() != "AFT receipt printed" || TypeAFTReceiptText.String() != "AFT receipt texts" {
		t.Fatal("record names")
	}
}
