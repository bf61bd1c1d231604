package ticketsys

import (
	"context"
	"fmt"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/openegm/cabinet/internal/etcdretry"
)

// maxGuesses bounds the guesses kept, about one per live ticket and one
// per redemption waiting for its commit. Past it any guess is dropped: a
// missing guess costs one round trip, never a wrong answer.
const maxGuesses = 1 << 16

// guess is what this store last saw of a key in etcd (written or read),
// at mod revision rev. It is only ever a guess: every write is conditional
// on rev, and a decision that writes nothing is checked by comparing it.
type guess struct {
	ticket *Ticket
	red    *Redemption
	rev    int64
}

type guessCache struct {
	mu sync.Mutex
	m  map[string]guess
}

// ticket returns a copy of the guess for key (nil, 0: none, which is the
// guess that the key is absent).
func (c *guessCache) ticket(key string) (*Ticket, int64) {
	c.mu.Lock()
	g, ok := c.m[key]
	c.mu.Unlock()
	if !ok || g.ticket == nil {
		return nil, 0
	}
	return g.ticket.clone(), g.rev
}

func (c *guessCache) redemption(key string) (*Redemption, int64) {
	c.mu.Lock()
	g, ok := c.m[key]
	c.mu.Unlock()
	if !ok || g.red == nil {
		return nil, 0
	}
	r := *g.red
	return &r, g.rev
}

// noteTicket keeps t at rev as key's guess. A ticket at its end (redeemed
// or voided) is forgotten: only a copy would present it again, and that
// may cost a round trip.
func (c *guessCache) noteTicket(key string, t *Ticket, rev int64) {
	if t == nil || t.State == Redeemed || t.State == Voided {
		c.forget(key)
		return
	}
	c.put(key, guess{ticket: t.clone(), rev: rev})
}

// noteRedemption keeps an authorised redemption, the one whose commit or
// release comes next; an answer at its end is forgotten.
func (c *guessCache) noteRedemption(key string, r *Redemption, rev int64) {
	if r == nil || r.Phase != Authorised {
		c.forget(key)
		return
	}
	red := *r
	c.put(key, guess{red: &red, rev: rev})
}

func (c *guessCache) put(key string, g guess) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]guess)
	}
	old, ok := c.m[key]
	if ok && old.rev > g.rev {
		// What etcd's watch delivers late (Follow) never replaces
		// what this store saw after it.
		return
	}
	if !ok && len(c.m) >= maxGuesses {
		for k := range c.m { // any one: a dropped guess only costs a read
			delete(c.m, k)
			break
		}
	}
	c.m[key] = g
}

func (c *guessCache) forget(key string) {
	c.mu.Lock()
	delete(c.m, key)
	c.mu.Unlock()
}

// has reports whether key has a guess (tests).
func (c *guessCache) has(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.m[key]
	return ok
}

// Follow keeps the store's guesses of the tickets up to date from etcd's
// watch of them until ctx ends, so that a ticket another ticket system
// issued or changed costs this one no extra round trip. It decides
// nothing: an event missed or late (the watch cut, history compacted)
// only leaves a guess that a comparison refuses, at the price of that
// round trip. It returns ctx's cause, or the error that ends the watch.
func (s *Store) Follow(ctx context.Context) error {
	dir := s.prefix + "t/"
	for {
		wc := s.cli.Watch(clientv3.WithRequireLeader(ctx), dir, clientv3.WithPrefix())
		for resp := range wc {
			if resp.Err() != nil {
				break // compacted, or no leader: watch again from now
			}
			for _, ev := range resp.Events {
				key := string(ev.Kv.Key)
				if ev.Type == clientv3.EventTypeDelete {
					s.guesses.forget(key)
					continue
				}
				t := new(Ticket)
				if decode(key, ev.Kv.Value, t) != nil {
					s.guesses.forget(key) // the next step reads it, and says so
					continue
				}
				t.Revision = ev.Kv.ModRevision
				s.guesses.noteTicket(key, t, ev.Kv.ModRevision)
			}
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if err := s.cli.Ctx().Err(); err != nil {
			return fmt.Errorf("ticketsys: follow %s: %w", dir, err)
		}
		var p etcdretry.Pause
		if err := p.Wait(ctx); err != nil {
			return err
		}
	}
}
