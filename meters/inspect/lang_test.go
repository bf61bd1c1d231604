package inspect

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/internal/names"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/rng"
)

// everyRecord is everyPath's ledger and every other kind of record the
// report can meet: power, doors, tilts raised and cleared by a
// technician, a repaired log, the jackpot link lost and back, settings
// (a limit in cents), service actions, a mystery jackpot level opened and
// won, a linked jackpot reported and awarded, games of both kinds with
// free games, a ticket reprinted, an award refused, and a RAM clear. It
// returns the records it committed after everyPath's, and the number of
// the game that won the mystery jackpot.
func everyRecord(t *testing.T) (*testBook, []meters.Record, uint64) {
	b := everyPath(t)
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	// everyPath leaves a poker buy-in open, which no game may start with.
	var open string
	for _, r := range everyPathRecords(t, b) {
		if p, ok := r.(meters.PokerTransfer); ok {
			open = p.ID
		}
	}
	b.commit(meters.PokerRefused{At: b.next(), ID: open, Why: "table closed"})
	var recs []meters.Record
	commit := func(rs ...meters.Record) {
		t.Helper()
		b.commit(rs...)
		recs = append(recs, rs...)
	}
	ev := func(code string, f func(*meters.Event)) meters.Record {
		e := meters.Event{At: b.next(), Code: code}
		if f != nil {
			f(&e)
		}
		return e
	}
	commit(ev(meters.EventPowerDown, nil), ev(meters.EventPowerUp, nil), ev(meters.EventLogRepaired, nil),
		ev(meters.EventDoorOpen, func(e *meters.Event) { e.Door = meters.DoorMain }),
		ev(meters.EventDoorClose, func(e *meters.Event) { e.Door = meters.DoorMain }),
		ev(meters.EventDoorOpen, func(e *meters.Event) { e.Door = meters.DoorCashbox }),
		ev(meters.EventDoorClose, func(e *meters.Event) { e.Door = meters.DoorCashbox }),
		ev(meters.EventTilt, func(e *meters.Event) { e.Tilt = "printer" }))
	// A technician clears the tilt in the service menu: the action and
	// the clear are of the same moment.
	clear := b.next()
	commit(meters.Service{At: clear, Who: "simulator", Role: "technician", Action: "clear_tilt", Detail: "printer"},
		meters.Event{At: clear, Code: meters.EventTiltClear, Tilt: "printer"})
	commit(ev(meters.EventLinkDown, func(e *meters.Event) { e.Detail = "no value for level 2 since 10:01:05.000" }), ev(meters.EventLinkUp, nil),
		ev(meters.EventLinkAwardRefused, func(e *meters.Event) {
			e.Detail = "level 2 game 5: the controller confirmed 2000 cents, more than the 1500 cents the machine showed and reported; not paid, the hit stays pending"
		}))
	commit(meters.Config{At: b.next(), Who: "simulator (technician)", Key: "handpay_limit", Value: "120000"},
		meters.Config{At: b.next(), Who: "start-up configuration", Key: "paytable", Value: pt.ID, From: meters.ConfigCommandLine},
		meters.Service{At: b.next(), Who: "simulator", Role: "technician", Action: "set_pin"},
		meters.Service{At: b.next(), Who: "attendant key", Role: "operator", Action: "login"})
	commit(meters.JackpotLevel{At: b.next(), Who: "simulator (technician)", Level: 3, Mystery: true, ResetCents: 100, RatePPM: 100_000, CapCents: 200, Target: 150_000})
	commit(meters.MoneyIn{At: b.next(), Source: meters.SourceBill, Cents: 2000})

	// Reel games on the certified paytable, each a win, one with free
	// games, until the mystery level hits (10 cents a game from 1 €: the
	// 5th reaches 1,50 €).
	var mystery uint64
	for i := 0; mystery == 0; i++ {
		st := b.l.State()
		g := st.LastGame + 1
		at := b.next()
		amounts, myst, err := st.JackpotContribution([]int{3}, 100, g, at)
		if err != nil {
			t.Fatal(err)
		}
		gs := meters.GameStart{At: at, Game: g, Paytable: pt.ID, Digest: pt.Digest, Denom: 1, BetCredits: 100, BetCents: 100,
			Stops: []int{1, 2, 3, 4, 5}, WinCents: int64(11 + i), Contributions: amounts, Mystery: myst}
		win := gs.WinCents
		if i == 1 {
			gs.FreeAwarded = 2
		}
		commit(gs)
		if i == 1 {
			commit(meters.FreeGame{At: b.next(), Game: g, Index: 1, Stops: []int{0, 1, 2, 3, 4}, WinCents: 37},
				meters.FreeGame{At: b.next(), Game: g, Index: 2, Stops: []int{2, 2, 2, 2, 2}, WinCents: 41})
			win += 37 + 41
		}
		commit(meters.GameEnd{At: b.next(), Game: g, WinCents: win})
		if len(myst) > 0 {
			mystery = g
			cents, err := b.l.State().LocalAward(3, g, 120_000, b.n)
			if err != nil {
				t.Fatal(err)
			}
			commit(meters.ProgressiveAward{At: b.next(), Game: g, Level: 3, Cents: cents, Target: 120_000})
		}
	}
	// A Makccarat hand, dealt and evaluated by the game's own rules.
	tb, err := assets.LoadTable("makccarat-alt1-5pct")
	if err != nil {
		t.Fatal(err)
	}
	shoe, err := tb.NewShoe()
	if err != nil {
		t.Fatal(err)
	}
	bets := baccarat.Bets{1000, 1000, 200, 200, 200}
	dealt, err := tb.Alternative.Deal(shoe, rng.NewSeeded(9))
	if err != nil {
		t.Fatal(err)
	}
	hand, err := tb.Play(dealt, bets)
	if err != nil {
		t.Fatal(err)
	}
	g := b.l.State().LastGame + 1
	commit(meters.GameStart{At: b.next(), Game: g, Kind: meters.GameMakccarat, Paytable: tb.ID, Digest: tb.Digest, Denom: 1,
		BetCredits: bets.Total(), BetCents: bets.Total(), WinCents: hand.Paid,
		Hand: &meters.TableHand{Bets: bets, Cards: dealt, Commission: hand.Commission}},
		meters.GameEnd{At: b.next(), Game: g, WinCents: hand.Paid})
	commit(meters.MoneyIn{At: b.next(), Source: meters.SourceCoin, Cents: 200})
	// A ticket printed again after a power loss.
	commit(meters.CashOut{At: b.next(), Method: meters.OutTicket, Cents: 700, Ticket: "T-9"},
		meters.TicketPrinted{At: b.next(), Ticket: "T-9", Cents: 700, Reprint: true})
	return b, recs, mystery
}

// words are the lower-case words (letters only) of s.
func words(s string) map[string]bool {
	w := map[string]bool{}
	for _, f := range regexp.MustCompile(`[\p{L}]+`).FindAllString(strings.ToLower(s), -1) {
		w[f] = true
	}
	return w
}

// onlyIn are the words of the report's texts in one language (0 pt, 1
// en) that none of the other language's texts use: a word of one that
// shows in the other's report is a leak.
func onlyIn(lang int) map[string]bool {
	mine, other := map[string]bool{}, map[string]bool{}
	add := func(t [2]string) {
		for w := range words(t[lang]) {
			mine[w] = true
		}
		for w := range words(t[1-lang]) {
			other[w] = true
		}
	}
	for _, t := range reportTexts {
		add(t)
	}
	for en, pt := range names.MeterPT {
		add([2]string{pt, en})
	}
	for w := range other {
		delete(mine, w)
	}
	for w := range mine {
		if len(w) < 4 { // "de", "a", "no": too short to tell the languages apart
			delete(mine, w)
		}
	}
	return mine
}

// section is the part of a report's text under a heading, to the next
// heading (a line in capitals).
func section(text, head string) string {
	i := strings.Index(text, "\n"+head+"\n")
	if i < 0 {
		return ""
	}
	rest := text[i+len(head)+2:]
	if j := regexp.MustCompile(`\n\n[\p{Lu} ()0-9/,.:-]+\n`).FindStringIndex(rest); j != nil {
		rest = rest[:j[0]]
	}
	return rest
}

// leaks are what the other language's report, or raw codes, would show.
func leaks(t *testing.T, lang, text string, data []string) {
	t.Helper()
	// The SAS names of the meters are the protocol's own (English in both
	// reports), and the records' free texts are shown as recorded.
	data = slices.Clone(data)
	slices.SortFunc(data, func(a, b string) int { return len(b) - len(a) }) // "value of bills in stacker" before "bills in stacker"
	for _, d := range data {
		text = strings.ReplaceAll(text, d, "")
	}
	other := map[string]int{"pt": 1, "en": 0}[lang]
	bad := onlyIn(other)
	for w := range words(text) {
		if bad[w] {
			t.Errorf("%s report: the word %q of the other language's texts", lang, w)
		}
	}
	// Raw codes and the other language's money.
	raw := []string{"power_up", "ticket_out", "tilt_clear", "set_pin", "handpay_limit", "simulator", "reels", "makccarat", "mystery", "self-test"}
	money := regexp.MustCompile(`€\d`)
	if lang == "en" {
		raw = []string{"power_up", "ticket_out", "tilt_clear", "set_pin", "handpay_limit", "simulator", "reels", "makccarat", "mistério", "autoteste"}
		money = regexp.MustCompile(`\d,\d\d €`)
	}
	for _, r := range raw {
		if regexp.MustCompile(`(^|[^\p{L}_])` + regexp.QuoteMeta(r) + `($|[^\p{L}_])`).MatchString(text) {
			t.Errorf("%s report shows %q", lang, r)
		}
	}
	// A snake_case word is a code or a text key shown as it is.
	for _, m := range regexp.MustCompile(`(^|[^\p{L}_-])([a-z]+_[a-z_]+)`).FindAllStringSubmatch(text, -1) {
		t.Errorf("%s report shows the raw code %q", lang, m[2])
	}
	if m := money.FindString(text); m != "" {
		t.Errorf("%s report writes money as the other language does: %q", lang, m)
	}
	if lang == "pt" && regexp.MustCompile(`\d\.\d{5} €|€\d`).MatchString(text) {
		t.Errorf("pt report: an amount in English or with five decimals")
	}
}

// freeTexts are the ledger's free texts (reasons, places, names) and the
// SAS names of the meters: data the report shows as it is.
func freeTexts(r Report) []string {
	d := []string{"above the table's cave", "paper out", "Casino Estoril", "jam", "expired", "done", "holdem-1", "EGM-7", "table closed"}
	for _, m := range r.Meters {
		if m.SASName != "" {
			d = append(d, m.SASName)
		}
	}
	for _, a := range r.AFT {
		d = append(d, a.ID)
	}
	return d
}

func when2(ns int64) string { return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05") }

// The report of a ledger holding every kind of record is in one language
// per run, with nothing of the other (no word only its texts use, no
// raw code, no money written its way), and leaves no record out: every
// game's every amount in its row, every event, handpay, note, coin and
// ticket as an event in words, with its amount.
func TestReportIsCompleteInOneLanguage(t *testing.T) {
	b, _, _ := everyRecord(t)
	r := readReport(t, b.dir, time.Time{}, time.Time{}, nil)
	for _, lang := range []string{"pt", "en"} {
		text := string(r.Text(lang))
		leaks(t, lang, text, freeTexts(r))
		eur := func(c int64) string { return money.Euro(lang, c) }
		games := section(text, rt(lang, "h_games"))
		events := section(text, rt(lang, "h_events"))
		if games == "" || events == "" {
			t.Fatalf("%s: no games or events section:\n%s", lang, text)
		}
		row := func(g uint64) string {
			for _, l := range strings.Split(games, "\n") {
				if strings.HasPrefix(l, fmt.Sprint(g)+" ") {
					return l
				}
			}
			return ""
		}
		eventLines := strings.Split(events, "\n")
		event := func(at int64, want ...string) {
			t.Helper()
			for _, l := range eventLines {
				if !strings.HasPrefix(l, when2(at)) {
					continue
				}
				ok := true
				for _, w := range want {
					ok = ok && strings.Contains(l, w)
				}
				if ok {
					return
				}
			}
			t.Errorf("%s: no event at %s with %q in:\n%s", lang, when2(at), want, events)
		}
		all := everyPathRecords(t, b)
		for _, rec := range all {
			switch rec := rec.(type) {
			case meters.GameStart:
				l := row(rec.Game)
				if l == "" {
					t.Errorf("%s: game %d has no row", lang, rec.Game)
					continue
				}
				if rec.WinCents > 0 && !strings.Contains(l, eur(rec.WinCents)) {
					t.Errorf("%s: game %d's row lacks its spin win %s: %s", lang, rec.Game, eur(rec.WinCents), l)
				}
				if rec.Kind == meters.GameMakccarat {
					spot := map[string]string{"pt": "jogador " + eur(1000), "en": "player " + eur(1000)}[lang]
					if !strings.Contains(l, "Makccarat") || !strings.Contains(l, spot) {
						t.Errorf("%s: hand %d's row does not name the game and its stakes (%s): %s", lang, rec.Game, spot, l)
					}
				} else if rec.Paytable != "p" && !strings.Contains(l, "Lusit") {
					t.Errorf("%s: game %d's row does not name the game: %s", lang, rec.Game, l)
				}
			case meters.FreeGame:
				if l := row(rec.Game); !strings.Contains(l, eur(rec.WinCents)) {
					t.Errorf("%s: game %d's row lacks free game %d's win %s: %s", lang, rec.Game, rec.Index, eur(rec.WinCents), l)
				}
			case meters.ProgressiveAward:
				if l := row(rec.Game); !strings.Contains(l, eur(rec.Cents)) {
					t.Errorf("%s: game %d's row lacks its jackpot %s: %s", lang, rec.Game, eur(rec.Cents), l)
				}
				event(rec.At, eur(rec.Cents))
			case meters.Event:
				if rec.Code == meters.EventLinkAwardRefused && rec.Detail != "" {
					event(rec.At, eur(2000), eur(1500)) // the amounts the machine's detail names, in euros
				} else {
					event(rec.At)
				}
			case meters.Config:
				event(rec.At)
			case meters.Service:
				event(rec.At)
			case meters.JackpotLevel:
				event(rec.At, eur(rec.ResetCents))
			case meters.RAMClear:
				event(rec.At)
			case meters.MoneyIn:
				event(rec.At, eur(rec.Cents))
			case meters.HandpayPending:
				event(rec.At, eur(rec.Cents))
			case meters.HandpayReset:
				event(rec.At, eur(rec.Cents))
			case meters.HandpayValidated:
				event(rec.At, eur(rec.Cents))
			case meters.CashOut:
				event(rec.At, eur(rec.Cents))
			case meters.TicketPrinted:
				event(rec.At, eur(rec.Cents), rec.Ticket)
			case meters.TicketVoid:
				event(rec.At, eur(rec.Cents), rec.Ticket)
			case meters.BillReturned:
				event(rec.At, eur(rec.Cents))
			}
		}
		// The limit in cents is a limit in euros; the technician is named
		// by role.
		if !strings.Contains(events, eur(120000)) {
			t.Errorf("%s: the handpay limit is not in euros:\n%s", lang, events)
		}
		tech := map[string]string{"pt": "técnico", "en": "technician"}[lang]
		if !strings.Contains(events, tech) {
			t.Errorf("%s: no event names the %s:\n%s", lang, tech, events)
		}
		per := section(text, rt(lang, "h_per_game"))
		if !strings.Contains(per, "Lusit") || !strings.Contains(per, "Makccarat") {
			t.Errorf("%s: the per-game meters do not name the game:\n%s", lang, per)
		}
	}
}

// A ledger that names no paytable, or one this program does not carry,
// says so in the run's language.
func TestPaytableProblemInTheRunsLanguage(t *testing.T) {
	b := everyPath(t)
	for _, edit := range []func(*meters.State){nil, func(st *meters.State) { st.Settings["paytable"] = "lusitania-1" }} {
		r := readReport(t, b.dir, time.Time{}, time.Time{}, edit)
		if r.Paytable.Problem == "" {
			t.Fatalf("no paytable problem: %+v", r.Paytable)
		}
		for _, lang := range []string{"pt", "en"} {
			text := string(r.Text(lang))
			leaks(t, lang, text, freeTexts(r))
		}
	}
}

// everyPathRecords are the records of everyPath's ledger that the report
// must trace, read back from the log.
func everyPathRecords(t *testing.T, b *testBook) []meters.Record {
	t.Helper()
	var recs []meters.Record
	if err := meters.Records(b.dir, func(_ uint64, r meters.Record) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return recs
}

// A mystery jackpot is in the row of the game that won it, named, with
// its amount, in that game's meters, and is an event of the log, in both
// languages.
func TestMysteryJackpotInItsGameAndTheEvents(t *testing.T) {
	b, recs, game := everyRecord(t)
	var award meters.ProgressiveAward
	for _, r := range recs {
		if a, ok := r.(meters.ProgressiveAward); ok && a.Game == game {
			award = a
		}
	}
	if award.Cents == 0 {
		t.Fatal("no mystery award in the test ledger")
	}
	r := readReport(t, b.dir, time.Time{}, time.Time{}, nil)
	for _, c := range []struct{ lang, name string }{{"pt", "mistério"}, {"en", "mystery"}} {
		text := string(r.Text(c.lang))
		amount := money.Euro(c.lang, award.Cents)
		var row string
		for _, l := range strings.Split(section(text, rt(c.lang, "h_games")), "\n") {
			if strings.HasPrefix(l, fmt.Sprint(game)+" ") {
				row = l
			}
		}
		if !strings.Contains(row, amount) || !strings.Contains(row, c.name) {
			t.Errorf("%s: game %d's row lacks its %s jackpot of %s: %q", c.lang, game, c.name, amount, row)
		}
		// The game's meters: the only jackpot of the ledger is the mystery.
		if per := section(text, rt(c.lang, "h_per_game")); !strings.Contains(per, amount) {
			t.Errorf("%s: the per-game meters lack the game's jackpot of %s:\n%s", c.lang, amount, per)
		}
		found := false
		for _, l := range strings.Split(section(text, rt(c.lang, "h_events")), "\n") {
			if strings.HasPrefix(l, when2(award.At)) && strings.Contains(l, amount) && strings.Contains(l, c.name) && strings.Contains(l, fmt.Sprint(game)) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no event names the %s jackpot of %s in game %d:\n%s", c.lang, c.name, amount, game, section(text, rt(c.lang, "h_events")))
		}
	}
}

// A report over a period shows the meters read at its start (after the
// last record before it) and at its end (after its last record), with
// the time of each reading, and what they moved, in both languages.
func TestPeriodMetersWithTheirReadings(t *testing.T) {
	b := everyPath(t)
	recs := everyPathRecords(t, b)
	whole := readReport(t, b.dir, time.Time{}, time.Time{}, nil)
	from, to := time.Unix(0, whole.AFT[2].At), time.Unix(0, whole.Tickets[0].At)
	// The readings, folded here from the records.
	st := meters.NewState()
	var base, end meters.Values
	var startAt, endAt int64
	for _, r := range recs {
		if err := st.Apply(r); err != nil {
			t.Fatal(err)
		}
		switch ns := at(r); {
		case time.Unix(0, ns).Before(from):
			base, startAt = st.Meters, ns
		case !time.Unix(0, ns).After(to):
			end, endAt = st.Meters, ns
		}
	}
	if base[meters.CoinIn] == end[meters.CoinIn] || base[meters.TicketOut] == end[meters.TicketOut] {
		t.Fatalf("the test period moves no coin in or tickets: %d→%d, %d→%d", base[meters.CoinIn], end[meters.CoinIn], base[meters.TicketOut], end[meters.TicketOut])
	}
	r := readReport(t, b.dir, from, to, nil)
	for _, c := range []struct{ lang, head string }{{"pt", "CONTADORES DO PERÍODO"}, {"en", "PERIOD METERS"}} {
		text := string(r.Text(c.lang))
		i := strings.Index(text, "\n"+c.head)
		if i < 0 {
			t.Errorf("%s: no period meters:\n%s", c.lang, text)
			continue
		}
		sec := text[i:]
		sec = sec[:strings.Index(sec[1:], "\n\n")+1]
		if !strings.Contains(sec, when2(startAt)) || !strings.Contains(sec, when2(endAt)) {
			t.Errorf("%s: the period meters do not say when they were read (%s, %s):\n%s", c.lang, when2(startAt), when2(endAt), sec)
		}
		lang := c.lang
		eur := func(n int64) string { return money.Euro(lang, n) }
		for _, m := range []meters.Meter{meters.CoinIn, meters.TicketOut} {
			name := names.Meter(c.lang, meters.Defs[m].Name)
			found := false
			for _, l := range strings.Split(sec, "\n") {
				if strings.Contains(l, name) && strings.Contains(l, eur(base[m])) && strings.Contains(l, eur(end[m])) && strings.Contains(l, eur(end[m]-base[m])) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: %s is not %s at the start, %s at the end, %s moved:\n%s", c.lang, name, eur(base[m]), eur(end[m]), eur(end[m]-base[m]), sec)
			}
		}
	}
}
