package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/sas/metercode"
)

// The inspector's report: everything the ledger proves about one machine,
// in two forms, each signed by whoever issues it (the machine key at the
// cabinet, the inspector's key with meterread): a document people read,
// in Portuguese (the default) or English, and the same content as JSON.

// ReportFormat names the JSON report's layout.
const ReportFormat = "openegm-ledger-report/1"

// Report is the inspector's report of one machine's ledger.
type Report struct {
	Format    string        `json:"format"`
	Machine   ReportMachine `json:"machine"`
	Generated string        `json:"generated_at"` // UTC, RFC 3339
	Verdict   Verdict       `json:"verdict"`
	Program   ReportProgram `json:"program"`
	Paytable  ReportTable   `json:"paytable"`
	// ActualRTP is total won ÷ total bet from the meters, a percentage
	// with two decimals ("" before any bet).
	ActualRTP string     `json:"actual_rtp"`
	Meters    []MeterRow `json:"meters"`
	// MetersAt is when the meters were read: the time of the log's last
	// record (unix ns; 0 when the report was not read from the log).
	MetersAt int64        `json:"meters_read_at,omitempty"`
	Jackpot  []JackpotRow `json:"jackpot"`
	// Period is what the money paths cover: the whole ledger, or the
	// times asked.
	Period ReportPeriod `json:"period"`
	// The money paths, from every record of the period (paths.go), and
	// the checks that they add up to the meters (checks.go).
	Handpays           []HandpayRow           `json:"handpays"`
	MoneyIn            []meters.MoneyIn       `json:"money_in"` // notes, coins, tickets credited
	BillOrders         []BillOrderRow         `json:"bill_orders"`
	TicketsIn          []TicketInRow          `json:"tickets_in"`
	Tickets            []TicketRow            `json:"tickets_out"`
	AFT                []AFTRow               `json:"aft"`
	Promo              PromoSection           `json:"promo"`
	Poker              []PokerRow             `json:"poker"`
	ValidationSettings []ValidationSettingRow `json:"validation_settings"`
	TestModes          []TestModeRow          `json:"test_modes"`
	Checks             Checks                 `json:"checks"`
	RAMClears          []RAMClearRow          `json:"ram_clears"`
	Games              []GameRow              `json:"games"`
	Events             []EventRow             `json:"events"`
	// PeriodMeters are the meters at the period's start and end readings
	// (Period.StartAt, EndAt) and what they moved; none for the whole
	// ledger.
	PeriodMeters []PeriodMeterRow `json:"period_meters,omitempty"`
	// PerGame are each game's meters (meters.GameKinds; SAS game numbers
	// from 1 in that order).
	PerGame map[string]meters.GameMeters `json:"per_game"`
	// PerGameJackpots are the jackpots each game won (mystery, linked and
	// local, which its meters' won does not hold), cents, since the last
	// RAM clear.
	PerGameJackpots map[string]int64 `json:"per_game_jackpots,omitempty"`
}

// ReportPeriod is the period of the money paths: RFC 3339 times, "" an
// open end; Whole when both are open.
type ReportPeriod struct {
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	Whole bool   `json:"whole"`
	// StartAt and EndAt (unix ns) are when the meters at the period's
	// start and end were read: the last record before it (0: the empty
	// ledger) and the last record in it.
	StartAt int64 `json:"start_reading_at,omitempty"`
	EndAt   int64 `json:"end_reading_at,omitempty"`
}

// PeriodMeterRow is a meter at the start and the end of the period and
// what it moved (End − Start; a RAM clear in the period makes it
// negative).
type PeriodMeterRow struct {
	Name  string `json:"name"`
	SAS   string `json:"sas,omitempty"`
	Unit  string `json:"unit"`
	Start int64  `json:"start"`
	End   int64  `json:"end"`
	Diff  int64  `json:"difference"`
}

// periodMeters are the period's meters that are not zero at both ends.
func periodMeters(h *History) []PeriodMeterRow {
	if !h.read || (h.From.IsZero() && h.To.IsZero()) {
		return nil
	}
	var rows []PeriodMeterRow
	for i, d := range meters.Defs {
		s, e := h.base[i], h.end[i]
		if s == 0 && e == 0 {
			continue
		}
		row := PeriodMeterRow{Name: d.Name, Unit: "count", Start: s, End: e, Diff: e - s}
		if d.SAS >= 0 {
			row.SAS, _ = sasLabel(metercode.Code(d.SAS))
		}
		if d.Cents {
			row.Unit = "cents"
		}
		rows = append(rows, row)
	}
	return rows
}

// PromoSection is the promotional credits' movements and totals.
type PromoSection struct {
	Rows   []PromoRow  `json:"rows"`
	Totals PromoTotals `json:"totals"`
}

// ReportMachine names the machine the report is about.
type ReportMachine struct {
	ID     string `json:"id"`
	Number string `json:"number,omitempty"`
	KeyID  string `json:"key_id"` // the machine key that signs its ledger
}

// ReportProgram is the program that last ran, as the ledger recorded it.
type ReportProgram struct {
	Hash string `json:"hash"` // BLAKE2b-256, hex
	// Approval is how the program was found approved; "" when the issuer
	// could not check it (offline, without the approved list).
	Approval string `json:"approval"`
}

// ReportTable is the certified paytable in play.
type ReportTable struct {
	ID      string   `json:"id"`
	Version string   `json:"version"`
	Digest  string   `json:"digest"`
	RTP     []RTPRow `json:"certified_rtp"`
	// Problem says why the certified figures are missing (the paytable is
	// not one this program carries, or its digest differs from the games').
	Problem string `json:"problem,omitempty"`
	// problem is Problem as a report text's key and arguments, for the
	// text in the run's language ("" key: the loader's own words).
	problemKey  string
	problemArgs []any
}

// RTPRow is the certified return of one bet level, exact and rounded.
type RTPRow struct {
	Level          int    `json:"level"`
	CreditsPerLine int64  `json:"credits_per_line"`
	Fraction       string `json:"fraction"`
	Percent        string `json:"percent"`
}

// HandpayRow is a handpay and its payment. Ref is the AFT transfer of a
// bonus jackpot; a handpay validated has its Validation number (SAS
// secure-enhanced, 18 digits) and Receipt says a receipt carrying it was
// printed (the cashier's voucher, number ReceiptNo).
type HandpayRow struct {
	At         int64  `json:"at"`
	Kind       string `json:"kind"`
	Cents      int64  `json:"cents"`
	Game       uint64 `json:"game,omitempty"`
	Ref        string `json:"ref,omitempty"`
	PaidAt     int64  `json:"paid_at,omitempty"`
	PaidBy     string `json:"paid_by,omitempty"`
	Pending    bool   `json:"pending,omitempty"`
	Validation string `json:"validation,omitempty"`
	Receipt    bool   `json:"receipt,omitempty"`
	ReceiptNo  uint16 `json:"receipt_no,omitempty"`
}

// TicketRow is a ticket printed, or voided (its amount back on the
// credit), or (Pending) cashed out and not yet confirmed printed. Ticket
// is its validation number, Style how it was made (meters.StyleSecureEnhanced,
// meters.StyleSystem; "" the cabinet's own), TicketNo the number printed
// on it.
type TicketRow struct {
	At         int64  `json:"at"`
	Ticket     string `json:"ticket"`
	Cents      int64  `json:"cents"`
	Reprint    bool   `json:"reprint,omitempty"`
	Void       string `json:"void,omitempty"` // why it was voided
	Pending    bool   `json:"pending,omitempty"`
	Style      string `json:"style,omitempty"`
	TicketNo   uint16 `json:"ticket_no,omitempty"`
	ExpiryDays uint16 `json:"expiry_days,omitempty"`
	// Kind is "restricted" for a restricted promotional ticket: the
	// restricted credits of Pool, playable until Expiration, never money.
	Kind       string `json:"kind,omitempty"`
	Pool       uint16 `json:"pool,omitempty"`
	Expiration string `json:"expiration,omitempty"`
}

// RAMClearRow is a RAM clear with the meters just before it.
type RAMClearRow struct {
	At           int64      `json:"at"`
	Who          string     `json:"who"`
	Why          string     `json:"why"`
	MetersBefore []MeterRow `json:"meters_before"`
}

// GameRow is a game of the history.
type GameRow struct {
	Game     uint64  `json:"game"`
	At       int64   `json:"at"`
	Paytable string  `json:"paytable"`
	BetCents int64   `json:"bet_cents"`
	Stops    []int   `json:"stops"`
	Free     [][]int `json:"free_games,omitempty"` // each free game's stops
	WinCents int64   `json:"win_cents"`
	Ended    bool    `json:"ended"`
	Handpay  bool    `json:"handpay,omitempty"`
	// Kind is the game; a Makccarat hand has its cards and stakes, and
	// Check says what the inspector's own evaluation of them found (""
	// when it pays what the ledger recorded).
	Kind  string            `json:"kind"`
	Hand  *meters.TableHand `json:"hand,omitempty"`
	Check string            `json:"check,omitempty"`
	// Every amount the game paid: the base spin (a hand: what it paid
	// back), each free game's win, and each jackpot it won (mystery,
	// linked or the paytable's local levels), which the game's win does
	// not hold; PaidCents is their sum.
	BaseWinCents int64         `json:"base_win_cents"`
	FreeWins     []int64       `json:"free_wins,omitempty"`
	Jackpots     []GameJackpot `json:"jackpots,omitempty"`
	PaidCents    int64         `json:"paid_cents"`
	checkPT      string        // Check in Portuguese
}

// GameJackpot is a jackpot a game won: its level, what kind of level
// (JackpotMystery, JackpotLinked, JackpotLocal), the amount awarded and
// whether an attendant paid it.
type GameJackpot struct {
	Level     int    `json:"level"`
	Kind      string `json:"kind"`
	Cents     int64  `json:"cents"`
	Attendant bool   `json:"attendant,omitempty"`
}

// Issuer is what the report's issuer knows beyond the ledger.
type Issuer struct {
	At time.Time
	// Approval is the program's approval as the cabinet checked it ("":
	// not checked, as offline).
	Approval string
}

// History is what only the whole log gives (the state keeps the last
// games and events, for recall, and none of most money paths): every
// game and event, the meters before each RAM clear, and every money path
// of the period with what the period moved (for the checks).
type History struct {
	Games     []meters.GameHistory
	Events    []meters.Event
	RAMClears []RAMClearRow
	Tickets   []TicketRow

	From, To           time.Time // the period asked (zero: open)
	Handpays           []HandpayRow
	MoneyIn            []meters.MoneyIn
	BillOrders         []BillOrderRow
	TicketsIn          []TicketInRow
	AFT                []AFTRow
	Promo              PromoSection
	Poker              []PokerRow
	ValidationSettings []ValidationSettingRow
	TestModes          []TestModeRow

	// Log is every event of the period in the report's words
	// (timeline.go); Jackpots each game's jackpot awards, by game number.
	Log      []EventRow
	Jackpots map[uint64][]GameJackpot
	// StartAt and EndAt are the times of the readings the period's
	// meters are: the last record before the period (0: none, the empty
	// ledger) and the last record in it.
	StartAt, EndAt int64
	LastAt         int64 // the last record of the log
	// PerGameJackpots are the jackpots each game (meters.GameKinds) won
	// since the last RAM clear, as its meters count since then.
	PerGameJackpots map[string]int64

	read            bool // by ReadHistory: the sums below are the log's
	sum             tally
	base, end       meters.Values // the meters before and after the period
	baseAFT, endAFT map[metercode.Code]int64
	endCredits      aft.Credits
	clearedInPeriod bool
}

// ReadHistory folds the log of dir from its first record (read-only: the
// directory is not touched, no key is needed), keeping what happened
// between from and to (zero: no bound); a game by its start.
func ReadHistory(dir string, from, to time.Time) (*History, error) {
	ld, err := LedgerDir(dir)
	if err != nil {
		return nil, err
	}
	in := func(ns int64) bool {
		t := time.Unix(0, ns)
		return (from.IsZero() || !t.Before(from)) && (to.IsZero() || !t.After(to))
	}
	h := &History{From: from, To: to, read: true, Jackpots: map[uint64][]GameJackpot{}}
	mystery := map[uint64][]int{}  // game number -> its mystery levels
	kinds := map[uint64]string{}   // game number -> its game
	linked := map[[2]uint64]bool{} // game, level reported to the link controller
	var prevSvc *meters.Service    // the service action just before
	kindOf := func(game uint64, level int, target int64) string {
		switch {
		case target != 0 || slices.Contains(mystery[game], level):
			return JackpotMystery
		case linked[[2]uint64{game, uint64(level)}]:
			return JackpotLinked
		}
		return JackpotLocal
	}
	// The fold turns records into games and events as the machine does
	// (settings and service actions become events).
	st := meters.NewState()
	open := map[uint64]int{} // game number -> index in h.Games
	paths := newCollector(h, in)
	err = meters.Records(ld, func(seq uint64, r meters.Record) error {
		if r, ok := r.(meters.RAMClear); ok && in(r.At) {
			h.RAMClears = append(h.RAMClears, RAMClearRow{At: r.At, Who: r.Who, Why: r.Why, MetersBefore: MeterRows(st)})
		}
		events := len(st.Events)
		prev, prevAFT := st.Meters, st.AFT.Meters
		if err := st.Apply(r); err != nil {
			return fmt.Errorf("record %d (%s): %w", seq, r.Type(), err)
		}
		paths.record(r, prev, prevAFT, st)
		t := at(r)
		if t >= 0 {
			h.LastAt = t
		}
		if in(t) {
			h.Log = append(h.Log, timeline(r, prevSvc, kindOf)...)
			h.EndAt = t
		} else if h.EndAt == 0 && t >= 0 {
			h.StartAt = t
		}
		prevSvc = nil
		switch r := r.(type) {
		case meters.Service:
			prevSvc = &r
		case meters.ProgressiveHit:
			linked[[2]uint64{r.Game, uint64(r.Level)}] = true
		case meters.RAMClear:
			h.PerGameJackpots = nil
		case meters.GameStart:
			kinds[r.Game] = meters.GameReels
			if r.Kind != "" {
				kinds[r.Game] = r.Kind
			}
		case meters.ProgressiveAward:
			if h.PerGameJackpots == nil {
				h.PerGameJackpots = map[string]int64{}
			}
			h.PerGameJackpots[kinds[r.Game]] += r.Cents
			h.Jackpots[r.Game] = append(h.Jackpots[r.Game], GameJackpot{Level: r.Level, Kind: kindOf(r.Game, r.Level, r.Target), Cents: r.Cents, Attendant: r.Attendant})
		}
		switch r := r.(type) {
		case meters.GameStart:
			if len(r.Mystery) > 0 {
				mystery[r.Game] = r.Mystery
			}
			if in(r.At) {
				open[r.Game] = len(h.Games)
				h.Games = append(h.Games, meters.GameHistory{Start: r})
			}
		case meters.FreeGame:
			if i, ok := open[r.Game]; ok {
				h.Games[i].Free = append(h.Games[i].Free, r)
			}
		case meters.GameEnd:
			if i, ok := open[r.Game]; ok {
				end := r
				h.Games[i].End = &end
				delete(open, r.Game)
			}
		}
		// A record adds at most one event to the history; the fold trims
		// the history to half when it doubles, so an event was added
		// exactly when its length changed.
		if n := len(st.Events); n != events {
			if e := st.Events[n-1]; in(e.At) {
				h.Events = append(h.Events, e)
			}
		}
		return nil
	})
	paths.finish(st)
	return h, err
}

// BuildReport gathers the report of the ledger in dir from its state, its
// verdict and its history.
func BuildReport(st *meters.State, v Verdict, h *History, is Issuer) Report {
	s := st.Settings
	r := Report{
		PerGame:   st.PerGame,
		Format:    ReportFormat,
		Machine:   ReportMachine{ID: s["machine_id"], Number: s["machine_num"], KeyID: v.KeyID},
		Generated: is.At.UTC().Format(time.RFC3339),
		Verdict:   v,
		Program:   ReportProgram{Hash: s["program"], Approval: is.Approval},
		Paytable:  paytableOf(st),
		Meters:    MeterRows(st),
		Jackpot:   JackpotRows(st),
		Tickets:   h.Tickets,
		RAMClears: h.RAMClears,

		Handpays: h.Handpays, MoneyIn: h.MoneyIn, BillOrders: h.BillOrders, TicketsIn: h.TicketsIn, AFT: h.AFT,
		Promo: h.Promo, Poker: h.Poker, ValidationSettings: h.ValidationSettings, TestModes: h.TestModes,
	}
	r.ActualRTP = money.Percent("en", st.Get(meters.TotalWon), st.Get(meters.CoinIn))
	r.Period, r.Checks = periodChecks(st, h)
	if !h.read {
		// Not read from the log: what the state keeps (the last ones).
		r.MoneyIn = st.Bills
		for _, hp := range st.Handpays {
			row := HandpayRow{At: hp.Pending.At, Kind: hp.Pending.Kind, Cents: hp.Pending.Cents, Game: hp.Pending.Game, Ref: hp.Pending.Ref, Pending: hp.Reset == nil}
			if hp.Reset != nil {
				row.PaidAt, row.PaidBy = hp.Reset.At, hp.Reset.Who
			}
			r.Handpays = append(r.Handpays, row)
		}
	}
	// The whole ledger: the games and events the state keeps (the last
	// ones; every game ever played would make the cabinet's export
	// unbounded). A period asked: every game and event in it, from the
	// log, since the last ones may be of another time.
	games, events := st.Games, st.Events
	if h.read && !(h.From.IsZero() && h.To.IsZero()) {
		games, events = h.Games, h.Events
	}
	r.Events = h.Log
	if !h.read {
		for _, e := range events {
			r.Events = append(r.Events, EventRow{At: e.At, Code: e.Code, Door: e.Door, Tilt: e.Tilt, Detail: e.Detail})
		}
	}
	r.Period.StartAt, r.Period.EndAt, r.MetersAt = h.StartAt, h.EndAt, h.LastAt
	r.PerGameJackpots = h.PerGameJackpots
	r.PeriodMeters = periodMeters(h)
	r.Games = GameRows(games, h)
	return r
}

// GameRows are the games with every amount each paid, the jackpots the
// history found for them included.
func GameRows(games []meters.GameHistory, h *History) []GameRow {
	var rows []GameRow
	for _, g := range games {
		row := GameRow{Game: g.Start.Game, At: g.Start.At, Paytable: g.Start.Paytable, BetCents: g.Start.BetCents, Stops: g.Start.Stops, Ended: g.End != nil,
			Kind: meters.GameReels, Hand: g.Start.Hand, Check: CheckHand(g), checkPT: checkHand(g, "pt")}
		if g.Start.Hand != nil {
			row.Kind = meters.GameMakccarat
		}
		row.BaseWinCents = g.Start.WinCents
		for _, f := range g.Free {
			row.Free = append(row.Free, f.Stops)
			row.FreeWins = append(row.FreeWins, f.WinCents)
		}
		if g.End != nil {
			row.WinCents, row.Handpay = g.End.WinCents, g.End.Handpay
			row.PaidCents = g.End.WinCents
		}
		row.Jackpots = h.Jackpots[g.Start.Game]
		for _, j := range row.Jackpots {
			row.PaidCents += j.Cents
		}
		rows = append(rows, row)
	}
	return rows
}

// paytableOf is the paytable in play as the ledger records it, with the
// certified return of the copy this program carries when it is the same.
func paytableOf(st *meters.State) ReportTable {
	t := ReportTable{ID: st.Settings["paytable"], Version: st.Settings["paytable_version"]}
	for i := len(st.Games) - 1; i >= 0; i-- {
		if g := st.Games[i].Start; g.Paytable == t.ID {
			t.Digest = g.Digest
			break
		}
	}
	if t.ID == "" {
		t.Problem, t.problemKey = "no paytable recorded", "pt_none"
		return t
	}
	pt, err := assets.LoadPaytable(t.ID)
	switch {
	case err != nil:
		t.Problem, t.problemKey, t.problemArgs = err.Error(), "pt_not_carried", []any{t.ID, err.Error()}
		return t
	case t.Digest != "" && pt.Digest != t.Digest:
		t.Problem = fmt.Sprintf("the games were played on digest %s; this program carries %s", t.Digest, pt.Digest)
		t.problemKey, t.problemArgs = "pt_digest", []any{t.Digest, pt.Digest}
		return t
	case t.Version != "" && t.Version != strconv.Itoa(pt.Version):
		t.Problem = fmt.Sprintf("version %s recorded; this program carries version %d", t.Version, pt.Version)
		t.problemKey, t.problemArgs = "pt_version", []any{t.Version, pt.Version}
		return t
	}
	t.Digest = pt.Digest
	for l, rtp := range pt.RTP {
		t.RTP = append(t.RTP, RTPRow{Level: l + 1, CreditsPerLine: pt.CreditsPerLine[l], Fraction: rtp.RatString(), Percent: reels.Exact{Rat: rtp}.Percent(4)})
	}
	return t
}

// JSON is the machine-readable form of the report.
func (r Report) JSON() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.Encode(r) // a Report always encodes
	return b.Bytes()
}

// ReportFiles writes the report's two forms, each with its signature
// (.sig, base64 Ed25519) beside it, into dir as NAME.txt and NAME.json,
// and returns their paths.
func ReportFiles(dir, name string, r Report, lang string, sign func([]byte) ([]byte, error), write func(path string, data []byte) error) ([]string, error) {
	var paths []string
	for _, f := range []struct {
		ext  string
		data []byte
	}{{".txt", r.Text(lang)}, {".json", r.JSON()}} {
		p := filepath.Join(dir, name+f.ext)
		if err := write(p, f.data); err != nil {
			return paths, err
		}
		sig, err := sign(f.data)
		if err != nil {
			return paths, err
		}
		if err := write(p+".sig", sig); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
