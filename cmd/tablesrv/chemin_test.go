package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/seatclient"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
)

const cheminTable = "chemin-6d"

// watchShoes follows a chemin de fer table as a spectator and reports how
// many sabots ended (a sabot's digest seen, then another or none).
type shoeWatch struct {
	seen  map[string]bool
	last  string
	ended int
}

func (w *shoeWatch) add(shoe string) {
	if w.last != "" && shoe != w.last {
		w.ended++
	}
	if shoe != "" {
		w.seen[shoe] = true
	}
	w.last = shoe
}

// A chemin de fer table through the real server: four bots buy in through
// the API and play random legal decisions from their views' choices over
// the WebSocket (banks, bancôs, bets, the ponto's and the banker's
// choices, garages, passes, offers, auctions) until a whole sabot is
// played, the cards declined now and then (rule 101); a repeated
// transfer ID moves no money again; everyone cashes
// out. Then the ledger verifies (every step re-run by the engine, every
// session re-folded with the sabots' digests), every coup in it replays
// with its money conserved, the cagnotte is the definition's 5% of each
// banker's winnings rounded down, recomputed here, and is the house's
// only take; the report says so in Portuguese and English; and a record
// changed in the log is caught.
func TestCheminSessionThroughTheServer(t *testing.T) {
	t.Parallel()
	s := startServer(t, t.TempDir()+"/data", "--table", cheminTable)
	info, err := s.api.Table(cheminTable)
	if err != nil || info.Game != "chemin_de_fer" || info.MinPlayers != 4 {
		t.Fatalf("table %+v %v", info, err)
	}
	d := newDriver(t, s, 11)
	d.cave[cheminTable], d.low[cheminTable] = 60000, 12000
	d.add(cheminTable, "ana", "bia", "caio", "duda")
	watch, err := seatclient.Watch(s.url, cheminTable)
	if err != nil {
		t.Fatal(err)
	}
	shoes := &shoeWatch{seen: map[string]bool{}}
	states := make(chan string, 1024)
	leaks := make(chan string, 16)
	var says, asked int
	go func() {
		for {
			m, err := watch.Next()
			if err != nil {
				close(states)
				return
			}
			if c := m.State; c != nil && c.Chemin != nil {
				// A spectator sees no hand before it is shown: on the
				// ponto's choice neither hand, only the announcements.
				if ch := c.Chemin; ch.Phase == "ponto" && (len(ch.PontoCards) > 0 || len(ch.BankerCards) > 0 || ch.PontoTotal != -1) {
					select {
					case leaks <- fmt.Sprintf("%+v", ch):
					default:
					}
				}
				if len(c.Chemin.Says) > 0 && c.Chemin.Says[len(c.Chemin.Says)-1].PT != "" && c.Chemin.Says[len(c.Chemin.Says)-1].EN != "" {
					says++
				}
				if c.ToAct != 0 && c.Deadline > c.NowMS {
					asked++
				}
			}
			if m.State != nil && m.State.Chemin != nil {
				select {
				case states <- m.State.Chemin.Shoe:
				default:
				}
			}
		}
	}()
	start := time.Now()
	deadline := start.Add(6 * time.Minute)
	repeated := false
	for shoes.ended == 0 {
		d.seatAll()
		for drained := false; !drained; {
			select {
			case shoe, ok := <-states:
				if !ok {
					t.Fatal("the spectator's socket closed")
				}
				shoes.add(shoe)
			default:
				drained = true
			}
		}
		if !repeated && d.ledger(cheminTable).Meters.Hands >= 5 {
			// A buy-in's request sent again with its ID gets the answer
			// recorded and moves no money again.
			repeated = true
			before := d.ledger(cheminTable).Meters.PaidIn
			r := d.journal[0]
			res, err := s.api.BuyIn(r.table, r.req)
			if err != nil || res.ID != r.req.TransferID || res.Amount != r.req.Amount {
				t.Fatalf("the buy-in %+v again: %+v %v", r.req, res, err)
			}
			if after := d.ledger(cheminTable).Meters.PaidIn; after != before {
				t.Fatalf("a repeated transfer ID moved money: paid in %d, then %d", before, after)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s no sabot ended: %+v (shoes seen %d)", time.Since(start), d.ledger(cheminTable).Meters, len(shoes.seen))
		}
		time.Sleep(100 * time.Millisecond)
	}
	watch.Close()
	for range states { // until the spectator's reader stops: its counts are final
	}
	select {
	case l := <-leaks:
		t.Fatalf("a spectator saw a hand before it was shown: %s", l)
	default:
	}
	if says == 0 || asked == 0 {
		t.Fatalf("the spectator's states: %d with announcements in pt and en, %d with a seat asked and its deadline", says, asked)
	}
	checkCheminReplay(t, s, d)
	d.cashOutAll()
	waitEmpty(t, d, cheminTable)
	want := d.sources()
	d.closeBots()
	s.stop()
	t.Logf("a sabot played in %s", time.Since(start))
	rep := checkLedger(t, s, nil)
	checkSources(t, s, rep, want)
	// The bots declined the cards now and then (rule 101), and the
	// ledger that verified followed whom the cards went to after it.
	declined := 0
	for _, r := range readCheminLedger(t, s, cheminTable).all {
		if r.Kind == poker.KindAct && r.Action == string(chemin.PassCards) {
			declined++
		}
	}
	if declined == 0 {
		t.Error("no ponto declined the cards in a sabot (rule 101)")
	}
	if checkCoups(t, s, rep) == 0 {
		t.Error("no sabot ended in the log")
	}
	if m := rep.Tables[0].Meters; m.Rake == 0 || m.Pots < 10 {
		t.Errorf("a sabot without a banker's win: %+v", m)
	}

	code, pt, _ := tablesrv(t, "report", s.data, "--pub", s.pub())
	_, en, _ := tablesrv(t, "report", s.data, "--pub", s.pub(), "--lang", "en")
	if code != 0 || !strings.Contains(pt, "cagnotte (receita da casa)") || !strings.Contains(en, "cagnotte (the house's take)") ||
		!strings.Contains(en, "Table chemin-6d (chemin_de_fer)") {
		t.Errorf("the report:\n%s\n%s", pt, en)
	}
	code, out, _ := tablesrv(t, "hands", s.data, "--table", cheminTable, "--last", "1")
	if code != 0 || !strings.Contains(out, "«") {
		t.Errorf("hands: %d\n%s", code, out)
	}
	code, out, _ = tablesrv(t, "tables")
	if code != 0 || !strings.Contains(out, "chemin-6d v1 (chemin_de_fer") {
		t.Errorf("tables:\n%s", out)
	}

	// A cagnotte changed in a copy of the log: the inspector's verify
	// refuses the ledger.
	tampered := filepath.Join(t.TempDir(), "tampered")
	copyDir(t, s.data, tampered)
	if !tamper(t, tampered, regexp.MustCompile(`"rake":([1-9][0-9]*)`)) {
		t.Fatal("no cagnotte in the log to tamper with")
	}
	if code, out, _ := tablesrv(t, "verify", tampered, "--pub", s.pub()); code == 0 || !strings.Contains(out, "NOT VERIFIED") {
		t.Fatalf("a tampered ledger verified: %d\n%s", code, out)
	}
}

// waitEmpty waits until every player left the table.
func waitEmpty(t *testing.T, d *driver, table string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for len(d.ledger(table).Players) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%s: players left %+v", table, d.ledger(table).Players)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkSources compares the money each source moved in the ledger with
// the API's answers to the driver, and the cash-outs the table paid on its
// own (a player who gave up his seat rather than take the bank, rule 85:
// out:BUYIN), each once.
func checkSources(t *testing.T, s *server, rep *tableledger.Report, want map[string]tableledger.SourceTotals) {
	t.Helper()
	for _, src := range rep.Sources {
		w := want[src.Source]
		trs, err := s.api.TransfersOf(src.Source)
		if err != nil {
			// The server is stopped: the report lists every transfer.
			for _, tr := range rep.Transfers {
				if tr.Source == src.Source && strings.HasPrefix(tr.ID, "out:") && tr.Done {
					w.Out += tr.Amount
				}
			}
		} else {
			for _, tr := range trs {
				if strings.HasPrefix(tr.ID, "out:") && tr.Status == "done" {
					w.Out += tr.Amount
				}
			}
		}
		if w.In != src.In || w.Out != src.Out {
			t.Errorf("source %s: ledger in %d out %d, the API answered in %d out %d", src.Source, src.In, src.Out, w.In, w.Out)
		}
	}
}

// checkCoups replays every coup of the chemin de fer table's log
// (chemin.ReplayCoup: every cent after every record, the stacks at its
// end) and folds every session's records (chemin.Fold: the sabots' cards
// against their digests), recomputes the cagnotte of each banker's win at
// the definition's rate and rounding, and compares with the report.
func checkCoups(t *testing.T, s *server, rep *tableledger.Report) (sabots int) {
	t.Helper()
	def, err := assets.LoadCheminTable(cheminTable)
	if err != nil {
		t.Fatal(err)
	}
	bps := def.Chemin.CagnotteBps
	code, out, errs := tablesrv(t, "hands", s.data, "--table", cheminTable, "--last", "0", "--json")
	if code != 0 {
		t.Fatalf("hands: %d %s", code, errs)
	}
	var coups []struct {
		Records []poker.Record `json:"records"`
	}
	if err := json.Unmarshal([]byte(out), &coups); err != nil {
		t.Fatal(err)
	}
	var cagnotte, won int64
	played, voided, bankerWins, pontoWins, ties := 0, 0, 0, 0, 0
	acts := map[string]int{}
	for _, c := range coups {
		last := c.Records[len(c.Records)-1]
		if last.Kind == poker.KindVoid {
			voided++
			continue
		}
		if _, err := chemin.ReplayCoup(c.Records, ""); err != nil {
			t.Fatalf("coup %d: %v", c.Records[0].Hand, err)
		}
		played++
		for _, r := range c.Records {
			if r.Kind == chemin.KindBet || r.Kind == poker.KindAct {
				acts[r.Action]++
			}
			switch {
			case r.Kind == poker.KindAward && r.Action == "banker":
				// 5% rounded down, in integers: apart from the engine.
				if want := r.Amount * bps / 10000; r.Rake != want {
					t.Fatalf("coup %d: a cagnotte of %d on %d, the definition's %d bps make %d", r.Hand, r.Rake, r.Amount, bps, want)
				}
				cagnotte += r.Rake
				won += r.Amount
				bankerWins++
			case r.Kind == poker.KindAward:
				if r.Rake != 0 {
					t.Fatalf("coup %d: a cagnotte on the pontos' win", r.Hand)
				}
				pontoWins++
			case r.Kind == chemin.KindAnnounce && r.Action == string(chemin.MsgTie):
				ties++
			}
		}
	}
	var tb *tableledger.TableReport
	for i := range rep.Tables {
		if rep.Tables[i].ID == cheminTable {
			tb = &rep.Tables[i]
		}
	}
	if tb == nil {
		t.Fatal("no chemin de fer table in the report")
	}
	m := tb.Meters
	if int64(played) != m.Hands || int64(voided) != m.Voided || cagnotte != m.Rake || m.Fees != 0 {
		t.Fatalf("coups %d (void %d), cagnotte %d; the ledger has %d coups (void %d), cagnotte %d, fees %d", played, voided, cagnotte, m.Hands, m.Voided, m.Rake, m.Fees)
	}
	// Every session folded by the game's own folder: the sabots' cards.
	var recs []poker.Record
	var folded int64
	shoes := 0
	between := map[string]int{}
	fold := func() {
		st, err := chemin.Fold(recs)
		if err != nil {
			t.Fatalf("chemin.Fold of a session: %v", err)
		}
		folded += st.Cagnotte
		for _, r := range recs {
			switch {
			case r.Kind == chemin.KindShoeEnd:
				shoes++
			case r.Hand == 0 && (r.Kind == poker.KindAct || r.Kind == chemin.KindGarage || r.Kind == chemin.KindRelease):
				between[string(r.Kind)+":"+r.Action]++
			}
		}
		recs = nil
	}
	err = tableledger.Records(s.data, func(seq uint64, r tableledger.Record) error {
		switch x := r.(type) {
		case tableledger.SessionOpen:
			if x.Table == cheminTable {
				fold()
			}
		case tableledger.Step:
			if x.Table == cheminTable {
				recs = append(recs, x.Records...)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fold()
	if folded != m.Rake {
		t.Fatalf("chemin.Fold's cagnotte %d, the ledger's %d", folded, m.Rake)
	}
	t.Logf("%d coups (%d banker wins on %d staked, %d ponto wins, %d ties), %d void, %d sabots ended; cagnotte %d, paid in %d, out %d; in coups %v; between coups %v",
		played, bankerWins, won, pontoWins, ties, voided, shoes, m.Rake, m.PaidIn, m.PaidOut, acts, between)
	return shoes
}

// copyDir copies a ledger's files.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// tamper changes the first match of re's number in a log file of dir by
// one, keeping its length.
func tamper(t *testing.T, dir string, re *regexp.Regexp) bool {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "log", "*"))
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			continue
		}
		loc := re.FindSubmatchIndex(b)
		if loc == nil {
			continue
		}
		i := loc[3] - 1 // the last digit
		if b[i] == '9' {
			b[i] = '8'
		} else {
			b[i]++
		}
		if err := os.WriteFile(n, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return true
	}
	return false
}

// checkCheminReplay asks a seat's last coups over the WebSocket (SRIJ rule
// 78): each is a whole coup, frame by frame, with the bank, the stakes and
// the cards its player saw, and no card of another player's hand before
// it was shown.
func checkCheminReplay(t *testing.T, s *server, d *driver) {
	t.Helper()
	for _, p := range d.players {
		if p.token == "" || d.ledger(cheminTable).Players[p.name] == nil {
			continue
		}
		seat, err := seatclient.Dial(s.url, p.token)
		if err != nil {
			t.Fatal(err)
		}
		defer seat.Close()
		if err := seat.Send(seatmsg.ClientMsg{Type: "replay"}); err != nil {
			t.Fatal(err)
		}
		for {
			m, err := seat.Next()
			if err != nil {
				t.Fatalf("replay of %s: %v", p.name, err)
			}
			if m.Error != nil {
				t.Fatalf("replay of %s: %s", p.name, m.Error.Message)
			}
			if m.Replay == nil {
				continue
			}
			if len(m.Replay.Hands) < 3 {
				t.Fatalf("%s's replay has %d coups", p.name, len(m.Replay.Hands))
			}
			for _, h := range m.Replay.Hands {
				first, last := h.Frames[0], h.Frames[len(h.Frames)-1]
				if first.Record.Kind != poker.KindHandStart || last.Record.Kind != poker.KindHandEnd || last.Chemin == nil {
					t.Fatalf("%s's coup %d: %+v … %+v", p.name, h.Hand, first.Record, last.Record)
				}
				for _, f := range h.Frames {
					if f.Record.Kind == poker.KindDeal && f.Record.Player != p.name && len(f.Record.Cards) > 0 {
						t.Fatalf("%s's replay shows %s's cards as dealt", p.name, f.Record.Player)
					}
				}
			}
			t.Logf("%s's replay: %d coups, the last of %d frames", p.name, len(m.Replay.Hands), len(m.Replay.Hands[len(m.Replay.Hands)-1].Frames))
			return
		}
	}
	t.Fatal("nobody seated to ask a replay")
}
