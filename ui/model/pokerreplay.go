package model

import (
	"strings"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/seatmsg"
)

// The replay of the player's last hands (SRIJ rule 78). The REPLAY button
// asks the server through the machine (PokerAct "replay"); the machine
// keeps the server's answer in its view (machine.PokerSeatView.Replay) and
// the screen shows it over the table, frame by frame as the player saw
// the hand. Nothing here touches money: the replay is the server's
// records drawn again.

// replayUI is the replay's own state on the screen.
type replayUI struct {
	up   bool   // asked and not closed
	seen uint64 // the view's ReplaySeq when asked: the answer is the next
	// Hand and Frame are the hand (index in what the server sent, -1
	// until the answer is here: then the latest) and its frame shown.
	Hand, Frame int
}

// ReplayScene is a frame of the replay as the screen draws it.
type ReplayScene struct {
	Hand          uint64 // the hand's number at the table
	HandNo, Hands int    // which of the hands sent (1 the oldest)
	Frame, Frames int    // which frame (1 the first)
	Seats         []PokerSeatSpot
	Board         []PokerCard
	Own           []PokerCard
	Pot           string
	Text          string      // this frame's record in words
	Log           []PokerLine // the hand's records up to this frame, in words
	// Chemin is a chemin de fer coup's frame: the two hands as the
	// player saw them (Pot then says the bank and the stakes).
	Chemin *CheminScene
}

// CheminScene is a chemin de fer coup's table in a replay's frame.
type CheminScene struct {
	Ponto, Banker CheminHand
}

// Layout of the replay's row of controls.
var (
	RectReplayCounter = Rect{198, 512, 196, 76}
	RectReplayHand    = Rect{724, 512, 300, 76}
)

// ReplayUp says whether the replay covers the table.
func (g *Screen) ReplayUp() bool { return g.Poker.Replay.up && g.PokerAtTable() }

// ReplayWaiting says whether the replay is up and the server's answer to
// its request is not here yet.
func (g *Screen) ReplayWaiting() bool {
	p := g.PokerSeat()
	return g.ReplayUp() && (p.Replay == nil || p.ReplaySeq == g.Poker.Replay.seen)
}

// replayHands are the hands of the replay on screen (none while waiting).
func (g *Screen) replayHands() []seatmsg.ReplayHand {
	if !g.ReplayUp() || g.ReplayWaiting() {
		return nil
	}
	return g.PokerSeat().Replay.Hands
}

func (g *Screen) openReplay() {
	g.Poker.rebuy = false
	g.Poker.Replay = replayUI{up: true, seen: g.PokerSeat().ReplaySeq, Hand: -1}
	g.pokerAct("replay", 0, false)
}

func (g *Screen) closeReplay() {
	g.Poker.Replay.up = false
	g.pokerAct("close_replay", 0, false)
}

// observeReplay keeps the replay's place within what the server sent:
// the latest hand first, once the answer is here.
func (g *Screen) observeReplay() {
	r := &g.Poker.Replay
	if r.up && !g.PokerAtTable() {
		r.up = false // the table is gone: nothing to replay it over
	}
	hands := g.replayHands()
	if len(hands) == 0 {
		return
	}
	if r.Hand < 0 {
		r.Hand, r.Frame = len(hands)-1, 0
	}
	r.Hand = min(max(r.Hand, 0), len(hands)-1)
	r.Frame = min(max(r.Frame, 0), max(len(hands[r.Hand].Frames)-1, 0))
}

// replayStep moves d frames, stopping at the hand's first and last.
func (g *Screen) replayStep(d int) {
	g.activity()
	g.Poker.Replay.Frame += d
	g.observeReplay()
}

// replayPick moves d hands, to the new hand's first frame.
func (g *Screen) replayPick(d int) {
	g.activity()
	g.Poker.Replay.Hand += d
	g.Poker.Replay.Frame = 0
	g.observeReplay()
}

// PokerReplay is the frame of the replay on screen (false: none, the
// answer not here yet or no hand to replay).
func (g *Screen) PokerReplay() (ReplayScene, bool) {
	hands := g.replayHands()
	live := g.PokerState()
	if len(hands) == 0 || live == nil {
		return ReplayScene{}, false
	}
	r := g.Poker.Replay
	hi := min(max(r.Hand, 0), len(hands)-1)
	h := hands[hi]
	sc := ReplayScene{Hand: h.Hand, HandNo: hi + 1, Hands: len(hands), Frames: len(h.Frames)}
	if len(h.Frames) == 0 {
		return sc, true
	}
	fi := min(max(r.Frame, 0), len(h.Frames)-1)
	f := h.Frames[fi]
	sc.Frame = fi + 1
	me := ""
	if live.You != nil {
		me = live.You.Player
	}
	n := live.Table.Seats
	names := map[int]string{}
	meSeat := 0
	for _, fs := range h.Frames[0].Seats {
		n = max(n, fs.Seat)
		names[fs.Seat] = fs.Player
		if fs.Player == me {
			meSeat = fs.Seat
		}
	}
	dealer := 0
	if first := h.Frames[0].Record; first.Kind == poker.KindHandStart {
		dealer = first.Seat
	}
	dealt := map[string]bool{}
	for _, fr := range h.Frames[:fi+1] {
		if fr.Record.Kind == poker.KindDeal {
			dealt[fr.Record.Player] = true
		}
		if fr.Chemin != nil {
			sc.Log = append(sc.Log, g.cheminRecordLine(fr.Record, fr.Chemin, names, meSeat))
			continue
		}
		sc.Log = append(sc.Log, g.recordLine(fr.Record, names, meSeat, live.Table.Game))
	}
	sc.Text = sc.Log[len(sc.Log)-1].Text
	sc.Seats = emptySeats(n)
	for _, fs := range f.Seats {
		if fs.Seat < 1 || fs.Seat > n {
			continue
		}
		sp := &sc.Seats[fs.Seat-1]
		g.fillSeat(sp, fs.Player, fs.Stack, fs.Bet)
		sp.You, sp.Folded, sp.Dealer = fs.Player == me, fs.Folded, fs.Seat == dealer
		// The seat whose record this frame is: framed as the one to act.
		sp.ToAct = fs.Seat == f.Record.Seat && f.Record.Kind != poker.KindHandStart
		if fs.Folded {
			sp.Badges = append(sp.Badges, g.T("poker_folded"))
		}
		sp.placeCards(seatCards(fs.Cards, dealt[fs.Player] && !fs.Folded))
		if sp.You {
			for k, c := range fs.Cards {
				sc.Own = append(sc.Own, PokerCard{Card: c, Up: true, R: ownCardRect(k)})
			}
		}
	}
	for i, c := range f.Board {
		sc.Board = append(sc.Board, PokerCard{Card: c, Up: true, R: BoardSlot(i)})
	}
	sc.Pot = g.T("poker_pot", Euro(g.Lang, f.Pot))
	if c := f.Chemin; c != nil {
		g.cheminFrame(&sc, c)
	}
	return sc, true
}

// replayActs are the texts of the posts and acts a record names (its
// Action); %[1]s the player, %[2]s what he put in (a bet or a raise: his
// bet after it).
var replayActs = map[string]string{
	"fold": "poker_rp_fold", "check": "poker_rp_check", "call": "poker_rp_call", "bet": "poker_rp_bet", "raise": "poker_rp_raise",
	"small_blind": "poker_rp_small_blind", "big_blind": "poker_rp_big_blind", "dead_blind": "poker_rp_dead_blind",
	"ante": "poker_rp_ante", "no_ante": "poker_rp_no_ante", "po_ante": "poker_rp_po_ante",
	"estardilho": "poker_rp_estardilho", "no_estardilho": "poker_rp_no_estardilho",
	"restardilho": "poker_rp_restardilho", "no_restardilho": "poker_rp_no_restardilho",
}

// recordLine is a record of a hand in words, as the player saw it (me:
// his seat; game: the table's, which names the dealer's disc).
func (g *Screen) recordLine(r poker.Record, names map[int]string, me int, game string) PokerLine {
	who := names[r.Seat]
	if who == "" {
		who = r.Player
	}
	line := PokerLine{Kind: r.Kind}
	switch r.Kind {
	case poker.KindHandStart:
		key := "poker_rp_start_synthetic"
		if game == "holdem" {
			key = "poker_rp_start_holdem"
		}
		line.Text = g.T(key, Itoa(r.Hand), Itoa(r.Seat))
	case poker.KindDeal:
		line.Text = g.T("poker_rp_dealt", who)
		if len(r.Cards) > 0 {
			line.Text, line.Cards = g.T("poker_rp_dealt_you", cardsText(r.Cards)), r.Cards
		}
	case poker.KindDeck:
		line.Text = g.T("poker_rp_deck")
	case poker.KindPost, poker.KindAct:
		key, ok := replayActs[r.Action]
		if !ok {
			line.Text = who + ": " + r.Action + " " + Euro(g.Lang, r.Amount)
			break
		}
		amount := r.Amount
		if r.Action == "bet" || r.Action == "raise" {
			amount = r.To // the bet he makes, not what it adds
		}
		line.Text = g.T(key, who, Euro(g.Lang, amount))
		if r.AllIn {
			line.Text += " · " + g.T("poker_rp_all_in")
		}
		if r.Timeout {
			line.Text += " (" + g.T("poker_rp_timeout") + ")"
		}
	case poker.KindBoard:
		line.Text, line.Cards = g.T("poker_rp_board", cardsText(r.Cards)), r.Cards
	case poker.KindReturn:
		line.Text = g.T("poker_rp_return", who, Euro(g.Lang, r.Amount))
	case poker.KindShow:
		line.Text, line.Cards = g.T("poker_shows", who, HandValueText(g.Lang, r.Value)), r.Cards
	case poker.KindAward:
		line = g.awardLine(r, names, me)
	case poker.KindCarry:
		line.Text = g.T("poker_carry", Euro(g.Lang, r.Amount))
	case poker.KindVoid:
		line.Text = g.T("poker_void")
	case poker.KindHandEnd:
		line.Text = g.T("poker_rp_end", Itoa(r.Hand))
	default:
		line.Text = string(r.Kind)
	}
	return line
}

// cardsText are cards as they are printed ("A♠ K♦ 7♥").
func cardsText(cs []cards.Card) string {
	var out []string
	for _, c := range cs {
		rank, suit, _ := CardText(c)
		out = append(out, rank+suit)
	}
	return strings.Join(out, " ")
}

// replayButtons are the replay's controls: a frame back and on, a hand
// back and on, and the close.
func (g *Screen) replayButtons() []Button {
	a := RectPokerActions
	r := g.Poker.Replay
	sc, ok := g.PokerReplay()
	bs := []Button{
		{ID: "poker:replay_prev", Label: g.T("poker_replay_prev"), R: Rect{20, a.Y, 170, a.H}, Enabled: ok && sc.Frame > 1,
			Act: func(g *Screen) { g.replayStep(-1) }},
		{ID: "poker:replay_next", Label: g.T("poker_replay_next"), R: Rect{402, a.Y, 170, a.H}, Enabled: ok && sc.Frame < sc.Frames, Style: StyleHot,
			Act: func(g *Screen) { g.replayStep(1) }},
		{ID: "poker:replay_hand_prev", Label: g.T(g.coupWord("poker_replay_hand_prev")), R: Rect{596, a.Y, 120, a.H}, Enabled: ok && r.Hand > 0,
			Act: func(g *Screen) { g.replayPick(-1) }},
		{ID: "poker:replay_hand_next", Label: g.T(g.coupWord("poker_replay_hand_next")), R: Rect{1032, a.Y, 120, a.H}, Enabled: ok && sc.HandNo < sc.Hands,
			Act: func(g *Screen) { g.replayPick(1) }},
	}
	y, h := 634.0, 76.0
	return append(bs,
		Button{ID: machine.BtnLanguage, Label: g.T("btn_language"), R: Rect{20, y, 150, h}, Enabled: true,
			Act: func(g *Screen) { g.press(machine.BtnLanguage) }},
		Button{ID: "poker:replay_close", Label: g.T("poker_replay_close"), R: Rect{1030, y, 230, h}, Enabled: true, Style: StyleHot,
			Act: (*Screen).closeReplay},
	)
}

// ReplayCounter and ReplayHandText are the replay's row's words: the
// frame of the hand, and the hand of those sent.
func (g *Screen) ReplayCounter() string {
	sc, ok := g.PokerReplay()
	if !ok {
		return ""
	}
	return g.T("poker_replay_step", Itoa(sc.Frame), Itoa(sc.Frames))
}

func (g *Screen) ReplayHandText() string {
	sc, ok := g.PokerReplay()
	if !ok {
		return ""
	}
	return g.T(g.coupWord("poker_replay_hand"), Itoa(sc.Hand), Itoa(sc.HandNo), Itoa(sc.Hands))
}

// ReplayHeading is the replay panel's heading: the hand's (the coup's)
// number.
func (g *Screen) ReplayHeading(hand uint64) string {
	return g.T(g.coupWord("poker_replay_heading"), Itoa(hand))
}

// replayKey handles a key while the replay is up: ← → frames, ↑ ↓ hands,
// Esc or P closes it; the rest does nothing over a replay.
func (g *Screen) replayKey(k string) {
	switch k {
	case KeyLeft:
		g.replayStep(-1)
	case KeyRight, KeySpin, KeyEnter:
		g.replayStep(1)
	case KeyUp:
		g.replayPick(-1)
	case KeyDown:
		g.replayPick(1)
	case KeyEscape, "p":
		g.closeReplay()
	}
}

// replayStatus is the message line over the replay: the frame in words,
// or that it is asked, or that the player must decide at the live table.
func (g *Screen) replayStatus() (string, bool) {
	if _, left, _, ok := g.PokerTimer(); ok && g.YourTurn() {
		return g.T("poker_replay_your_turn", Itoa(TimerSeconds(left))), true
	}
	if g.ReplayWaiting() {
		return g.T("poker_replay_asking"), false
	}
	if sc, ok := g.PokerReplay(); ok && sc.Text != "" {
		return sc.Text, false
	}
	return g.T("poker_replay_none"), false
}
