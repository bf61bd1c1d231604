package ticketsys

import "sync"

// maxWritten bounds the guesses kept: one per redemption authorised and
// not yet finished by this store, so about one per cabinet. Past it, a
// finish reads first, as it would with no guess.
const maxWritten = 1 << 16

// written is what this store wrote for an authorised redemption: the
// ticket and the redemption, both at revision rev.
type written struct {
	ticket *Ticket
	red    *Redemption
	rev    int64
}

type writtenCache struct {
	mu sync.Mutex
	m  map[string]*written
}

func (c *writtenCache) note(rkey string, t *Ticket, r *Redemption, rev int64) {
	red := *r
	w := &written{ticket: t.clone(), red: &red, rev: rev}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]*written)
	}
	if len(c.m) >= maxWritten {
		for k := range c.m { // any one: a dropped guess only costs a read
			delete(c.m, k)
			break
		}
	}
	c.m[rkey] = w
}

// take returns and forgets the guess for rkey, nil if there is none.
func (c *writtenCache) take(rkey string) *written {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.m[rkey]
	delete(c.m, rkey)
	return w
}
