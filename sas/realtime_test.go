package sas

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/openegm/cabinet/meters"
)

// 0x08 against the layout of the sources: 4 bytes binary, least
// significant first, bit 0 $1, bit 1 $2, bit 2 $5, bit 3 $10, bit 4 $20,
// bit 5 $25, bit 6 $50, bit 7 $100; second byte $200, $250, $500, $1,000,
// $2,000, $2,500, $5,000, $10,000; third byte $20,000 … $1,000,000; then
// the action flag (bit 0: 1 keep enabled, 0 disable after each bill).
func TestBillDenominationsLayout(t *testing.T) {
	table := []struct {
		face int64
		bit  uint
	}{
		{1, 0}, {2, 1}, {5, 2}, {10, 3}, {20, 4}, {25, 5}, {50, 6}, {100, 7},
		{200, 8}, {250, 9}, {500, 10}, {1000, 11}, {2000, 12}, {2500, 13}, {5000, 14}, {10000, 15},
		{20000, 16}, {25000, 17}, {50000, 18}, {100000, 19}, {200000, 20}, {250000, 21}, {500000, 22}, {1000000, 23},
	}
	for _, c := range table {
		b := BillDenominationsFor([]int64{c.face}, true)
		if b.Mask != 1<<c.bit || !b.Enabled(c.face) {
			t.Errorf("%d: mask %08X, want bit %d", c.face, b.Mask, c.bit)
		}
		if code, ok := BillCode(c.face); !ok || uint(code) != c.bit {
			t.Errorf("%d: bill code %d %v, want %d", c.face, code, ok, c.bit)
		}
		if v, ok := BillCodeValue(byte(c.bit)); !ok || v != c.face {
			t.Errorf("code %d: value %d", c.bit, v)
		}
	}
	if _, ok := BillCode(3); ok {
		t.Error("a code for 3")
	}
	if _, ok := BillCodeValue(24); ok {
		t.Error("a value for code 24")
	}
	// Every euro note: €5 €10 €20 €50 €100 | €200 €500.
	euro := BillDenominationsFor([]int64{5, 10, 20, 50, 100, 200, 500}, false)
	data := BillDenominationsData(euro)
	if !bytes.Equal(data, []byte{0xDC, 0x05, 0x00, 0x00, 0x00}) {
		t.Fatalf("euro notes, disable after each: % X", data)
	}
	frame := LongPollFrame(1, CmdConfigureBills, data...)
	f, err := ParseFrame(frame)
	if err != nil || len(frame) != 9 || f.Type() != PollS {
		t.Fatalf("0x08 frame % X: %v", frame, err)
	}
	got, err := ParseBillDenominations(f.Data)
	if err != nil || got != euro {
		t.Fatalf("parsed %+v %v, want %+v", got, err, euro)
	}
	for flag, keep := range map[byte]bool{0x00: false, 0x01: true, 0x02: false, 0x03: true, 0xFF: true} {
		b, err := ParseBillDenominations([]byte{0x04, 0, 0, 0x80, flag})
		if err != nil || b.KeepEnabled != keep || !b.Enabled(5) || b.Enabled(10) {
			t.Errorf("flag %02X: %+v %v", flag, b, err)
		}
	}
	for _, bad := range [][]byte{nil, {1, 2, 3, 4}, {1, 2, 3, 4, 5, 6}} {
		if _, err := ParseBillDenominations(bad); !errors.Is(err, ErrBills) {
			t.Errorf("% X: %v", bad, err)
		}
	}
}

// 0x48: country code (1 BCD), denomination code (1 BCD), bill meter (4
// BCD); the euro is 39, the €500 note code 10, both as BCD.
func TestLastBillLayout(t *testing.T) {
	data, err := LastBillData(LastBill{Country: CountryEuro, Code: 10, Count: 1234})
	if err != nil || !bytes.Equal(data, []byte{0x39, 0x10, 0x00, 0x00, 0x12, 0x34}) {
		t.Fatalf("% X %v", data, err)
	}
	if b, err := DecodeLastBill(data); err != nil || b != (LastBill{39, 10, 1234}) {
		t.Fatalf("decoded %+v %v", b, err)
	}
	if f, err := ParseFrame(LongPollFrame(1, CmdLastBill)); err != nil || f.Type() != PollR {
		t.Fatalf("0x48 poll: %v", err)
	}
	if n := len(BuildReply(1, CmdLastBill, data...)); n != 10 {
		t.Fatalf("reply of %d bytes", n)
	}
	if _, err := LastBillData(LastBill{Country: 100}); !errors.Is(err, ErrBills) {
		t.Error(err)
	}
	for _, bad := range [][]byte{{0x39, 0x10, 0, 0, 0}, {0x3A, 0x10, 0, 0, 0, 0}, {0x39, 0x10, 0, 0, 0, 0xF0}} {
		if _, err := DecodeLastBill(bad); !errors.Is(err, ErrBills) {
			t.Errorf("% X: %v", bad, err)
		}
	}
}

// 0xA0: the bit of each feature as the Aristocrat client names them
// (tables 7.14c-f), and the reply layout: game number (2 BCD), features
// 1-4, two reserved bytes.
func TestEnabledFeaturesLayout(t *testing.T) {
	bits := []struct {
		got, want byte
	}{
		{Feature1JackpotMultiplier, 0x01}, {Feature1AFTBonusAwards, 0x02}, {Feature1LegacyBonusAwards, 0x04},
		{Feature1Tournament, 0x08}, {Feature1ValidationExtensions, 0x10}, {Feature1ValidationStyleBit0, 0x20},
		{Feature1ValidationStyleBit1, 0x40}, {Feature1TicketRedemption, 0x80},
		{Feature2MeterModelWhenWon, 0x01}, {Feature2MeterModelWhenPlayed, 0x02}, {Feature2TicketsToDrop, 0x04},
		{Feature2ExtendedMeters, 0x08}, {Feature2ComponentAuth, 0x10}, {Feature2JackpotKeyoffExc, 0x20},
		{Feature2AFT, 0x40}, {Feature2MultiDenom, 0x80},
		{Feature3MaxPollingRate40ms, 0x01}, {Feature3MultipleProgressiveWins, 0x02}, {Feature3MeterChangeNotification, 0x04},
		{Feature3SessionPlay, 0x10}, {Feature3ForeignCurrencyRedemption, 0x20}, {Feature3NonSASProgressiveHits, 0x40},
		{Feature3EnhancedProgressiveReports, 0x80}, {Feature4MaxProgressivePayback, 0x01},
	}
	for i, b := range bits {
		if b.got != b.want {
			t.Errorf("feature %d: %02X, want %02X", i, b.got, b.want)
		}
	}
	f := Features{Game: 12, Bits: [4]byte{0, 0x09, 0x03, 0}}
	data, err := EnabledFeaturesData(f)
	if err != nil || !bytes.Equal(data, []byte{0x00, 0x12, 0x00, 0x09, 0x03, 0x00, 0x00, 0x00}) {
		t.Fatalf("% X %v", data, err)
	}
	if got, err := DecodeEnabledFeatures(data); err != nil || got != f {
		t.Fatalf("decoded %+v %v", got, err)
	}
	want := []string{"meter model: metered when won", "extended meters", "max polling rate 40 ms", "multiple SAS progressive win reporting"}
	if !slices.Equal(f.Names(), want) {
		t.Fatalf("names %q", f.Names())
	}
	if n := (Features{Bits: [4]byte{0, 0, 0x08, 0x02}}).Names(); !slices.Equal(n, []string{"features 3 bit 3 (reserved)", "features 4 bit 1 (reserved)"}) {
		t.Fatalf("reserved bits: %q", n)
	}
	poll := LongPollFrame(1, CmdEnabledFeatures, 0x00, 0x00)
	if p, err := ParseFrame(poll); err != nil || len(poll) != 6 || p.Type() != PollM {
		t.Fatalf("0xA0 poll % X: %v", poll, err)
	}
	if n := len(BuildReply(1, CmdEnabledFeatures, data...)); n != 12 {
		t.Fatalf("reply of %d bytes", n)
	}
	if _, err := EnabledFeaturesData(Features{Game: 10000}); !errors.Is(err, ErrFeatures) {
		t.Error(err)
	}
	for _, bad := range [][]byte{data[:7], {0x0A, 0, 0, 0, 0, 0, 0, 0}} {
		if _, err := DecodeEnabledFeatures(bad); !errors.Is(err, ErrFeatures) {
			t.Errorf("% X: %v", bad, err)
		}
	}
}

// The real-time event bodies against the layouts of the sources, and the
// lengths the host side expects of the whole messages (addr FF … CRC).
func TestRealTimeEventLayouts(t *testing.T) {
	gs, err := GameStartedEvent(GameStarted{CreditsWagered: 30, CoinIn: 1_000_000, WagerType: 0xC1, Group: 6})
	if err != nil || !bytes.Equal(gs, []byte{0x7E, 0x00, 0x30, 0x01, 0x00, 0x00, 0x00, 0xC1, 0x06}) {
		t.Fatalf("7E % X %v", gs, err)
	}
	ge := GameEndedEvent(GameEnded{Win: 12345})
	if !bytes.Equal(ge, []byte{0x7F, 0x00, 0x01, 0x23, 0x45}) {
		t.Fatalf("7F % X", ge)
	}
	ba, err := BillAcceptedEvent(BillAccepted{Country: CountryEuro, Code: 6, Count: 7})
	if err != nil || !bytes.Equal(ba, []byte{0x4F, 0x39, 0x06, 0x00, 0x00, 0x00, 0x07}) {
		t.Fatalf("4F % X %v", ba, err)
	}
	for body, n := range map[string]int{string(gs): 13, string(ge): 9, string(ba): 11, "\x51": 5} {
		msg := BuildReply(1, RealTimeEventCmd, []byte(body)...)
		if len(msg) != n {
			t.Errorf("%02X message of %d bytes, want %d", body[0], len(msg), n)
		}
	}
	for body, want := range map[string]any{
		string(gs): &GameStarted{30, 1_000_000, 0xC1, 6}, string(ge): &GameEnded{12345},
		string(ba): &BillAccepted{39, 6, 7}, "\x51": nil,
	} {
		got, err := DecodeRealTimeEvent(Exception(body[0]), []byte(body[1:]))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%02X: %#v %v", body[0], got, err)
		}
	}
	for _, bad := range []struct {
		code Exception
		data []byte
	}{{0x7E, gs[1:8]}, {0x7F, []byte{0, 0, 0, 0xAB}}, {0x4F, []byte{0x39, 0x06, 0, 0, 0}}, {0x51, []byte{1}}} {
		if _, err := DecodeRealTimeEvent(bad.code, bad.data); !errors.Is(err, ErrRealTime) {
			t.Errorf("%02X % X: %v", byte(bad.code), bad.data, err)
		}
	}
	if _, err := GameStartedEvent(GameStarted{CreditsWagered: 10000}); !errors.Is(err, ErrRealTime) {
		t.Error(err)
	}
	for data, want := range map[string]bool{"\x00": false, "\x01": true} {
		if on, err := ParseRealTime([]byte(data)); err != nil || on != want {
			t.Errorf("0E % X: %v %v", data, on, err)
		}
	}
	for _, bad := range [][]byte{nil, {2}, {1, 1}} {
		if _, err := ParseRealTime(bad); !errors.Is(err, ErrRealTime) {
			t.Errorf("0E % X: %v", bad, err)
		}
	}
	if f, err := ParseFrame(LongPollFrame(1, CmdRealTime, 1)); err != nil || len(f.Raw) != 5 {
		t.Fatalf("0x0E poll: %v", err)
	}
	for cents, code := range map[int64]byte{1: 0x01, 2: 0x17, 5: 0x02, 10: 0x03, 20: 0x0B, 50: 0x05, 100: 0x06} {
		if c, ok := DenominationCode(cents); !ok || c != code {
			t.Errorf("denomination %d: %02X", cents, c)
		}
	}
}

// session is a ledger's worth of records: bills, games at two bet levels
// and denominations, a handpay, a door.
func session() []meters.Record {
	gs := func(game uint64, level int, denom, credits, win int64) meters.GameStart {
		return meters.GameStart{Game: game, Paytable: "t", Stops: []int{1, 2, 3}, Denom: denom, Level: level,
			BetCredits: credits, BetCents: credits * denom, WinCents: win}
	}
	return []meters.Record{
		meters.MoneyIn{Source: meters.SourceBill, Cents: 5000},
		meters.MoneyIn{Source: meters.SourceBill, Cents: 2000},
		gs(1, 0, 1, 20, 0),
		meters.GameEnd{Game: 1},
		gs(2, 4, 1, 200, 150),
		meters.GameEnd{Game: 2, WinCents: 150},
		meters.MoneyIn{Source: meters.SourceBill, Cents: 5000},
		meters.Event{Code: meters.EventDoorOpen, Door: meters.DoorMain},
		meters.Event{Code: meters.EventDoorClose, Door: meters.DoorMain},
		gs(3, 4, 50, 200, 500000),
		meters.GameEnd{Game: 3, WinCents: 500000, Handpay: true},
		meters.HandpayPending{Kind: meters.HandpayWin, Cents: 500000, Game: 3},
		meters.HandpayReset{Who: "att", Cents: 500000},
		meters.MoneyIn{Source: meters.SourceBill, Cents: 50000},
	}
}

// EventsFor derives each message's meters from the state after the batch;
// whatever the batches, they are the fold's meters right after each record,
// and the events are those of ExceptionsFor, in order.
func TestEventsForMatchesTheFold(t *testing.T) {
	recs := session()
	states := []*meters.State{meters.NewState()}
	for _, r := range recs {
		next, err := states[len(states)-1].Clone().Next(r)
		if err != nil {
			t.Fatalf("%v: %v", r.Type(), err)
		}
		states = append(states, next)
	}
	cfg := RealTimeConfig{Group: 5, MaxBetLevel: 4}
	var want []ExceptionEvent
	for i, r := range recs {
		after := states[i+1]
		for _, code := range ExceptionsFor(r) {
			ev := ExceptionEvent{Code: code}
			switch r := r.(type) {
			case meters.MoneyIn:
				c, _ := BillCode(r.Cents / 100)
				ev.Event, _ = BillAcceptedEvent(BillAccepted{39, c, uint64(after.BillCounts[slices.Index(meters.BillValues, r.Cents)])})
			case meters.GameStart:
				wt, _ := DenominationCode(r.Denom)
				wt |= WagerDenomCode
				if r.Level == 4 {
					wt |= WagerMaxBet
				}
				ev.Event, _ = GameStartedEvent(GameStarted{uint64(r.BetCredits), uint64(after.Get(meters.CoinIn)), wt, 5})
			case meters.GameEnd:
				ev.Event = GameEndedEvent(GameEnded{uint64(r.WinCents)})
			}
			want = append(want, ev)
		}
	}
	// By hand, the third game: 200 credits at 50 cents, max bet, coin in
	// 20 + 200 + 10000 cents.
	if g := want[9]; g.Code != ExcGameStarted || !bytes.Equal(g.Event, []byte{0x7E, 0x02, 0x00, 0x00, 0x01, 0x02, 0x20, 0xC5, 0x05}) {
		t.Fatalf("third game start % X (%v)", g.Event, g.Code)
	}
	if b := want[len(want)-1]; b.Code != ExcBill500Accepted || !bytes.Equal(b.Event, []byte{0x4F, 0x39, 0x10, 0, 0, 0, 0x01}) {
		t.Fatalf("€500 bill % X (%v)", b.Event, b.Code)
	}
	for _, size := range []int{1, 2, 3, 5, len(recs)} {
		var got []ExceptionEvent
		for i := 0; i < len(recs); i += size {
			j := min(i+size, len(recs))
			got = append(got, EventsFor(recs[i:j], states[j], cfg)...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("batches of %d:\n got %v\nwant %v", size, got, want)
		}
	}
	// No max bet level, a denomination Table C-4 lacks: the bet in cents.
	odd := meters.GameStart{Game: 1, Paytable: "t", Stops: []int{1}, Denom: 7, BetCredits: 3, BetCents: 21}
	st := meters.NewState()
	st.Meters[meters.CoinIn] = 21
	ev := EventsFor([]meters.Record{odd}, st, RealTimeConfig{MaxBetLevel: -1})
	if len(ev) != 1 || !bytes.Equal(ev[0].Event, []byte{0x7E, 0x00, 0x21, 0, 0, 0, 0x21, 0x00, 0x00}) {
		t.Fatalf("odd denomination: %v", ev)
	}
}

func TestExceptionQueueEvents(t *testing.T) {
	q := NewExceptionQueue(20)
	bill, _ := BillAcceptedEvent(BillAccepted{39, 6, 1})
	q.PushEvent(ExceptionEvent{Code: ExcBill50Accepted, Event: bill})
	q.PushEvent(ExceptionEvent{Code: ExcHandpayPending, Event: []byte{0x51, 1, 2}}) // priority: no data
	q.Push(ExcSlotDoorOpened)
	q.PushEvent(ExceptionEvent{Code: ExcGameEnded, Event: make([]byte, MaxEventBody+1)}) // too long: dropped
	q.PushEvent(ExceptionEvent{Code: ExcGameEnded, Event: []byte{0x00, 0x01}})           // code 00: dropped
	if got := q.NextEvent(); !bytes.Equal(got, []byte{0x51}) || q.InFlight() != ExcHandpayPending {
		t.Fatalf("first %X", got)
	}
	if got := q.NextEvent(); !bytes.Equal(got, []byte{0x51}) {
		t.Fatal("in flight not repeated")
	}
	q.Ack()
	if got := q.NextEvent(); !bytes.Equal(got, bill) || q.InFlight() != ExcBill50Accepted {
		t.Fatalf("bill % X", got)
	}
	q.Nack()
	if q.Next() != ExcBill50Accepted {
		t.Fatal("plain Next after a Nack")
	}
	q.Ack()

	b, _ := q.MarshalBinary()
	if b[0] != 1 {
		t.Fatalf("no event data, version %d", b[0])
	}
	q.PushEvent(ExceptionEvent{Code: ExcBill50Accepted, Event: bill})
	b, err := q.MarshalBinary()
	if err != nil || b[0] != 2 {
		t.Fatalf("version %d %v", b[0], err)
	}
	want := []byte{2, 20, 0, 0, 4, 0, 0x11, 0, 0x7F, 0, 0x7F, 0, 0x4B, 7}
	if !bytes.Equal(b, append(want, bill...)) {
		t.Fatalf("encoded % X", b)
	}
	var r ExceptionQueue
	if err := r.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.PendingEvents(), q.PendingEvents()) {
		t.Fatalf("restored %v, want %v", r.PendingEvents(), q.PendingEvents())
	}
	for _, want := range [][]byte{{0x11}, {0x7F}, {0x7F}, bill} {
		if got := r.NextEvent(); !bytes.Equal(got, want) {
			t.Fatalf("restored queue reports % X, want % X", got, want)
		}
		r.Ack()
	}
	for name, bad := range map[string][]byte{
		"version 3":       {3, 20, 0, 0, 0, 0},
		"no length":       {2, 20, 0, 0, 1, 0, 0x11},
		"short body":      {2, 20, 0, 0, 1, 0, 0x11, 2, 0x11},
		"long body":       append([]byte{2, 20, 0, 0, 1, 0, 0x11, MaxEventBody + 1}, make([]byte, MaxEventBody+1)...),
		"event code zero": {2, 20, 0, 0, 1, 0, 0x11, 1, 0x00},
		"trailing":        {2, 20, 0, 0, 1, 0, 0x11, 0, 0x12},
		"missing entry":   {2, 20, 0, 0, 2, 0, 0x11, 0},
		"priority":        {2, 20, 0, 0, 1, 0, 0x51, 0},
	} {
		before, _ := r.MarshalBinary()
		if err := r.UnmarshalBinary(bad); !errors.Is(err, ErrQueueFormat) {
			t.Errorf("%s: %v", name, err)
		}
		if after, _ := r.MarshalBinary(); !bytes.Equal(after, before) {
			t.Errorf("%s: a failed UnmarshalBinary changed the queue", name)
		}
	}
}

// Real-time mode on the link: events in their message, silence for
// nothing, resend of a lost message byte for byte, implied ACK, and plain
// codes again once it is off.
func TestLinkRealTime(t *testing.T) {
	x := newHarness(t, 1)
	x.sync()
	gp := GeneralPollFrame(1)
	x.l.RealTime = true
	if got, ev := x.send(gp); got != nil || ev.Kind != EventGeneralPoll || !ev.RealTime || ev.Code != ExcNone {
		t.Fatalf("nothing to report: % X %+v", got, ev)
	}
	if got, _ := x.send(gp); got != nil {
		t.Fatalf("nothing to report, again: % X", got)
	}
	end := GameEndedEvent(GameEnded{Win: 250})
	x.l.Exceptions.PushEvent(ExceptionEvent{Code: ExcGameEnded, Event: end})
	x.l.Exceptions.Push(ExcSlotDoorOpened)
	msg := BuildReply(1, 0xFF, end...)
	ev := x.expect(gp, msg, EventGeneralPoll)
	if !ev.RealTime || ev.Code != ExcGameEnded {
		t.Fatalf("%+v", ev)
	}
	x.expect(gp, msg, EventResent) // the host lost it
	ev = x.expect(LongPollFrame(1, 0x1A), sas1A(), EventLongPoll)
	if ev.AckedException != ExcGameEnded {
		t.Fatalf("moving on acknowledged %v", ev.AckedException)
	}
	x.l.Defer(0x21, 0x34, 0x12)
	x.expect(gp, BuildReply(1, 0x21, 0x34, 0x12), EventGeneralPoll) // a deferred reply first
	x.sync()                                                        // the host moves on
	x.expect(gp, BuildReply(1, 0xFF, 0x11), EventGeneralPoll)
	x.sync()
	x.l.RealTime = false
	x.l.Exceptions.Push(ExcSlotDoorClosed)
	x.expect(gp, []byte{0x12}, EventGeneralPoll)
	x.sync()
	x.expect(gp, []byte{0x00}, EventGeneralPoll)
}

func sas1A() []byte { return BuildReply(1, 0x1A, 0x00, 0x00, 0x01, 0x00) }
