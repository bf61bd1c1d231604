// Package tablesrvtest drives a table server from the outside, for tests
// only: the owners' API (poker/seatclient, the one client) and bots that
// play seats over the WebSocket with random legal actions.
package tablesrvtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/openegm/cabinet/poker/seatclient"
	"github.com/openegm/cabinet/poker/seatmsg"
)

// Client is the API as a seat's owner uses it; APIError an answer other
// than 200.
type (
	Client   = seatclient.Client
	APIError = seatclient.APIError
)

// Bot plays one seat over the WebSocket: mostly calls and checks, now and
// then a raise of a random legal size, a fold or an all-in; it buys the
// cards of synthetic poker most of the time.
type Bot struct {
	mu    sync.Mutex
	seat  *seatclient.Seat
	rnd   *rand.Rand
	last  seatmsg.StateMsg
	left  *seatmsg.LeftMsg
	acted int
	hold  bool // decides nothing: the hand waits for it (or for the timer)
	// choose replaces RandomAct when set (SetChooser).
	choose func(seatmsg.StateMsg) (kind string, to int64, ok bool)
	done   chan struct{}
	err    error
}

// Dial connects a bot to a seat (token) on the server at url (http://…).
func Dial(url, token string, seed uint64) (*Bot, error) {
	seat, err := seatclient.Dial(url, token)
	if err != nil {
		return nil, err
	}
	b := &Bot{seat: seat, rnd: rand.New(rand.NewPCG(seed, seed^0xb07)), done: make(chan struct{})}
	go b.run()
	return b, nil
}

func (b *Bot) run() {
	defer close(b.done)
	for {
		m, err := b.seat.Next()
		if err != nil {
			b.mu.Lock()
			b.err = err
			b.mu.Unlock()
			return
		}
		switch {
		case m.State != nil:
			b.mu.Lock()
			b.last = *m.State
			b.mu.Unlock()
			b.decide(*m.State)
		case m.Left != nil:
			b.mu.Lock()
			b.left = m.Left
			b.mu.Unlock()
		}
	}
}

func (b *Bot) decide(m seatmsg.StateMsg) {
	b.mu.Lock()
	hold, choose := b.hold, b.choose
	b.mu.Unlock()
	if hold {
		return
	}
	if choose == nil {
		choose = func(m seatmsg.StateMsg) (string, int64, bool) { return RandomAct(b.rnd, m) }
	}
	send := func(kind string, to int64) {
		b.mu.Lock()
		b.acted++
		b.mu.Unlock()
		b.Send(seatmsg.ClientMsg{Type: "act", Kind: kind, To: to})
	}
	if kind, to, ok := choose(m); ok {
		send(kind, to)
	}
}

// SetChooser makes f the bot's decisions (nil: random legal ones); f may
// call RandomAct with Rand for the decisions it leaves to chance.
func (b *Bot) SetChooser(f func(seatmsg.StateMsg) (kind string, to int64, ok bool)) {
	b.mu.Lock()
	b.choose = f
	b.mu.Unlock()
}

// Rand is the bot's random source, for a chooser (it runs on the bot's
// goroutine only).
func (b *Bot) Rand() *rand.Rand { return b.rnd }

// RandomAct is a bot's decision on a state: an answer to the offer, or a
// legal betting action (ok false: nothing to decide).
func RandomAct(rnd *rand.Rand, m seatmsg.StateMsg) (kind string, to int64, ok bool) {
	if m.Chemin != nil {
		return CheminAct(rnd, m.Chemin.Choices)
	}
	if f := m.Offer; f != nil {
		if rnd.IntN(6) == 0 {
			return f.Decline, 0, true
		}
		return f.Accept, 0, true
	}
	o := m.Options
	if o == nil {
		return "", 0, false
	}
	r := rnd.IntN(100)
	switch {
	case r < 6 && !o.Check:
		return "fold", 0, true
	case r < 9 && o.Raise:
		return "all_in", 0, true
	case r < 30 && o.Raise:
		to := o.MinTo
		if o.MaxTo > o.MinTo && rnd.IntN(2) == 0 {
			to += rnd.Int64N(o.MaxTo - o.MinTo + 1)
		}
		return "raise", to, true
	case o.Check:
		return "check", 0, true
	}
	return "call", 0, true
}

// Hold stops (true) or resumes the bot's decisions; resuming decides on
// the last state at once.
func (b *Bot) Hold(on bool) {
	b.mu.Lock()
	b.hold = on
	last := b.last
	b.mu.Unlock()
	if !on {
		b.decide(last)
	}
}

// State is the last state the bot received.
func (b *Bot) State() seatmsg.StateMsg {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last
}

// Left is the bot's cash-out message, once it came.
func (b *Bot) Left() *seatmsg.LeftMsg {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.left
}

// Send sends a request of the seat ({"type": "leave"}, …).
func (b *Bot) Send(m seatmsg.ClientMsg) error { return b.seat.Send(m) }

// Close disconnects the bot.
func (b *Bot) Close() {
	b.seat.Close()
	<-b.done
}

// Wait waits until cond holds on the bot's last state, or the deadline.
func (b *Bot) Wait(ctx context.Context, what string, cond func(seatmsg.StateMsg) bool) error {
	for {
		if cond(b.State()) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w (last state: hand %d, status %s)", what, ctx.Err(), b.State().Hand, b.State().Table.Status)
		case <-b.done:
			if cond(b.State()) {
				return nil
			}
			return fmt.Errorf("waiting for %s: the connection closed: %v", what, b.err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// CheminAct is a random legal chemin de fer decision among the viewer's
// choices (ok false: none), weighted so coups are played: a bank mostly
// stated, bets mostly placed, the bank mostly kept, a passed hand taken or
// bid for now and then (alone, associated, or joining an associated
// offer, rule 87), the cagnotte paid from outside now and then (rule 47),
// the cards declined now and then («não sei jogar», rule 101).
func CheminAct(rnd *rand.Rand, choices []seatmsg.ChoiceMsg) (kind string, to int64, ok bool) {
	if len(choices) == 0 {
		return "", 0, false
	}
	has := map[string]seatmsg.ChoiceMsg{}
	for _, c := range choices {
		has[c.Kind] = c
	}
	// amount is a legal amount of a choice: Min plus a few steps.
	amount := func(c seatmsg.ChoiceMsg, steps int64) int64 {
		if c.Max == 0 {
			return 0
		}
		step := max(c.Step, 1)
		n := (c.Max - c.Min) / step
		return c.Min + rnd.Int64N(min(n, steps)+1)*step
	}
	pick := func(k string, pct int) bool {
		_, ok := has[k]
		return ok && rnd.IntN(100) < pct
	}
	switch {
	case len(choices) == 1 && choices[0].Kind == "associate":
		if rnd.IntN(100) < 3 {
			return "associate", 0, true
		}
		return "", 0, false // an offer nobody must make: most do not
	case pick("cagnotte_outside", 25):
		return "cagnotte_outside", 0, true
	case pick("bank_associated", 50):
		return "bank_associated", has["bank_associated"].Min, true
	case pick("bank", 92):
		c := has["bank"]
		return "bank", amount(c, c.Min/2), true
	case pick("banco_suivi", 60), pick("banco", 12):
		for _, k := range []string{"banco_suivi", "banco"} {
			if _, ok := has[k]; ok {
				return k, 0, true
			}
		}
	case pick("banco_mesa", 8):
		return "banco_mesa", 0, true
	case pick("bet", 70):
		return "bet", amount(has["bet"], 5), true
	case pick("pass_cards", 40): // «não sei jogar»: the cards to the next (rule 101)
		return "pass_cards", 0, true
	case pick("draw", 50):
		return "draw", 0, true
	case pick("garage", 30), pick("reduce", 30), pick("halve", 30):
		for _, k := range []string{"garage", "reduce", "halve"} {
			if _, ok := has[k]; ok {
				return k, 0, true
			}
		}
	case pick("pass", 8):
		return "pass", 0, true
	case pick("take", 60):
		return "take", 0, true
	case pick("join_bid", 70):
		return "join_bid", has["join_bid"].Min, true
	case pick("bid_associated", 25):
		c := has["bid_associated"]
		return "bid_associated", amount(c, 3), true
	case pick("bid", 50):
		return "bid", amount(has["bid"], 3), true
	}
	for _, k := range []string{"play_cards", "stand", "continue", "no_bet", "decline", "no_bid", "take", "refuse"} {
		if _, ok := has[k]; ok {
			return k, 0, true
		}
	}
	c := choices[rnd.IntN(len(choices))]
	return c.Kind, amount(c, 3), true
}
