package machine

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

// harness plays the owner's part: it folds every record into a separate
// state, as the ledger would, so the machine's fold and the ledger's are
// checked against each other at every step.
type harness struct {
	t       *testing.T
	m       *Machine
	ledger  *meters.State
	records []meters.Record
	devices []Device
	now     time.Time
}

func paytable(t testing.TB) *reels.Certified {
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	return pt
}

var testCfg = Config{MachineID: "EGM-0042", MachineNum: 42, Denom: 1, HandpayLimit: 1_000_00, SpinTime: 2 * time.Second,
	DevTickets: true} // the tests before host-validated tickets; ticketin_test.go turns it off

func newHarness(t *testing.T, cfg Config, st *meters.State, seed uint64) *harness {
	if st == nil {
		st = meters.NewState()
	}
	h := &harness{t: t, ledger: st.Clone(), now: time.Unix(1_800_000_000, 0)}
	h.m = New(cfg, paytable(t), st, rng.NewSeeded(seed))
	return h
}

func (h *harness) step(ev Event) Effects {
	h.t.Helper()
	eff := h.m.Step(ev)
	for _, r := range eff.Records {
		if err := h.ledger.Apply(r); err != nil {
			h.t.Fatalf("ledger refused %v: %v", r.Type(), err)
		}
	}
	h.records = append(h.records, eff.Records...)
	var job PINJob
	for _, d := range eff.Devices {
		if j, ok := d.(PINJob); ok {
			job = j
		} else if _, ok := d.(EnableBills); !ok {
			h.devices = append(h.devices, d)
		}
	}
	if got, want := h.m.st.Get(meters.Credits), h.ledger.Get(meters.Credits); got != want {
		h.t.Fatalf("machine credits %d, ledger %d", got, want)
	}
	if job != nil {
		// As the owner does: the job's answer is the event's outcome.
		ans := h.step(job.Do(Argon2id, h.now))
		ans.Records = append(eff.Records, ans.Records...)
		return ans
	}
	return eff
}

func (h *harness) advance(d time.Duration) Effects {
	h.now = h.now.Add(d)
	return h.step(Tick{At: h.now})
}

func (h *harness) power() { h.step(PowerUp{At: h.now}) }

// bill offers a note: the machine orders it stacked (or returned) and the
// validator does what it is told. It reports whether the note was stacked.
func (h *harness) bill(cents int64) bool {
	h.t.Helper()
	eff := h.step(BillEscrowed{At: h.now, Cents: cents})
	for _, d := range eff.Devices {
		if s, ok := d.(StackBill); ok {
			if s.Cents != cents {
				h.t.Fatalf("ordered %d cents stacked for a %d-cent note", s.Cents, cents)
			}
			h.step(BillStacked{At: h.now, Cents: s.Cents, Order: s.Order})
			return true
		}
	}
	return false
}

func (h *harness) press(b string) Effects { return h.step(Button{At: h.now, Name: b}) }

// play presses spin and ticks until the game has ended.
func (h *harness) play() {
	h.t.Helper()
	if eff := h.press(BtnSpin); eff.Refused != "" {
		h.t.Fatalf("spin refused: %s", eff.Refused)
	}
	for i := 0; h.m.phase == spinning; i++ {
		if i > 10000 {
			h.t.Fatal("game never ends")
		}
		h.advance(testCfg.SpinTime)
	}
}

func TestPlayCommitsBeforeShowAndKeepsTheMeters(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	h.bill(5000)
	if v := h.m.View(); v.CreditsCents != 5000 || v.Mode != "idle" {
		t.Fatalf("after a €50 bill: %+v", v)
	}
	freeSeen := false
	for range 150 {
		if h.m.st.Get(meters.Credits) < h.m.betCents() {
			h.bill(5000)
		}
		n := len(h.records)
		eff := h.press(BtnSpin)
		// The spin's record comes out of the same step that starts the reels.
		gs, ok := eff.Records[0].(meters.GameStart)
		if !ok || h.m.View().Mode != "spinning" || !reflect.DeepEqual(h.m.View().Stops, gs.Stops) {
			t.Fatalf("spin effects %+v, view %+v", eff, h.m.View())
		}
		for h.m.phase == spinning {
			h.advance(testCfg.SpinTime)
		}
		for _, r := range h.records[n:] {
			if _, ok := r.(meters.FreeGame); ok {
				freeSeen = true
			}
		}
	}
	if !freeSeen {
		t.Fatal("150 games without free games: the test does not cover them")
	}
	st := h.ledger
	if st.Get(meters.GamesPlayed) != 150 || st.LastGame != 150 || st.Open != nil {
		t.Fatalf("games %d last %d", st.Get(meters.GamesPlayed), st.LastGame)
	}
	if err := st.Check(); err != nil {
		t.Fatal(err)
	}
	// Every game re-evaluates from its stops to its recorded win.
	pt := paytable(t)
	for _, g := range st.Games {
		sp, _ := pt.Evaluate(g.Start.Stops, g.Start.Level, false)
		total := sp.Win
		for _, f := range g.Free {
			fs, _ := pt.Evaluate(f.Stops, g.Start.Level, true)
			total += fs.Win
		}
		if total*g.Start.Denom != g.End.WinCents {
			t.Fatalf("game %d recorded %d, re-evaluates to %d", g.Start.Game, g.End.WinCents, total)
		}
	}
}

func TestRefusals(t *testing.T) {
	h := newHarness(t, testCfg, nil, 2)
	if eff := h.press(BtnSpin); eff.Refused != "refused_starting" {
		t.Fatalf("before power-up: %q", eff.Refused)
	}
	h.power()
	if eff := h.press(BtnSpin); eff.Refused != "refused_insufficient_credit" || len(eff.Records) != 0 {
		t.Fatalf("no credit: %+v", eff)
	}
	h.bill(500)
	h.step(Door{At: h.now, Door: meters.DoorMain, Open: true})
	if eff := h.press(BtnSpin); eff.Refused != "refused_door_open" {
		t.Fatalf("door open: %q", eff.Refused)
	}
	if v := h.m.View(); v.Mode != "door_open" {
		t.Fatalf("mode %s", v.Mode)
	}
	h.step(Door{At: h.now, Door: meters.DoorMain, Open: false})
	h.step(HostCommand{At: h.now, Cmd: HostDisable})
	if eff := h.press(BtnSpin); eff.Refused != "refused_disabled" {
		t.Fatalf("disabled: %q", eff.Refused)
	}
	h.step(HostCommand{At: h.now, Cmd: HostEnable})
	h.step(BillJam{At: h.now})
	if eff := h.press(BtnSpin); eff.Refused != "refused_tilt" {
		t.Fatalf("tilt: %q", eff.Refused)
	}
	// The attendant key does not clear a jam the validator still reports.
	h.step(Key{At: h.now, Key: KeyAttendant, On: true})
	if len(h.ledger.Tilts) != 1 {
		t.Fatal("jam cleared while still jammed")
	}
	h.step(BillJamCleared{At: h.now})
	h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-7"})
	if len(h.ledger.Tilts) != 0 {
		t.Fatalf("tilts %v after clearing", h.ledger.Tilts)
	}
	h.play()
}

func TestTopLevelOnlyWithAJackpotSystem(t *testing.T) {
	h := newHarness(t, testCfg, nil, 3)
	h.power()
	h.bill(50000)
	h.press(BtnMaxBet)
	top := paytable(t).TopLevel()
	if gs := h.records[len(h.records)-1].(meters.GameStart); gs.Level != top-1 {
		t.Fatalf("max bet without a jackpot system played level %d, want %d", gs.Level, top-1)
	}
	cfg := testCfg
	cfg.Linked = []int{1}
	h = newHarness(t, cfg, nil, 3)
	h.power()
	h.step(LinkBroadcast{At: h.now, Values: map[int]int64{1: 100_000}})
	h.bill(50000)
	h.press(BtnMaxBet)
	if gs := h.records[len(h.records)-1].(meters.GameStart); gs.Level != top {
		t.Fatalf("max bet with a jackpot system played level %d", gs.Level)
	}
}

func TestHandpayOfABigWin(t *testing.T) {
	cfg := testCfg
	cfg.HandpayLimit = 100 // €1: most wins at 20 cents a game reach it soon
	h := newHarness(t, cfg, nil, 4)
	h.power()
	h.bill(10000)
	for h.m.st.Handpay == nil {
		if h.m.st.Get(meters.Credits) < h.m.betCents() {
			t.Fatal("ran out of credit before any win reached the limit")
		}
		before := h.m.st.Get(meters.Credits)
		h.play()
		if h.m.st.Handpay == nil && h.m.st.Get(meters.Credits) > before+cfg.HandpayLimit {
			t.Fatal("a win at the limit went to the credit meter")
		}
	}
	hp := h.m.st.Handpay
	credits := h.m.st.Get(meters.Credits)
	if v := h.m.View(); v.Mode != "handpay" || v.Handpay != hp.Cents || v.Message.Key != "msg_handpay" {
		t.Fatalf("lockout view %+v", v)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_handpay" {
		t.Fatalf("spin during lockout: %q", eff.Refused)
	}
	eff := h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-3"})
	reset, ok := eff.Records[0].(meters.HandpayReset)
	if !ok || reset.Cents != hp.Cents || reset.Who != "att-3" {
		t.Fatalf("reset %+v", eff.Records)
	}
	if h.ledger.Get(meters.Credits) != credits || h.ledger.Get(meters.HandpaidWins) != hp.Cents {
		t.Fatalf("credits %d (was %d), jackpot %d", h.ledger.Get(meters.Credits), credits, h.ledger.Get(meters.HandpaidWins))
	}
	h.play()
}

func TestCashOutToTicketAndByHandpay(t *testing.T) {
	h := newHarness(t, testCfg, nil, 5)
	h.power()
	h.bill(2000)
	h.play()
	credits := h.m.st.Get(meters.Credits)
	eff := h.press(BtnCashOut)
	co, ok := eff.Records[0].(meters.CashOut)
	if !ok || co.Cents != credits || co.Ticket != "004200000000000001" {
		t.Fatalf("cash out %+v", eff.Records)
	}
	var pt PrintTicket
	for _, d := range eff.Devices {
		if p, ok := d.(PrintTicket); ok {
			pt = p
		}
	}
	if pt.Validation != co.Ticket || pt.Cents != credits || pt.MachineID != "EGM-0042" {
		t.Fatalf("print %+v", pt)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_printing" {
		t.Fatalf("spin while printing: %q", eff.Refused)
	}
	h.step(TicketPrinted{At: h.now, Validation: co.Ticket})
	if h.ledger.Get(meters.Credits) != 0 || h.ledger.Get(meters.TicketOut) != credits {
		t.Fatal("ticket out not metered")
	}
	// At the limit: cancelled-credit handpay.
	h.bill(50000)
	h.bill(50000)
	h.bill(50000)
	eff = h.press(BtnCashOut)
	if hp, ok := eff.Records[0].(meters.HandpayPending); !ok || hp.Kind != meters.HandpayCancelled || hp.Cents != 150000 {
		t.Fatalf("big cash out %+v", eff.Records)
	}
	h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-1"})
	if h.ledger.Get(meters.Credits) != 0 || h.ledger.Get(meters.HandpaidCancelled) != 150000 {
		t.Fatal("cancelled credits not metered")
	}
}

// TestPrinterFaultMakesTheTicketAHandpay: a ticket the printer cannot
// print is voided and its amount paid by an attendant (rule 13); the
// printer's tilt clears with the key once the printer is fine.
func TestPrinterFaultMakesTheTicketAHandpay(t *testing.T) {
	h := newHarness(t, testCfg, nil, 6)
	h.power()
	h.bill(1000)
	eff := h.press(BtnCashOut)
	v := eff.Records[0].(meters.CashOut).Ticket
	eff = h.step(PrinterFault{At: h.now, Reason: "paper_out", Validation: v})
	if h.m.View().Mode != "handpay" || h.ledger.Handpay == nil || h.ledger.Handpay.Cents != 1000 || h.ledger.PendingTicket != nil {
		t.Fatalf("printer fault during the ticket: mode %s, ledger handpay %+v, ticket %+v", h.m.View().Mode, h.ledger.Handpay, h.ledger.PendingTicket)
	}
	var void meters.TicketVoid
	for _, r := range eff.Records {
		if tv, ok := r.(meters.TicketVoid); ok {
			void = tv
		}
	}
	if void.Ticket != v || void.Cents != 1000 || !strings.Contains(void.Why, "paper_out") {
		t.Fatalf("void %+v", void)
	}
	h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-2"}) // pays the handpay
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	if h.ledger.Get(meters.HandpaidCancelled) != 1000 || h.ledger.Get(meters.TicketOut) != 0 || h.ledger.Get(meters.TicketsOut) != 0 {
		t.Fatalf("handpaid %d, ticket out %d (%d)", h.ledger.Get(meters.HandpaidCancelled), h.ledger.Get(meters.TicketOut), h.ledger.Get(meters.TicketsOut))
	}
	if h.m.View().Mode != "tilt" {
		t.Fatal("printer fault is not a tilt")
	}
	h.step(PrinterOK{At: h.now})
	h.step(Key{At: h.now, Key: KeyAttendant, On: true})
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	if h.m.View().Mode != "idle" {
		t.Fatalf("printer tilt not cleared: %s", h.m.View().Mode)
	}
	// The next ticket has the next number: a voided one is never reused.
	h.bill(500)
	eff = h.press(BtnCashOut)
	if next := eff.Records[0].(meters.CashOut).Ticket; next <= v {
		t.Fatalf("ticket after the void %s, voided %s", next, v)
	}
	h.step(TicketPrinted{At: h.now, Validation: eff.Records[0].(meters.CashOut).Ticket})
	// With the printer faulty, a cash-out goes to handpay instead.
	h.step(PrinterFault{At: h.now, Reason: "offline"})
	h.bill(500)
	h.step(PrinterOK{At: h.now})
	h.step(Key{At: h.now, Key: KeyAttendant, On: true})
	h.step(PrinterFault{At: h.now, Reason: "offline"})
	if eff := h.press(BtnCashOut); eff.Refused != "refused_tilt" {
		t.Fatalf("cash out during printer tilt: %+v", eff)
	}
}

// A power loss after a game start: a new machine on the ledger's state
// finishes the same game with the same stops, and ends it exactly once.
func TestResumeAfterPowerLoss(t *testing.T) {
	h := newHarness(t, testCfg, nil, 7)
	h.power()
	h.bill(20000)
	var started meters.GameStart
	// Play until a game with free games starts, then "lose power" mid-game.
	for {
		eff := h.press(BtnSpin)
		started = eff.Records[0].(meters.GameStart)
		if started.FreeAwarded > 0 {
			// The trigger is presented and the feature starts on its own
			// (no screen: each step's timeout); stop once one free game
			// is committed.
			for len(h.ledger.Open.Free) == 0 {
				h.advance(testCfg.SpinTime)
			}
			break
		}
		for h.m.phase == spinning {
			h.advance(testCfg.SpinTime)
		}
	}
	committed := h.ledger.Clone()
	if committed.Open == nil || len(committed.Open.Free) != 1 {
		t.Fatalf("not mid-game: %+v", committed.Open)
	}
	// Power comes back: a fresh machine with another RNG seed.
	h2 := newHarness(t, testCfg, committed, 999)
	h2.now = h.now.Add(time.Minute)
	h2.power()
	if v := h2.m.View(); v.Mode != "spinning" || !reflect.DeepEqual(v.Stops, committed.Open.Free[0].Stops) {
		t.Fatalf("resumed view %+v", v)
	}
	for h2.m.phase == spinning {
		h2.advance(testCfg.SpinTime)
	}
	var ends int
	for _, r := range h2.records {
		switch r := r.(type) {
		case meters.GameStart:
			t.Fatalf("resume started game %d", r.Game)
		case meters.GameEnd:
			ends++
			if r.Game != started.Game {
				t.Fatalf("ended game %d", r.Game)
			}
		}
	}
	last := h2.ledger.Games[len(h2.ledger.Games)-1]
	if ends != 1 || !reflect.DeepEqual(last.Start.Stops, started.Stops) || !reflect.DeepEqual(last.Free[0].Stops, committed.Open.Free[0].Stops) {
		t.Fatalf("ends %d, stops %v vs %v", ends, last.Start.Stops, started.Stops)
	}
	if err := h2.ledger.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestResumeOwedHandpay(t *testing.T) {
	st := meters.NewState()
	for _, r := range []meters.Record{
		meters.MoneyIn{Source: meters.SourceBill, Cents: 500},
		meters.GameStart{Game: 1, Paytable: "x", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{0, 0, 0, 0, 0}, WinCents: 200000},
		meters.GameEnd{Game: 1, WinCents: 200000, Handpay: true},
	} {
		if err := st.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, testCfg, st, 8)
	h.power()
	if h.ledger.Handpay == nil || h.ledger.Handpay.Cents != 200000 || h.m.View().Mode != "handpay" {
		t.Fatalf("lockout not restored: %+v", h.ledger.Handpay)
	}
}

func TestSelfTestFailuresTiltUntilAPassingRestart(t *testing.T) {
	h := newHarness(t, testCfg, nil, 9)
	h.step(PowerUp{At: h.now, Tests: SelfTest{RNG: "known-answer test failed"}})
	if v := h.m.View(); v.Mode != "tilt" || !reflect.DeepEqual(v.Tilts, []string{TiltRNG}) {
		t.Fatalf("view %+v", v)
	}
	h.bill(500)
	if eff := h.press(BtnSpin); eff.Refused != "refused_tilt" {
		t.Fatal(eff.Refused)
	}
	h.step(Key{At: h.now, Key: KeyAttendant, On: true})
	if len(h.ledger.Tilts) != 1 {
		t.Fatal("the key cleared a self-test tilt")
	}
	// The tilt survives the restart in the ledger; a passing test clears it.
	h2 := newHarness(t, testCfg, h.ledger, 9)
	if len(h2.m.st.Tilts) != 1 {
		t.Fatal("tilt lost across the restart")
	}
	h2.power()
	if len(h2.ledger.Tilts) != 0 || h2.m.View().Mode != "idle" {
		t.Fatalf("tilts %v", h2.ledger.Tilts)
	}
}

func TestPaytableFailureTilts(t *testing.T) {
	h := newHarness(t, testCfg, nil, 10)
	h.step(PowerUp{At: h.now, Tests: SelfTest{Paytable: "signature does not verify"}})
	if v := h.m.View(); v.Mode != "tilt" || v.Paytable != "" {
		t.Fatalf("view %+v", v)
	}
}

func TestLedgerFaultStopsEverything(t *testing.T) {
	h := newHarness(t, testCfg, nil, 11)
	h.power()
	h.bill(1000)
	h.step(LedgerFault{At: h.now, Err: "disk"})
	if eff := h.press(BtnSpin); eff.Refused != "refused_meter_fault" || len(eff.Records) != 0 {
		t.Fatalf("%+v", eff)
	}
	eff := h.step(BillEscrowed{At: h.now, Cents: 500})
	if len(eff.Records) != 0 || !reflect.DeepEqual(eff.Devices, []Device{ReturnBill{Reason: "meter fault"}}) {
		t.Fatalf("a note offered after a meter fault: %+v", eff)
	}
	if h.m.View().Mode != "meter_fault" {
		t.Fatal(h.m.View().Mode)
	}
}

func TestDoorOpenSuspendsTheGame(t *testing.T) {
	h := newHarness(t, testCfg, nil, 12)
	h.power()
	h.bill(1000)
	h.press(BtnSpin)
	h.step(Door{At: h.now, Door: meters.DoorLogic, Open: true})
	n := len(h.records)
	h.advance(time.Hour)
	if len(h.records) != n || h.m.st.Open == nil {
		t.Fatal("the game went on with the logic door open")
	}
	h.step(Door{At: h.now, Door: meters.DoorLogic, Open: false})
	for h.m.phase == spinning {
		h.advance(testCfg.SpinTime)
	}
	if h.m.st.Open != nil || h.ledger.Get(meters.LogicDoorOpens) != 1 {
		t.Fatal("game did not finish after the door closed")
	}
}

func TestDeterministic(t *testing.T) {
	run := func() []meters.Record {
		h := newHarness(t, testCfg, nil, 77)
		h.power()
		h.bill(5000)
		for range 30 {
			h.play()
		}
		return h.records
	}
	a, b := run(), run()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same events and seed gave different records")
	}
}

func TestLanguageToggle(t *testing.T) {
	h := newHarness(t, testCfg, nil, 13)
	if h.m.View().Lang != "pt" {
		t.Fatal("default language is not Portuguese")
	}
	h.press(BtnLanguage)
	if h.m.View().Lang != "en" || !strings.HasPrefix(h.m.View().MachineID, "EGM") {
		t.Fatal("language toggle")
	}
}

func TestPowerDownIsRecordedAndStopsPlay(t *testing.T) {
	h := newHarness(t, testCfg, nil, 14)
	h.power()
	h.bill(1000)
	eff := h.step(PowerDown{At: h.now})
	if ev, ok := eff.Records[0].(meters.Event); !ok || ev.Code != meters.EventPowerDown {
		t.Fatalf("records %+v", eff.Records)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_starting" {
		t.Fatalf("spin after power-down: %q", eff.Refused)
	}
}

func TestProgramChangeIsReported(t *testing.T) {
	h := newHarness(t, testCfg, nil, 15)
	eff := h.step(PowerUp{At: h.now, Tests: SelfTest{ProgramHash: "aa11"}})
	if !hasConfig(eff, SettingProgram, "aa11") {
		t.Fatalf("first program not recorded: %+v", eff.Records)
	}
	h2 := newHarness(t, testCfg, h.ledger, 15)
	if eff := h2.step(PowerUp{At: h.now, Tests: SelfTest{ProgramHash: "aa11"}}); hasConfig(eff, SettingProgram, "aa11") {
		t.Fatal("the same program recorded again")
	}
	h3 := newHarness(t, testCfg, h2.ledger, 15)
	if eff := h3.step(PowerUp{At: h.now, Tests: SelfTest{ProgramHash: "bb22"}}); !hasConfig(eff, SettingProgram, "bb22") {
		t.Fatal("a changed program went unreported")
	}
}

func hasConfig(eff Effects, key, value string) bool {
	for _, r := range eff.Records {
		if c, ok := r.(meters.Config); ok && c.Key == key && c.Value == value {
			return true
		}
	}
	return false
}

func TestHostTurnsTheBillAcceptorOff(t *testing.T) {
	h := newHarness(t, testCfg, nil, 16)
	h.power()
	bills := func(eff Effects) bool {
		for _, d := range eff.Devices {
			if e, ok := d.(EnableBills); ok {
				return e.On
			}
		}
		t.Fatal("no EnableBills effect")
		return false
	}
	if !bills(h.step(Tick{At: h.now})) {
		t.Fatal("bill acceptor off at idle")
	}
	if bills(h.step(HostCommand{At: h.now, Cmd: HostBillsDisable})) {
		t.Fatal("bill acceptor still on after the host turned it off")
	}
	if h.bill(500) {
		t.Fatal("a note offered with the acceptor off was stacked")
	}
	// A note a validator stacked on its own is in the cashbox: credited.
	h.step(BillStacked{At: h.now, Cents: 500})
	if eff := h.press(BtnSpin); eff.Refused != "" {
		t.Fatalf("play refused with only the bill acceptor off: %q", eff.Refused)
	}
	if !bills(h.step(HostCommand{At: h.now, Cmd: HostBillsEnable})) {
		t.Fatal("bill acceptor not back on")
	}
}

// SAS 0x08: the notes the host allows travel to the validator with every
// EnableBills; with "disable after each bill" the acceptor goes off after a
// bill until the host turns it on again (0x06).
func TestHostConfiguresBillDenominations(t *testing.T) {
	h := newHarness(t, testCfg, nil, 17)
	h.power()
	acceptor := func(eff Effects) EnableBills {
		for _, d := range eff.Devices {
			if e, ok := d.(EnableBills); ok {
				return e
			}
		}
		t.Fatal("no EnableBills effect")
		return EnableBills{}
	}
	if e := acceptor(h.step(Tick{At: h.now})); !e.On || e.Accept != nil {
		t.Fatalf("before 0x08: %+v", e)
	}
	e := acceptor(h.step(HostBillDenominations{At: h.now, Accept: []int64{500, 2000}}))
	if !e.On || !reflect.DeepEqual(e.Accept, []int64{500, 2000}) {
		t.Fatalf("after 0x08: %+v", e)
	}
	h.bill(2000)
	if e := acceptor(h.step(Tick{At: h.now})); !e.On {
		t.Fatal("acceptor off after a bill while the host keeps it on")
	}
	h.step(HostBillDenominations{At: h.now, Accept: []int64{}, DisableAfterAccept: true})
	if e := acceptor(h.step(Tick{At: h.now})); !e.On || e.Accept == nil || len(e.Accept) != 0 {
		t.Fatalf("no note allowed: %+v", e)
	}
	if h.bill(500) {
		t.Fatal("a note the host does not allow was stacked")
	}
	h.step(HostBillDenominations{At: h.now, Accept: []int64{500}, DisableAfterAccept: true})
	if !h.bill(500) {
		t.Fatal("an allowed note was returned")
	}
	if e := acceptor(h.step(Tick{At: h.now})); e.On {
		t.Fatal("acceptor still on after a bill with disable-after-accept")
	}
	if e := acceptor(h.step(HostCommand{At: h.now, Cmd: HostBillsEnable})); !e.On {
		t.Fatal("0x06 did not turn the acceptor back on")
	}
	if got := h.m.st.Get(meters.BillsIn); got != 2500 {
		t.Fatalf("bills in %d", got)
	}
	// Host settings are not kept across a restart.
	h2 := newHarness(t, testCfg, h.ledger, 18)
	h2.power()
	if e := acceptor(h2.step(Tick{At: h2.now})); !e.On || e.Accept != nil {
		t.Fatalf("after a restart: %+v", e)
	}
}

// The host's sound off and on (SAS 0x03/0x04) reach the view, which the
// screen follows.
func TestHostTurnsTheSoundOff(t *testing.T) {
	h := newHarness(t, testCfg, nil, 9)
	h.power()
	h.step(HostCommand{At: h.now, Cmd: HostSoundOff})
	if !h.m.View().SoundOff {
		t.Fatal("sound still on after the host's 0x03")
	}
	h.step(HostCommand{At: h.now, Cmd: HostSoundOn})
	if h.m.View().SoundOff {
		t.Fatal("sound still off after the host's 0x04")
	}
}
