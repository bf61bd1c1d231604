package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/pokertest"
	"github.com/openegm/cabinet/poker/seatmsg"
)

// browser starts Debian's chromium, headless. A machine without it skips
// the test with the reason; TABLESRV_BROWSER=require (make test sets it, as
// make deps installs chromium) makes that a failure, so CI cannot pass
// without having run it.
func browser(t *testing.T) *chromium {
	t.Helper()
	path := findChromium()
	if path == "" {
		if os.Getenv("TABLESRV_BROWSER") == "require" {
			t.Fatal("chromium is not installed and TABLESRV_BROWSER=require (make deps installs it)")
		}
		t.Skip("SKIPPED: chromium is not installed, so no browser seat was tested (make deps installs it; make test requires it)")
	}
	return startChromium(t, path)
}

// page is what the test reads of a seat's page.
type page struct {
	Status string `json:"status"`
	// Decision names the decision the page offers now ("" for none): a
	// hand and its deadline.
	Decision string `json:"decision"`
	Hand     int    `json:"hand"`
	Actions  bool   `json:"actions"`
	Check    bool   `json:"check"`
	Timer    string `json:"timer"`
	Last     int    `json:"last"`
	Seats    []struct {
		Seat   int    `json:"seat"`
		Player string `json:"player"`
		Cents  int64  `json:"cents"`
		Text   string `json:"text"`
	} `json:"seats"`
	lastPanel
}

// lastPanel is the page's panel of the last hand or coup, the same on
// both kinds of table: each seat's stack at its end, the hands shown and
// the awards in words.
type lastPanel struct {
	Ends []struct {
		Seat  int    `json:"seat"`
		Cents int64  `json:"cents"`
		Text  string `json:"text"`
	} `json:"ends"`
	Shows []struct {
		Seat  int    `json:"seat"`
		Cards string `json:"cards"`
	} `json:"shows"`
	Awards []string `json:"awards"`
}

const readPage = `(() => {
  const $ = (id) => document.getElementById(id);
  return {
    status: $("status").dataset.status, hand: +$("hand-no").dataset.hand,
    actions: !$("actions").hidden, check: !$("btn-check").hidden, timer: $("timer-text").textContent,
    last: +$("last").dataset.hand,
    decision: state && state.options ? state.hand + ":" + state.deadline_ms : "",
    seats: [...document.querySelectorAll(".seat[data-player]")].map((e) => ({seat: +e.dataset.seat, player: e.dataset.player,
      cents: +e.querySelector(".stack").dataset.cents, text: e.querySelector(".stack").textContent})),
    ends: [...document.querySelectorAll("#last .end-stack")].map((e) => ({seat: +e.dataset.seat, cents: +e.dataset.cents, text: e.textContent})),
    shows: [...document.querySelectorAll("#last .show")].map((e) => ({seat: +e.dataset.seat, cards: e.dataset.cards})),
    awards: [...document.querySelectorAll("#last .award")].map((e) => e.textContent),
  };
})()`

func read(tb *tab) page {
	tb.t.Helper()
	var p page
	tb.must(readPage, &p)
	return p
}

// Two players sit down in a real browser with the seats' tokens the
// cashier got, and play hands to a showdown by clicking the page's buttons
// (check, else call). Each hand shown as the last one is checked against
// the server's ledger: it reached a showdown, the pot went to the player
// whose cards win it (evaluated here from the cards the ledger shows) and
// the page says so; its final stacks and cards shown are the ledger's; the
// amounts are written as money.Euro writes them (the page's own formatter
// is checked against it too), in Portuguese and in English; the decision
// timer counts down; the replay of the last hands opens; each player's
// cash-out shown on leaving is the ledger's; and the whole ledger verifies
// and every hand of it passes the independent audit.
func TestBrowserSeatsPlayToAShowdown(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test runs in the full pass (make test runs it)")
	}
	t.Parallel()
	b := browser(t)
	s := startServer(t, t.TempDir()+"/data", "--table", "holdem-nl-2")
	players := []string{"ana", "bia"}
	var tabs []*tab
	for _, p := range players {
		r, err := s.api.BuyIn("holdem-nl-2", seatmsg.MoneyRequest{TransferID: "in-" + p, Source: "caixa-1", Player: p, Amount: 10000})
		if err != nil {
			t.Fatal(err)
		}
		tb := b.window()
		tb.navigate(s.url + "/#seat=" + r.Token)
		tb.waitVisible("#game")
		tabs = append(tabs, tb)
	}
	tabA := tabs[0]

	// The page's formatter is internal/money's.
	for _, lang := range []string{"pt", "en"} {
		for _, c := range []int64{0, 7, 99, 100, 150, 123456, 100000000, -5, -123456} {
			var got string
			tabA.must(fmt.Sprintf("euro(%q, %d)", lang, c), &got)
			if want := money.Euro(lang, c); got != want {
				t.Errorf("the page writes %d cents in %s as %q, internal/money as %q", c, lang, got, want)
			}
		}
	}

	sawTimer := false
	play := newClicker()
	checked := map[int]bool{}
	deadline := time.Now().Add(3 * time.Minute)
	for len(checked) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("hands checked %v; page A %+v", checked, read(tabA))
		}
		for _, tb := range tabs {
			p := read(tb)
			if p.Actions && strings.Contains(p.Timer, "É a sua vez") && strings.HasSuffix(p.Timer, " s") {
				sawTimer = true
			}
			play.checkOrCall(t, tb, p)
			if p.Last > 0 && !checked[p.Last] && len(p.Ends) > 0 {
				checkLastHand(t, s, p)
				checked[p.Last] = true
			}
		}
		time.Sleep(30 * time.Millisecond)
	}
	if !sawTimer {
		t.Error("the decision timer was never shown counting down")
	}

	// English: the table card and the amounts change language.
	tabA.mustClick("#lang-en")
	tabA.waitFor(`document.getElementById("table-card").innerText.includes("Initial cave")`, "in English")
	if card := tabA.text("#table-card"); !strings.Contains(card, "Initial cave: €100.00") || !strings.Contains(card, "Commission: 5% of each pot") {
		t.Errorf("the English table card: %q", card)
	}
	for _, st := range read(tabA).Seats {
		if st.Text != money.Euro("en", st.Cents) {
			t.Errorf("seat %d shows %q for %d cents in English", st.Seat, st.Text, st.Cents)
		}
	}
	tabA.mustClick("#lang-pt")
	tabA.waitFor(`document.getElementById("table-card").innerText.includes("Cave inicial")`, "in Portuguese")

	// The replay of the last hands (SRIJ rule 78).
	tabA.clickUntil("#btn-replay", fmt.Sprintf("%s(%q)", visibleJS, "#replay"), "#replay shown")
	var hands int
	tabA.must(`document.querySelectorAll("#replay-hands button").length`, &hands)
	tabA.mustClick("#replay-next")
	tabA.waitFor(`document.getElementById("replay-pos").innerText.startsWith("2 / ")`, "at the replay's second frame")
	if pos := tabA.text("#replay-pos"); hands != 3 || !strings.HasPrefix(pos, "2 / ") {
		t.Errorf("the replay lists %d hands, at frame %q", hands, pos)
	}
	tabA.mustClick("#replay-close")
	tabA.waitFor(`document.getElementById("replay").hidden`, "the replay closed")

	// Both leave (at the end of a hand in play: the other window goes on
	// playing it meanwhile): the cash-out each page shows is the ledger's.
	for _, tb := range tabs {
		tb.mustClick("#btn-leave")
	}
	left := map[int]bool{}
	deadline = time.Now().Add(40 * time.Second)
	for len(left) < len(tabs) {
		if time.Now().After(deadline) {
			for i, tb := range tabs {
				var diag string
				tb.eval(`JSON.stringify({error: document.getElementById("error").textContent,
				  leave: document.getElementById("btn-leave").textContent, disabled: document.getElementById("btn-leave").disabled})`, &diag)
				t.Logf("page %d: %+v %s", i, read(tb), diag)
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
			if p := read(tb); p.Decision != "" {
				play.checkOrCall(t, tb, p)
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
			t.Fatalf("the page shows a cash-out of %s cents; the ledger %+v %v", cents, tr, err)
		}
		if shown := tb.text("#left-totals-cashed-out"); shown != money.Euro("pt", tr.Amount) {
			t.Errorf("cash-out shown as %q, %d cents", shown, tr.Amount)
		}
	}
	s.stop()
	checkLedger(t, s, rulesOf)
}

// clicker plays as the test's players do: check, else call, with a click
// on the page's button when it offers a decision. One click per decision:
// the page takes a moment to show the step the click made, and a second
// click would land on the next decision or elsewhere. A click that did not
// act (the button moved under it) is made again after a while.
type clicker struct {
	clicked map[*tab]string
	at      map[*tab]time.Time
}

func newClicker() *clicker {
	return &clicker{clicked: map[*tab]string{}, at: map[*tab]time.Time{}}
}

func (pl *clicker) checkOrCall(t *testing.T, tb *tab, p page) {
	t.Helper()
	if !p.Actions || p.Decision == "" {
		return
	}
	if pl.clicked[tb] == p.Decision && time.Since(pl.at[tb]) < 3*time.Second {
		return
	}
	sel := "#btn-call"
	if p.Check {
		sel = "#btn-check"
	}
	if err := tb.click(sel); err != nil && !errors.Is(err, errNotShown) {
		t.Fatal(err)
	}
	pl.clicked[tb], pl.at[tb] = p.Decision, time.Now()
}

// checkLastHand compares the page's last hand (its final stacks, the cards
// shown and the pot paid) with the hand's records in the server's ledger,
// and checks that the ledger paid the pot to the best hand shown.
func checkLastHand(t *testing.T, s *server, p page) {
	t.Helper()
	code, out, errs := tablesrv(t, "hands", s.data, "--table", "holdem-nl-2", "--last", "0", "--json")
	if code != 0 {
		t.Fatalf("hands: %s", errs)
	}
	var hands []struct {
		Records []poker.Record `json:"records"`
	}
	if err := json.Unmarshal([]byte(out), &hands); err != nil {
		t.Fatal(err)
	}
	var recs []poker.Record
	for _, h := range hands {
		if int(h.Records[0].Hand) == p.Last {
			recs = h.Records
		}
	}
	if recs == nil {
		t.Fatalf("hand %d shown on the page is not in the ledger", p.Last)
	}
	end := recs[len(recs)-1]
	if end.Kind != poker.KindHandEnd || len(end.Stacks) != len(p.Ends) {
		t.Fatalf("hand %d: the ledger ends it with %+v, the page shows %+v", p.Last, end, p.Ends)
	}
	for i, st := range end.Stacks {
		e := p.Ends[i]
		if e.Seat != st.Seat || e.Cents != st.Stack || e.Text != money.Euro("pt", st.Stack) {
			t.Errorf("hand %d seat %d: the page shows %q (%d cents), the ledger %d", p.Last, st.Seat, e.Text, e.Cents, st.Stack)
		}
	}
	shows := map[int]string{}
	for _, r := range recs {
		if r.Kind == poker.KindShow {
			var cs []string
			for _, c := range r.Cards {
				cs = append(cs, c.String())
			}
			shows[r.Seat] = strings.Join(cs, " ")
		}
	}
	if len(shows) != 2 || len(p.Shows) != 2 {
		var steps []string
		for _, r := range recs {
			steps = append(steps, fmt.Sprintf("%s %d %s %d%s", r.Kind, r.Seat, r.Action, r.Amount, map[bool]string{true: " (timeout)"}[r.Timeout]))
		}
		t.Fatalf("hand %d reached no showdown: the ledger shows %v, the page %+v; the hand: %s", p.Last, shows, p.Shows, strings.Join(steps, ", "))
	}
	for _, sh := range p.Shows {
		if shows[sh.Seat] != sh.Cards {
			t.Errorf("hand %d seat %d: the page shows %q, the ledger %q", p.Last, sh.Seat, sh.Cards, shows[sh.Seat])
		}
	}

	// The pot to the best hand: every hand here is checked down to the
	// river, so the five community cards and both hands are in the ledger.
	var board []cards.Card
	holes := map[int][]cards.Card{}
	names := map[int]string{}
	for _, r := range recs {
		switch r.Kind {
		case poker.KindBoard:
			board = append(board, r.Cards...)
		case poker.KindShow:
			holes[r.Seat] = r.Cards
		}
	}
	for _, st := range end.Stacks {
		names[st.Seat] = st.Player
	}
	if len(board) != 5 {
		t.Fatalf("hand %d: the ledger turned %d community cards", p.Last, len(board))
	}
	var best cards.HandValue
	winners := map[int]bool{}
	for seat, hole := range holes {
		v := cards.Eval52(append(append([]cards.Card{}, hole...), board...)...)
		if v > best {
			best, winners = v, map[int]bool{}
		}
		if v == best {
			winners[seat] = true
		}
	}
	awards := pokertest.Find(recs, poker.KindAward)
	if len(awards) != 1 || len(p.Awards) != 1 {
		t.Fatalf("hand %d: one pot expected; the ledger pays %+v, the page shows %q", p.Last, awards, p.Awards)
	}
	a := awards[0]
	paid := a.Rake
	for _, sh := range a.Shares {
		paid += sh.Amount
		if !winners[sh.Seat] {
			t.Errorf("hand %d: the ledger pays %d cents to seat %d, whose hand does not win (board %v, hands %v)", p.Last, sh.Amount, sh.Seat, board, holes)
		}
		if want := names[sh.Seat] + " ganha " + money.Euro("pt", sh.Amount); !strings.Contains(p.Awards[0], want) {
			t.Errorf("hand %d: the page says %q, not %q", p.Last, p.Awards[0], want)
		}
	}
	if len(a.Shares) != len(winners) || paid != a.Amount {
		t.Errorf("hand %d: the pot of %d cents paid as %+v with a rake of %d; the winners are seats %v", p.Last, a.Amount, a.Shares, a.Rake, winners)
	}
}
