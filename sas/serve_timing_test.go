package sas_test

import (
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// SAS timing limits.
const (
	replyLimit = 20 * time.Millisecond // first reply byte after the end of the poll
	gapLimit   = 5 * time.Millisecond  // between two bytes of a message
)

// timings collects what the host and the machine measured.
type timings struct {
	mu      sync.Mutex
	host    []time.Duration // end of the poll's write → first reply byte read (host clock)
	machine []time.Duration // poll bytes read → reply written (Serve's Trace)
	maxGap  time.Duration   // between chunks of one reply, as the host read them
	chunked int             // replies that arrived in more than one read
	lastRx  time.Time
}

func (tm *timings) trace(rx bool, b []byte, at time.Time) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if rx {
		tm.lastRx = at
	} else if !tm.lastRx.IsZero() {
		tm.machine = append(tm.machine, at.Sub(tm.lastRx))
		tm.lastRx = time.Time{}
	}
}

func (tm *timings) reply(c *host.Client) {
	x := c.LastTiming()
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.host = append(tm.host, x.Latency)
	tm.maxGap = max(tm.maxGap, x.MaxGap)
	if x.MaxGap > 0 {
		tm.chunked++
	}
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// TestReplyTiming polls a machine over a pseudo-terminal every 40 ms for
// 3 s, general polls with a meter poll (a long reply) every tenth cycle,
// while exceptions are raised as if games were played, and checks the
// reply latency (p99 within 20 ms) and the inter-byte gap within replies
// (within 5 ms). It is a measurement, so it runs only when asked
// (SAS_TIMING=1, make sastiming): on a machine busy with other tests the
// host's own scheduling dominates and a timed test would fail for it.
func TestReplyTiming(t *testing.T) {
	if os.Getenv("SAS_TIMING") == "" {
		t.Skip("a timing measurement: run with SAS_TIMING=1 (make sastiming)")
	}
	for _, md := range modes {
		t.Run(md.name, func(t *testing.T) {
			tm := &timings{}
			r := startPTY(t, md.mode, host.Options{}, sas.ServeOptions{Trace: tm.trace})
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { // "games"
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					case <-time.After(25 * time.Millisecond):
					}
					r.m.push([]sas.Exception{sas.ExcGameStarted, sas.ExcGameEnded}[i%2])
				}
			}()
			codes := sas.KnownMeterCodes()[:10]
			end := time.Now().Add(3 * time.Second)
			tk := time.NewTicker(40 * time.Millisecond)
			defer tk.Stop()
			for i := 0; time.Now().Before(end); i++ {
				<-tk.C
				if _, err := r.c.GeneralPoll(); err != nil {
					t.Fatalf("general poll %d: %v", i, err)
				}
				tm.reply(r.c)
				if i%10 == 0 {
					if _, err := r.c.SelectedMeters(0, codes, true); err != nil {
						t.Fatalf("meters: %v", err)
					}
					tm.reply(r.c)
				}
			}
			close(stop)
			wg.Wait()
			tm.mu.Lock()
			defer tm.mu.Unlock()
			p50, p99, worst := pct(tm.host, 0.5), pct(tm.host, 0.99), pct(tm.host, 1)
			t.Logf("%d replies over a pty (%s): latency p50 %v p99 %v max %v; machine poll→reply p50 %v p99 %v; largest gap within a reply %v (%d replies read in more than one chunk)",
				len(tm.host), md.name, p50, p99, worst, pct(tm.machine, 0.5), pct(tm.machine, 0.99), tm.maxGap, tm.chunked)
			if p99 > replyLimit {
				t.Errorf("reply latency p99 %v exceeds %v", p99, replyLimit)
			}
			if tm.maxGap > gapLimit {
				t.Errorf("inter-byte gap %v exceeds %v", tm.maxGap, gapLimit)
			}
		})
	}
}

// BenchmarkGeneralPollPTY: general polls back to back over a
// pseudo-terminal (content framing), with the latency percentiles.
func BenchmarkGeneralPollPTY(b *testing.B) {
	tm := &timings{}
	r := startPTY(b, sas.ModeContent, host.Options{}, sas.ServeOptions{Trace: tm.trace})
	b.ResetTimer()
	for range b.N {
		if _, err := r.c.GeneralPoll(); err != nil {
			b.Fatal(err)
		}
		tm.reply(r.c)
	}
	b.StopTimer()
	b.ReportMetric(float64(pct(tm.host, 0.5).Microseconds()), "p50-µs")
	b.ReportMetric(float64(pct(tm.host, 0.99).Microseconds()), "p99-µs")
	b.ReportMetric(float64(tm.maxGap.Microseconds()), "maxgap-µs")
}
