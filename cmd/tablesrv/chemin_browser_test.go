package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
	"github.com/openegm/cabinet/reels"
)

// cheminTestTable is a chemin de fer definition for the browser test: a
// sabot of one deck (a whole sabot is some eight coups), a €20 bank and
// €5 bets, a decision time long enough that a loaded machine's browser
// never times out (the test answers every decision itself).
const cheminTestTable = `{
  "id": "chemin-t1",
  "version": 1,
  "game": "chemin_de_fer",
  "title": {"pt": "Banca francesa de teste — sabot de 1 baralho", "en": "Test chemin de fer — 1-deck sabot"},
  "number": 7,
  "decks": 1,
  "seats": 6,
  "min_players": 4,
  "min_bank_cents": 2000,
  "min_bet_cents": 500,
  "cagnotte_bps": 500,
  "cagnotte_rounding": "down",
  "auction_base_cents": 2000,
  "auction_increment_cents": 500,
  "decision_seconds": 30,
  "tableau_only": false,
  "languages": ["pt", "en"]
}
`

// cheminTableDir is a --table-dir with the test definition, signed with
// the development key as certification signs a definition (a development
// build trusts it; a production build does not).
func cheminTableDir(t *testing.T) string {
	t.Helper()
	kd, err := os.ReadFile(filepath.Join("..", "..", "assets", "keys", "dev-NOT-FOR-PRODUCTION.key"))
	if err != nil {
		t.Fatal(err)
	}
	priv, err := reels.ParsePrivateKey("dev key", kd)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := []byte(cheminTestTable)
	if err := os.WriteFile(filepath.Join(dir, "chemin-t1.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "chemin-t1.json.sig"), reels.Sign(priv, data), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// cheminPage is what the test reads of a chemin de fer seat's page: what
// it shows, and the decisions its buttons offer.
type cheminPage struct {
	Ready     bool     `json:"ready"`
	Title     string   `json:"title"`
	Hand      int      `json:"hand"`
	Deadline  int64    `json:"deadline"`
	Seat      int      `json:"seat"`
	Phase     string   `json:"phase"`
	Ponto     int      `json:"ponto"`
	Banker    int      `json:"banker"`
	Choices   []string `json:"choices"`
	Bank      int64    `json:"bank"`
	BankText  string   `json:"bank_text"`
	Garage    int64    `json:"garage"`
	GarText   string   `json:"garage_text"`
	Says      []string `json:"says"`
	Timer     string   `json:"timer"`
	Left      int      `json:"left"`
	LastCoup  bool     `json:"last_coup"`
	PontoC    string   `json:"ponto_cards"`
	BankerC   string   `json:"banker_cards"`
	Last      int      `json:"last"`
	StackText []struct {
		Seat  int    `json:"seat"`
		Cents int64  `json:"cents"`
		Text  string `json:"text"`
	} `json:"seats"`
	lastPanel
}

const readCheminPage = `(() => {
  const $ = (id) => document.getElementById(id);
  const shown = (e) => !!e && !e.closest("[hidden]");
  if (!state || !state.chemin) return {ready: false};
  return {
    ready: true, title: $("title").textContent, hand: state.hand || 0, deadline: state.deadline_ms || 0,
    seat: state.you ? state.you.seat : 0, phase: $("ch-phase").dataset.phase,
    ponto: state.chemin.ponto || 0, banker: state.chemin.banker || 0,
    choices: [...document.querySelectorAll("#chemin-actions button")].filter(shown).map((b) => b.dataset.kind),
    bank: +$("ch-bank").dataset.cents, bank_text: $("ch-bank").textContent,
    garage: +$("ch-garage").dataset.cents, garage_text: shown($("ch-garage")) ? $("ch-garage").textContent : "",
    says: [...document.querySelectorAll("#announce li")].map((e) => e.textContent),
    timer: $("timer-text").textContent, left: +$("ch-sabot").dataset.left, last_coup: shown($("ch-last-coup")),
    ponto_cards: $("ch-ponto-cards").dataset.cards, banker_cards: $("ch-banker-cards").dataset.cards,
    last: +$("last").dataset.hand,
    seats: [...document.querySelectorAll(".seat[data-player]")].map((e) => ({seat: +e.dataset.seat,
      cents: +e.querySelector(".stack").dataset.cents, text: e.querySelector(".stack").textContent})),
    ends: [...document.querySelectorAll("#last .end-stack")].map((e) => ({seat: +e.dataset.seat, cents: +e.dataset.cents, text: e.textContent})),
    shows: [...document.querySelectorAll("#last .show")].map((e) => ({seat: +e.dataset.seat, cards: e.dataset.cards})),
    awards: [...document.querySelectorAll("#last .award")].map((e) => e.textContent),
  };
})()`

func readChemin(tb *tab) cheminPage {
	tb.t.Helper()
	var p cheminPage
	tb.must(readCheminPage, &p)
	return p
}

// cheminPlayer decides for the test's players, by clicking the page's
// buttons, so that a few coups bring every situation the test wants: the
// first ponto asked goes bancô once (and bancô suivi when he may), from
// the third coup on one claims the bancô com a mesa once, the others bet
// the minimum; the ponto draws on 5 once and then stands, and the banker
// draws when he chooses; a banker offered the garage takes it once; a winning banker
// passes the hand once from the second coup on, everyone declines it, and
// the first bidder offers the auction's base (the others offer nothing);
// from the second coup on, one player associates with a new banker once.
type cheminPlayer struct {
	stakeAt map[int]time.Time // when a bank was first seen asked for, by the coup before
	assocAt time.Time         // when a player offered to associate
	clicked map[*tab]string
	at      map[*tab]time.Time
	did     map[string]bool
}

func (pl *cheminPlayer) decide(t *testing.T, tb *tab, p cheminPage) {
	t.Helper()
	if len(p.Choices) == 0 {
		return
	}
	key := fmt.Sprint(p.Hand, ":", p.Deadline, ":", p.Phase)
	if pl.clicked[tb] == key && time.Since(pl.at[tb]) < 3*time.Second {
		return
	}
	has := func(k string) bool { return slices.Contains(p.Choices, k) }
	// From the second coup on, the first player offered it associates
	// with the next banker to state a bank, who waits a moment for the
	// offer and then for his page to show it.
	assoc := !pl.did["associate"] && p.Hand >= 1
	if p.Phase == "stake" && pl.stakeAt[p.Hand].IsZero() {
		pl.stakeAt[p.Hand] = time.Now()
	}
	kind := ""
	switch {
	case has("associate") && assoc:
		kind = "associate"
		pl.assocAt = time.Now()
	case has("bank_associated"):
		kind = "bank_associated"
	case has("bank") && assoc && time.Since(pl.stakeAt[p.Hand]) < 3*time.Second:
		return
	case has("bank") && pl.did["associate"] && !pl.did["bank_associated"] && time.Since(pl.assocAt) < 5*time.Second:
		return
	case has("bank"):
		kind = "bank"
	case has("banco_suivi") && !pl.did["banco_suivi"]:
		kind = "banco_suivi"
	case has("banco") && !pl.did["banco"]:
		kind = "banco"
	case has("banco_mesa") && pl.did["banco"] && !pl.did["banco_mesa"] && p.Hand >= 3:
		kind = "banco_mesa" // at its least, half the bank; the others complete it
	case has("bet"):
		kind = "bet"
	case has("no_bet"):
		kind = "no_bet"
	case has("pass_cards") && !pl.did["pass_cards"]:
		kind = "pass_cards" // once: «não sei jogar», the cards to the next (rule 101)
	case has("play_cards"):
		kind = "play_cards"
	case p.Phase == "ponto" && has("draw") && !pl.did["draw_on_5"]:
		kind, pl.did["draw_on_5"] = "draw", true
	case p.Phase == "ponto" && has("stand"):
		kind = "stand"
	case p.Phase == "banker" && has("draw"):
		kind = "draw"
	case has("garage") && !pl.did["garage"]:
		kind = "garage"
	case has("pass") && !pl.did["pass"] && p.Hand >= 2:
		kind = "pass"
	case has("continue"):
		kind = "continue"
	case has("decline"):
		kind = "decline"
	case has("bid") && !pl.did["bid"]:
		kind = "bid"
	case has("no_bid"):
		kind = "no_bid"
	case has("take"):
		kind = "take"
	case has("refuse"): // a banker without the least bank
		kind = "refuse"
	default:
		return // the offer to associate, open to all while the banker states his bank, once taken
	}
	if err := tb.click("#do-" + kind); err != nil {
		if errors.Is(err, errNotShown) {
			return
		}
		t.Fatal(err)
	}
	pl.did[kind] = true
	pl.clicked[tb], pl.at[tb] = key, time.Now()
}

// cheminLedger is the table's records in the ledger, in order, and its
// coups (hand_start to hand_end).
type cheminLedger struct {
	all   []poker.Record
	coups map[int][]poker.Record
}

func readCheminLedger(t *testing.T, s *server, table string) cheminLedger {
	t.Helper()
	l := cheminLedger{coups: map[int][]poker.Record{}}
	err := tableledger.Records(s.data, func(seq uint64, r tableledger.Record) error {
		if st, ok := r.(tableledger.Step); ok && st.Table == table {
			l.all = append(l.all, st.Records...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var cur []poker.Record
	for _, r := range l.all {
		if r.Kind == poker.KindHandStart {
			cur = nil
		}
		if r.Hand != 0 {
			cur = append(cur, r)
		}
		if r.Hand != 0 && (r.Kind == poker.KindHandEnd || r.Kind == poker.KindVoid) {
			l.coups[int(r.Hand)] = cur
		}
	}
	return l
}

func (l cheminLedger) has(f func(poker.Record) bool) bool { return slices.ContainsFunc(l.all, f) }

func announced(m chemin.Message) func(poker.Record) bool {
	return func(r poker.Record) bool { return r.Kind == chemin.KindAnnounce && r.Action == string(m) }
}

// points is a card's value at chemin de fer, written here apart from the
// engine: ace 1, two to nine their face, ten and the faces 0.
func points(cs []cards.Card) int {
	t := 0
	for _, c := range cs {
		if c.Rank < 10 {
			t += int(c.Rank)
		}
	}
	return t % 10
}

// checkCoup checks one coup of the ledger by the rules written apart from
// the engine: the totals shown are the cards', a tie gives every stake
// back, the banker's win pays him the stakes less the 5% cagnotte rounded
// down, the ponto's win pays every ponto twice his stake.
func checkCoup(t *testing.T, recs []poker.Record) (tie bool) {
	t.Helper()
	start := recs[0]
	stakes := map[int]int64{}
	var staked int64
	var shows []poker.Record
	var awards, returns []poker.Record
	for _, r := range recs {
		switch r.Kind {
		case chemin.KindBet:
			stakes[r.Seat] += r.Amount
			staked += r.Amount
		case poker.KindShow:
			shows = append(shows, r)
		case poker.KindAward:
			awards = append(awards, r)
		case poker.KindReturn:
			returns = append(returns, r)
		}
	}
	if len(shows) == 0 {
		if staked != 0 || len(awards) != 0 {
			t.Errorf("coup %d: stakes of %d and awards %+v without cards", start.Hand, staked, awards)
		}
		return false
	}
	if len(shows) != 2 {
		t.Fatalf("coup %d: %d hands shown", start.Hand, len(shows))
	}
	var pt, bt int
	for _, sh := range shows {
		if fmt.Sprint(points(sh.Cards)) != sh.Value {
			t.Errorf("coup %d: seat %d shows %v as %s", start.Hand, sh.Seat, sh.Cards, sh.Value)
		}
		if sh.Seat == start.Seat {
			bt = points(sh.Cards)
		} else {
			pt = points(sh.Cards)
		}
	}
	switch {
	case pt == bt:
		var back int64
		for _, r := range returns {
			back += r.Amount
			if r.Amount != stakes[r.Seat] {
				t.Errorf("coup %d (tie): seat %d staked %d, got back %d", start.Hand, r.Seat, stakes[r.Seat], r.Amount)
			}
		}
		if back != staked || len(awards) != 0 {
			t.Errorf("coup %d (tie at %d): %d staked, %d given back, awards %+v", start.Hand, pt, staked, back, awards)
		}
		return true
	case bt > pt:
		cag := staked * 500 / 10000
		if len(awards) != 1 || awards[0].Action != "banker" || awards[0].Amount != staked || awards[0].Rake != cag ||
			len(awards[0].Shares) != 1 || awards[0].Shares[0] != (poker.Share{Seat: start.Seat, Amount: staked - cag}) {
			t.Errorf("coup %d: the bank wins %d to %d on %d staked (cagnotte %d); the ledger pays %+v", start.Hand, bt, pt, staked, cag, awards)
		}
	default:
		if len(awards) != 1 || awards[0].Action != "ponto" || len(awards[0].Shares) != len(stakes) {
			t.Fatalf("coup %d: the ponto wins %d to %d; the ledger pays %+v", start.Hand, pt, bt, awards)
		}
		for _, sh := range awards[0].Shares {
			if sh.Amount != 2*stakes[sh.Seat] {
				t.Errorf("coup %d: seat %d staked %d and is paid %d", start.Hand, sh.Seat, stakes[sh.Seat], sh.Amount)
			}
		}
	}
	return false
}

// checkCheminLast compares the page's last coup (its final stacks, the
// cards shown, what was paid) with the ledger's.
func checkCheminLast(t *testing.T, l cheminLedger, p cheminPage) {
	t.Helper()
	recs := l.coups[p.Last]
	if recs == nil {
		t.Fatalf("coup %d shown on the page is not in the ledger", p.Last)
	}
	end := recs[len(recs)-1]
	if end.Kind != poker.KindHandEnd || len(end.Stacks) != len(p.Ends) {
		t.Fatalf("coup %d: the ledger ends it with %+v, the page shows %+v", p.Last, end, p.Ends)
	}
	for i, st := range end.Stacks {
		e := p.Ends[i]
		if e.Seat != st.Seat || e.Cents != st.Stack || e.Text != money.Euro("pt", st.Stack) {
			t.Errorf("coup %d seat %d: the page shows %q (%d cents), the ledger %d", p.Last, st.Seat, e.Text, e.Cents, st.Stack)
		}
	}
	shows := map[int]string{}
	names := map[int]string{}
	for _, st := range end.Stacks {
		names[st.Seat] = st.Player
	}
	var award *poker.Record
	for _, r := range recs {
		switch r.Kind {
		case poker.KindShow:
			var cs []string
			for _, c := range r.Cards {
				cs = append(cs, c.String())
			}
			shows[r.Seat] = strings.Join(cs, " ")
		case poker.KindAward:
			award = &r
		}
	}
	if len(shows) != len(p.Shows) {
		t.Fatalf("coup %d: the ledger shows %v, the page %+v", p.Last, shows, p.Shows)
	}
	for _, sh := range p.Shows {
		if shows[sh.Seat] != sh.Cards {
			t.Errorf("coup %d seat %d: the page shows %q, the ledger %q", p.Last, sh.Seat, sh.Cards, shows[sh.Seat])
		}
	}
	if award == nil {
		if len(p.Awards) != 0 {
			t.Errorf("coup %d: the page shows an award %q the ledger has not", p.Last, p.Awards)
		}
		return
	}
	if len(p.Awards) != 1 {
		t.Fatalf("coup %d: the ledger pays %+v, the page shows %q", p.Last, award, p.Awards)
	}
	for _, sh := range award.Shares {
		if want := names[sh.Seat] + " ganha " + money.Euro("pt", sh.Amount); !strings.Contains(p.Awards[0], want) {
			t.Errorf("coup %d: the page says %q, not %q", p.Last, p.Awards[0], want)
		}
	}
	if award.Action == "banker" && !strings.Contains(p.Awards[0], "cagnotte "+money.Euro("pt", award.Rake)) {
		t.Errorf("coup %d: the page says %q, without the cagnotte of %d", p.Last, p.Awards[0], award.Rake)
	}
}

// Four players sit down at a chemin de fer table in a real browser each
// and play by clicking their pages' buttons until a whole sabot is over
// and the table has seen a bancô (and the bancô suivi when it came), a
// void coup (a tie), a garage, a hand passed and declined by everyone and
// the bank's auction, a bank stated with an associate, a bancô com a mesa
// and a ponto choosing on 5. Every coup the pages show as the last is
// checked against the ledger (its final stacks, cards shown and payment),
// and every coup of the ledger by the rules written here apart from the
// engine (the totals, the tie's stakes given back, the cagnotte, the
// ponto's double); the inspector's tablesrv hands lists the same coups;
// the bank each page shows when the bets open is the ledger's, the garage
// shown is the ledger's; while the ponto chooses on 5 only he sees his
// cards (the ledger's) and only the banker his; the dealer's
// announcements the pages show are the ledger's, in Portuguese and, after
// the language toggle, in English; the amounts are money.Euro's; the
// decision timer counts down; the replay of the last coups opens; each
// player's cash-out shown on leaving is the ledger's; and the ledger
// verifies, every step re-run by the engine, every cent accounted.
func TestBrowserCheminDeFerSabot(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs in the full pass (make test runs it)")
	}
	t.Parallel()
	b := browser(t)
	const table = "chemin-t1"
	s := startServer(t, t.TempDir()+"/data", "--table-dir", cheminTableDir(t))
	players := []string{"ana", "bia", "caio", "duda"}
	var tabs []*tab
	for _, p := range players {
		r, err := s.api.BuyIn(table, seatmsg.MoneyRequest{TransferID: "in-" + p, Source: "caixa-1", Player: p, Amount: 30000})
		if err != nil {
			t.Fatal(err)
		}
		tb := b.window()
		tb.navigate(s.url + "/#seat=" + r.Token)
		tb.waitVisible("#game")
		tabs = append(tabs, tb)
	}

	pl := &cheminPlayer{stakeAt: map[int]time.Time{}, clicked: map[*tab]string{}, at: map[*tab]time.Time{}, did: map[string]bool{}}
	checked := map[int]bool{}
	banks := map[int]int64{} // the bank each coup's page showed when the bancô was asked
	says := map[string]bool{}
	sawTimer, sawTitle := false, false
	shots := map[string]bool{}
	seen := map[int]string{}     // the ponto's cards his page showed him while he chose on 5
	garages := map[string]bool{} // the garage as the pages showed it
	var led cheminLedger
	lastRead := time.Time{}
	// unshown lists the situations' announcements the ledger holds that
	// no page was read showing: a page holds only the coup's, so on a
	// loaded machine a short coup can pass between two readings; the
	// test plays on until one of each was seen.
	unshown := func() []chemin.Message {
		var out []chemin.Message
		for _, m := range []chemin.Message{chemin.MsgBanco, chemin.MsgTie, chemin.MsgGarage, chemin.MsgHandPasses, chemin.MsgAuction, chemin.MsgAdjudicated, chemin.MsgLastOfSabot} {
			shown := false
			for _, r := range led.all {
				if r.Kind == chemin.KindAnnounce && r.Action == string(m) && says[chemin.Text("pt", r)] {
					shown = true
				}
			}
			if !shown {
				out = append(out, m)
			}
		}
		return out
	}
	done := func() bool {
		return len(seen) > 0 && len(unshown()) == 0 && led.has(func(r poker.Record) bool { return r.Kind == chemin.KindShoeEnd }) &&
			led.has(func(r poker.Record) bool { return r.Kind == chemin.KindBet && r.Action == string(chemin.Banco) }) &&
			led.has(announced(chemin.MsgTie)) && led.has(func(r poker.Record) bool { return r.Kind == chemin.KindGarage }) &&
			led.has(func(r poker.Record) bool { return r.Kind == poker.KindAct && r.Action == string(chemin.Pass) }) &&
			led.has(func(r poker.Record) bool { return r.Kind == poker.KindAct && r.Action == string(chemin.Decline) }) &&
			led.has(announced(chemin.MsgAdjudicated)) && led.has(func(r poker.Record) bool { return r.Kind == chemin.KindAssociate }) &&
			led.has(func(r poker.Record) bool { return r.Kind == chemin.KindBet && r.Action == string(chemin.BancoMesa) })
	}
	deadline := time.Now().Add(6 * time.Minute)
	for {
		if time.Since(lastRead) > 2*time.Second {
			led, lastRead = readCheminLedger(t, s, table), time.Now()
			if done() {
				break
			}
		}
		if time.Now().After(deadline) {
			p := readChemin(tabs[0])
			t.Fatalf("not every situation within the time: %d coups, actions %v; page 1 %+v", len(led.coups), pl.did, p)
		}
		for _, tb := range tabs {
			p := readChemin(tb)
			if !p.Ready {
				continue
			}
			sawTitle = sawTitle || p.Title == "Banca francesa"
			for _, x := range p.Says {
				says[x] = true
			}
			if len(p.Choices) > 0 && strings.Contains(p.Timer, "É a sua vez") && strings.HasSuffix(p.Timer, " s") {
				sawTimer = true
			}
			// The cards as the viewer may see them: while the ponto
			// chooses on 5, his two cards to him alone, the banker's to
			// the banker alone (rules 67, 68).
			if p.Phase == "ponto" {
				switch {
				case p.Seat == p.Ponto:
					seen[p.Hand] = p.PontoC
				case p.PontoC != "":
					t.Errorf("coup %d: seat %d sees the ponto's cards %q before they are shown", p.Hand, p.Seat, p.PontoC)
				}
				if p.Seat != p.Banker && p.BankerC != "" {
					t.Errorf("coup %d: seat %d sees the banker's cards %q before they are turned", p.Hand, p.Seat, p.BankerC)
				}
			}
			if p.GarText != "" {
				garages[p.GarText] = true
			}
			if p.Phase == "banco_round" && p.Hand > 0 {
				if want := "Banca: " + money.Euro("pt", p.Bank); p.BankText != want {
					t.Errorf("coup %d: the page shows %q for a bank of %d cents", p.Hand, p.BankText, p.Bank)
				}
				banks[p.Hand] = p.Bank
			}
			for _, st := range p.StackText {
				if st.Text != money.Euro("pt", st.Cents) {
					t.Errorf("seat %d shows %q for %d cents", st.Seat, st.Text, st.Cents)
				}
			}
			if p.Last > 0 && !checked[p.Last] && len(p.Ends) > 0 {
				l := readCheminLedger(t, s, table)
				checkCheminLast(t, l, p)
				checked[p.Last] = true
			}
			if len(p.Choices) > 0 && !shots[p.Phase] {
				shots[p.Phase] = true
				tb.shot(p.Phase)
			}
			pl.decide(t, tb, p)
		}
		time.Sleep(30 * time.Millisecond)
	}
	if !sawTitle {
		t.Error("the page never said it is a banca francesa table")
	}
	if !sawTimer {
		t.Error("the decision timer was never shown counting down")
	}

	// Every coup of the ledger by the rules; the bank the pages showed is
	// the coup's.
	ties := 0
	for n, recs := range led.coups {
		if checkCoup(t, recs) {
			ties++
		}
		if b, ok := banks[n]; ok && b != recs[0].Amount {
			t.Errorf("coup %d: the pages showed a bank of %d, the ledger %d", n, b, recs[0].Amount)
		}
	}
	if ties == 0 {
		t.Error("no tie among the coups the ledger holds")
	}
	for n, cs := range seen {
		for _, r := range led.coups[n] {
			if r.Kind == poker.KindDeal && r.Seat != led.coups[n][0].Seat {
				var want []string
				for _, c := range r.Cards {
					want = append(want, c.String())
				}
				if cs != strings.Join(want, " ") {
					t.Errorf("coup %d: the ponto's page showed him %q, the ledger dealt him %v", n, cs, want)
				}
			}
		}
	}
	if len(seen) == 0 {
		t.Error("no ponto was seen choosing on 5 with his cards")
	}
	for _, r := range led.all {
		if r.Kind == chemin.KindGarage && !garages["Garage: "+money.Euro("pt", r.Amount)] {
			t.Errorf("the garage of %d cents was not shown (the pages showed %v)", r.Amount, garages)
		}
	}
	// The inspector's hand histories (tablesrv hands) hold the same coups.
	code, out, errs := tablesrv(t, "hands", s.data, "--table", table, "--last", "0", "--json")
	if code != 0 {
		t.Fatalf("hands: %s", errs)
	}
	var hands []struct {
		Records []poker.Record `json:"records"`
	}
	if err := json.Unmarshal([]byte(out), &hands); err != nil {
		t.Fatal(err)
	}
	if len(hands) < len(led.coups) {
		t.Errorf("tablesrv hands lists %d coups, the ledger holds %d", len(hands), len(led.coups))
	}
	for _, h := range hands {
		want := led.coups[int(h.Records[0].Hand)]
		a, _ := json.Marshal(h.Records)
		b, _ := json.Marshal(want)
		if want != nil && string(a) != string(b) {
			t.Errorf("coup %d: tablesrv hands and the ledger differ:\n%s\n%s", h.Records[0].Hand, a, b)
		}
	}

	// The announcements the pages showed are the ledger's, and the ones
	// of the situations played were shown.
	pt := map[string]bool{}
	en := map[string]bool{}
	for _, r := range led.all {
		if r.Kind == chemin.KindAnnounce {
			pt[chemin.Text("pt", r)] = true
			en[chemin.Text("en", r)] = true
		}
	}
	for x := range says {
		if !pt[x] {
			t.Errorf("a page announced %q, which is not in the ledger", x)
		}
	}
	for _, m := range unshown() {
		t.Errorf("the dealer's %q was not shown on any page", m)
	}
	t.Logf("%d coups, %d ties, %d checked on the pages; %d announcements shown; actions %v", len(led.coups), ties, len(checked), len(says), pl.did)

	// The replay of the player's last coups, frame by frame.
	tb := tabs[0]
	tb.clickUntil("#btn-replay", fmt.Sprintf("%s(%q)", visibleJS, "#replay"), "#replay shown")
	var coups int
	tb.must(`document.querySelectorAll("#replay-hands button").length`, &coups)
	tb.mustClick("#replay-next")
	tb.waitFor(`document.getElementById("replay-pos").innerText.startsWith("2 / ")`, "at the replay's second frame")
	if frame := tb.text("#replay-frame"); coups != 3 || !strings.Contains(frame, "Banca: ") {
		t.Errorf("the replay lists %d coups; its frame: %q", coups, frame)
	}
	tb.mustClick("#replay-close")
	tb.waitFor(`document.getElementById("replay").hidden`, "the replay closed")

	// English: the title, the bank and the dealer's words change language.
	tb.mustClick("#lang-en")
	tb.waitFor(`document.getElementById("title").textContent === "Chemin de fer"`, "in English")
	p := readChemin(tb)
	if want := "Bank: " + money.Euro("en", p.Bank); p.BankText != want {
		t.Errorf("the English page shows %q for a bank of %d cents", p.BankText, p.Bank)
	}
	// The table plays on (its timer) while the test reads: the ledger is
	// read again after the page, so an announcement made since the first
	// reading is among it.
	for _, r := range readCheminLedger(t, s, table).all {
		if r.Kind == chemin.KindAnnounce {
			en[chemin.Text("en", r)] = true
		}
	}
	for _, x := range p.Says {
		if !en[x] {
			t.Errorf("the English page announces %q, which the ledger's announcements are not in English", x)
		}
	}
	for _, st := range p.StackText {
		if st.Text != money.Euro("en", st.Cents) {
			t.Errorf("seat %d shows %q for %d cents in English", st.Seat, st.Text, st.Cents)
		}
	}
	tb.shot("english")
	tb.mustClick("#lang-pt")
	tb.waitFor(`document.getElementById("title").textContent === "Banca francesa"`, "in Portuguese")

	// Everyone leaves (a player in the coup in play at its end, the
	// banker with his bank): the cash-out each page shows is the ledger's.
	for _, tb := range tabs {
		tb.click("#btn-leave")
	}
	left := map[int]bool{}
	leaveBy := time.Now().Add(90 * time.Second)
	for len(left) < len(tabs) {
		if time.Now().After(leaveBy) {
			for i, tb := range tabs {
				t.Logf("page %d: %+v", i, readChemin(tb))
			}
			t.Fatalf("the players did not leave: %v left", left)
		}
		for i, tb := range tabs {
			var gone bool
			tb.must(fmt.Sprintf("%s(%q)", visibleJS, "#left"), &gone)
			if gone {
				left[i] = true
				continue
			}
			if p := readChemin(tb); len(p.Choices) > 0 {
				pl.decide(t, tb, p)
			} else {
				var leaving bool
				tb.must(`document.getElementById("btn-leave").disabled`, &leaving)
				if !leaving { // the click did not act: again
					tb.click("#btn-leave")
				}
			}
		}
		time.Sleep(30 * time.Millisecond)
	}
	for i, tb := range tabs {
		var cents string
		tb.must(`document.getElementById("left").dataset.cents`, &cents)
		tr, err := s.api.Transfer("out:in-" + players[i])
		if err != nil || tr.Status != "done" || fmt.Sprint(tr.Amount) != cents || tr.Source != "caixa-1" {
			t.Fatalf("%s's page shows a cash-out of %s cents; the ledger %+v %v", players[i], cents, tr, err)
		}
		if shown := tb.text("#left-totals-cashed-out"); shown != money.Euro("pt", tr.Amount) {
			t.Errorf("%s's cash-out shown as %q, %d cents", players[i], shown, tr.Amount)
		}
	}

	s.stop()
	checkLedger(t, s, nil) // verify, the report's verdict, and every cent of the table and its sources
}

// shot saves a screenshot of the page to dir/name.png when
// TABLESRV_SHOTS names a directory (to look at the page a test played).
func (tb *tab) shot(name string) {
	dir := os.Getenv("TABLESRV_SHOTS")
	if dir == "" {
		return
	}
	var r struct {
		Data []byte `json:"data"`
	}
	if err := tb.dt.call("Page.captureScreenshot", map[string]any{"format": "png"}, &r); err != nil {
		tb.t.Logf("screenshot: %v", err)
		return
	}
	os.WriteFile(filepath.Join(dir, name+".png"), r.Data, 0o644)
}
