package sas

import (
	"errors"
	"fmt"
	"slices"

	"github.com/openegm/cabinet/meters"
)

// Real-time event reporting (long poll 0x0E): the long poll, the event
// messages the cabinet sends and where their data comes from.
//
// Long poll 0x0E (type S): one byte, 00 disable, 01 enable; the machine
// ACKs. While enabled, general polls are answered with real-time event
// messages, addr FF event code, data… CRC (Link.RealTime).
//
// The events with data (the others are addr FF code CRC):
//
//	4F bill accepted  country code (1 BCD), denomination code (1 BCD),
//	                  accepted bills of that denomination (4 BCD)   11 bytes
//	7E game started   credits wagered (2 BCD), total coin in meter (4 BCD),
//	                  wager type (1 binary), progressive group (1 binary) 13 bytes
//	7F game ended     game win (4 BCD)                               9 bytes
//
// Sources: the "IGT SAS Protocol Version 6.02 Reference Documentation"
// digest (12: 12.5 event format with the FF identifier, 12.5.1 bill
// accepted, 12.5.3 game start, 12.5.4 game end "excluding bonus awards",
// 12.6 no 00 in this mode) and the Aristocrat Monaco SAS client
// (LP0ERealTimeEventReportingParser; the Aristocrat.Monaco.Sas exception
// builders BillDataExceptionBuilder, GameStartedExceptionBuilder,
// GameEndedExceptionBuilder; PrimaryGameStartedConsumer for what fills the
// game start fields). The handpay pending event (51) and the other
// exceptions the cabinet raises carry no data in SAS's list of real-time
// events (12.5): they go as addr FF code CRC.

// CmdRealTime is long poll 0x0E, enable/disable real-time event reporting.
const CmdRealTime byte = 0x0E

// ErrRealTime is returned (wrapped) for real-time data that does not fit
// its layout.
var ErrRealTime = errors.New("sas: bad real-time event data")

// ParseRealTime decodes the data of a 0x0E poll: one byte, 00 or 01.
//
// Choice: any other value is refused (the Aristocrat client NACKs it; here,
// as for other malformed polls, the cabinet does not answer).
func ParseRealTime(data []byte) (bool, error) {
	if len(data) != 1 || data[0] > 1 {
		return false, fmt.Errorf("%w: 0E data % X, want 00 or 01", ErrRealTime, data)
	}
	return data[0] == 1, nil
}

// Wager type bits of the game start event.
const (
	// WagerMaxBet: the wager is the game's max bet.
	WagerMaxBet byte = 0x80
	// WagerDenomCode: bits 0-5 hold the SAS denomination code (Table C-4)
	// of the credits wagered.
	WagerDenomCode byte = 0x40
)

// denomCodes is SAS Table C-4, the denomination codes, by cents (as the
// Aristocrat client's DenominationCodes lists it; fractional-cent codes
// left out).
var denomCodes = map[int64]byte{
	1: 0x01, 5: 0x02, 10: 0x03, 25: 0x04, 50: 0x05, 1_00: 0x06, 5_00: 0x07, 10_00: 0x08,
	20_00: 0x09, 100_00: 0x0A, 20: 0x0B, 2_00: 0x0C, 2_50: 0x0D, 25_00: 0x0E, 50_00: 0x0F,
	200_00: 0x10, 250_00: 0x11, 500_00: 0x12, 1_000_00: 0x13, 2_000_00: 0x14, 2_500_00: 0x15,
	5_000_00: 0x16, 2: 0x17, 3: 0x18, 15: 0x19, 40: 0x1A,
}

// DenominationCode returns the SAS denomination code (Table C-4) of a
// denomination in cents, and false when the table has none.
func DenominationCode(cents int64) (byte, bool) {
	c, ok := denomCodes[cents]
	return c, ok
}

// GameStarted is the data of the real-time game start event (7E).
type GameStarted struct {
	CreditsWagered uint64 `json:"credits_wagered"` // 2 BCD
	CoinIn         uint64 `json:"coin_in"`         // total coin in after the wager, 4 BCD (rolls over)
	WagerType      byte   `json:"wager_type"`
	Group          byte   `json:"progressive_group"`
}

// GameEnded is the data of the real-time game end event (7F).
type GameEnded struct {
	Win uint64 `json:"win"` // 4 BCD (rolls over)
}

// BillAccepted is the data of the real-time bill accepted event (4F).
type BillAccepted struct {
	Country byte   `json:"country"` // as a number (39: euro)
	Code    byte   `json:"denomination_code"`
	Count   uint64 `json:"count"` // 4 BCD (rolls over)
}

// GameStartedEvent is the body of the 7E event message.
//
// Choice: like every meter, the coin in meter rolls over at its width.
func GameStartedEvent(g GameStarted) ([]byte, error) {
	if g.CreditsWagered > 9999 {
		return nil, fmt.Errorf("%w: 7E credits wagered %d exceed 4 BCD digits", ErrRealTime, g.CreditsWagered)
	}
	b := AppendBCD([]byte{byte(ExcGameStarted)}, g.CreditsWagered, 2)
	b = AppendBCD(b, g.CoinIn, 4)
	return append(b, g.WagerType, g.Group), nil
}

// GameEndedEvent is the body of the 7F event message.
func GameEndedEvent(g GameEnded) []byte {
	return AppendBCD([]byte{byte(ExcGameEnded)}, g.Win, 4)
}

// BillAcceptedEvent is the body of the 4F event message.
func BillAcceptedEvent(b BillAccepted) ([]byte, error) {
	data, err := LastBillData(LastBill(b))
	if err != nil {
		return nil, fmt.Errorf("%w: 4F: %v", ErrRealTime, err)
	}
	return append([]byte{byte(ExcBillAccepted)}, data...), nil
}

// DecodeRealTimeEvent decodes the data (after the event code) of a
// real-time event message: *GameStarted, *GameEnded or *BillAccepted for
// 7E, 7F and 4F; nil for the codes without data (which must have none).
func DecodeRealTimeEvent(code Exception, data []byte) (any, error) {
	want := map[Exception]int{ExcGameStarted: 8, ExcGameEnded: 4, ExcBillAccepted: 6}[code]
	if len(data) != want {
		return nil, fmt.Errorf("%w: %02X event with %d data bytes, want %d", ErrRealTime, byte(code), len(data), want)
	}
	bcd := func(b []byte) (uint64, error) {
		v, err := DecodeBCD(b)
		if err != nil {
			return 0, fmt.Errorf("%w: %02X event: %v", ErrRealTime, byte(code), err)
		}
		return v, nil
	}
	switch code {
	case ExcGameStarted:
		credits, err := bcd(data[0:2])
		if err != nil {
			return nil, err
		}
		coinIn, err := bcd(data[2:6])
		if err != nil {
			return nil, err
		}
		return &GameStarted{CreditsWagered: credits, CoinIn: coinIn, WagerType: data[6], Group: data[7]}, nil
	case ExcGameEnded:
		win, err := bcd(data)
		if err != nil {
			return nil, err
		}
		return &GameEnded{Win: win}, nil
	case ExcBillAccepted:
		b, err := DecodeLastBill(data)
		if err != nil {
			return nil, fmt.Errorf("%w: 4F: %v", ErrRealTime, err)
		}
		ba := BillAccepted(b)
		return &ba, nil
	}
	return nil, nil
}

// RealTimeConfig is what real-time event data needs besides the ledger.
type RealTimeConfig struct {
	// Group is the SAS progressive group reported with every game start
	// (0: the cabinet has no linked levels).
	//
	// Choice: every game, not only the top bet: the link controller takes
	// contributions from every bet's coin in (as the Aristocrat client
	// reports the group of any game with linked levels).
	Group byte
	// MaxBetLevel is the bet level (as GameStart.Level counts them) that
	// is the max bet: the paytable's top level, as 0x1F reports it; -1
	// when there is none.
	MaxBetLevel int
}

// EventsFor returns the exceptions a batch of committed ledger records
// raises, in order, each with its real-time event message: the codes of
// ExceptionsFor, with data for bills (4F), game starts (7E) and game ends
// (7F). It is pure, like ExceptionsFor: the cabinet calls it after each
// commit and, after a restart, for the records its saved queue does not
// cover, and gets the same events.
//
// after is the ledger's fold after the last record of recs. The meters the
// messages carry are those right after each record: the total coin in
// after a game start, the count of a bill's denomination after that bill.
// They are found by undoing, from after, the later records of the batch
// (a game start adds its bet to coin in; a bill adds one to its count;
// nothing else changes them).
//
// Choice: a record before a RAM clear of the same batch reports those
// meters as 0 (they are not known after the clear). The cabinet never
// commits such a batch: a RAM clear needs no credits and no game, is its own
// step, and the queue is saved after every commit.
//
// Choice, game start (sources above): credits wagered are the bet in the
// game's credits, with WagerDenomCode and the game's denomination code in
// the wager type, as the Aristocrat client reports every game ("always as a
// multi-denom game"), so the host can tell the amount whatever the
// denomination; in accounting credits (cents, 0x1F's denomination) a bet
// of 200 credits at €0.50 would not fit 4 digits. A denomination Table C-4
// lacks is reported in cents without the code bits. WagerMaxBet is set for
// a bet at MaxBetLevel. The coin in meter is in accounting credits (cents),
// as 0x11 reports it.
//
// Choice, game end: the game's win (base game and free games, in cents),
// paid to the credits or by hand; jackpot awards are their own records
// (as SAS 12.5.4 leaves bonus awards out).
func EventsFor(recs []meters.Record, after *meters.State, cfg RealTimeConfig) []ExceptionEvent {
	// Meters right after each record, found backwards.
	coinAfter := make([]int64, len(recs))
	billAfter := make([]int64, len(recs))
	coin := after.Meters[meters.CoinIn]
	counts := slices.Clone(after.BillCounts)
	for i := len(recs) - 1; i >= 0; i-- {
		coinAfter[i] = coin
		switch r := recs[i].(type) {
		case meters.GameStart:
			coin -= r.BetCents
		case meters.MoneyIn:
			if j := slices.Index(meters.BillValues, r.Cents); r.Source == meters.SourceBill && j >= 0 && j < len(counts) {
				billAfter[i] = counts[j]
				counts[j]--
			}
		case meters.RAMClear:
			coin = 0
			clear(counts)
		}
	}
	var out []ExceptionEvent
	for i, r := range recs {
		if _, ok := r.(meters.Config); ok && i > 0 {
			if _, prev := recs[i-1].(meters.Config); prev {
				// Settings changed together (a start-up configuration):
				// one "operator changed options" for them all.
				continue
			}
		}
		for _, code := range ExceptionsFor(r) {
			ev := ExceptionEvent{Code: code}
			switch r := r.(type) {
			case meters.MoneyIn:
				if c, ok := BillCode(r.Cents / 100); ok && r.Cents%100 == 0 {
					ev.Event, _ = BillAcceptedEvent(BillAccepted{Country: CountryEuro, Code: c, Count: uint64(max(billAfter[i], 0))})
				}
			case meters.GameStart:
				ev.Event = gameStartedEvent(r, max(coinAfter[i], 0), cfg)
			case meters.GameEnd:
				ev.Event = GameEndedEvent(GameEnded{Win: uint64(max(r.WinCents, 0))})
			}
			out = append(out, ev)
		}
	}
	return out
}

func gameStartedEvent(r meters.GameStart, coinIn int64, cfg RealTimeConfig) []byte {
	g := GameStarted{CreditsWagered: uint64(max(r.BetCents, 0)), CoinIn: uint64(coinIn), Group: cfg.Group}
	if code, ok := DenominationCode(r.Denom); ok && r.BetCredits >= 0 {
		g.CreditsWagered, g.WagerType = uint64(r.BetCredits), WagerDenomCode|code
	}
	if cfg.MaxBetLevel >= 0 && r.Level == cfg.MaxBetLevel {
		g.WagerType |= WagerMaxBet
	}
	b, err := GameStartedEvent(g)
	if err != nil {
		return nil // a bet too large for the field: the code alone
	}
	return b
}
