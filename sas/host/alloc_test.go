package host

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
)

// idlePort is a machine with nothing to report: every poll is answered
// 00 at once.
type idlePort struct{ fakePort }

func (p *idlePort) Read(b []byte) (int, error)  { b[0] = byte(sas.ExcNone); return 1, nil }
func (p *idlePort) Write(b []byte) (int, error) { return len(b), nil }

// generalPollAllocs is what one general poll of an idle machine allocates.
func generalPollAllocs(tb testing.TB) float64 {
	c := New(&idlePort{}, Options{Addr: 1, Timeout: time.Second})
	if _, err := c.GeneralPoll(); err != nil { // the first poll's sync byte
		tb.Fatal(err)
	}
	return testing.AllocsPerRun(100, func() {
		if g, err := c.GeneralPoll(); err != nil || g.Exception != sas.ExcNone {
			tb.Fatalf("%+v %v", g, err)
		}
	})
}

// A general poll of an idle machine, the poll a host sends most (the
// casino floor's link controller and ticket system, issue 26, send 30,000
// a second between them), allocates only its reply (it was 4 allocations,
// and a fifth for what a TCP port writes).
func TestGeneralPollAllocs(t *testing.T) {
	n := generalPollAllocs(t)
	t.Logf("%v allocations a general poll", n)
	if n > 1 {
		t.Errorf("a general poll allocated %v times", n)
	}
}
