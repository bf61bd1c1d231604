package main

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/sas"
)

// BenchmarkSASRepliesUnderLoad polls the real cabinet over its SAS
// pseudo-terminal, back to back (a general poll, and a meter poll, the
// longest reply, every tenth), while a player plays as fast as the
// control socket lets: every game's start and end committed with fsync,
// the exceptions they raise queued for the host. It reports the host's
// latency from the poll's last byte to the reply's first against SAS's
// limit of 20 ms, the worst of b.N polls, and how many exceeded the limit;
// with each reply over 5 ms it prints what the player's side was doing
// then (a commit in flight, or nothing). `-benchtime 100000x` is the
// issue's 10^5 polls; make test runs it once.
func BenchmarkSASRepliesUnderLoad(b *testing.B) {
	data := b.TempDir()
	c := startCabinet(b, data, "--sas-addr", "1", "--sas-pty", "--spin-time", "1ms", "--handpay-limit", "100000000")
	h := sasHost(b, data)
	c.Bill(50000)
	var games, inFlight atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the player: never waits for the screen
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			inFlight.Store(1)
			r, err := c.TrySend(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
			inFlight.Store(0)
			if err != nil {
				return
			}
			if r.Refused == "" && r.OK {
				games.Add(1)
			} else if r.View != nil && r.View.CreditsCents < r.View.BetCents {
				inFlight.Store(1)
				_, _ = c.TrySend(cabinettest.Command{Cmd: "bill", Cents: 50000})
				inFlight.Store(0)
			}
		}
	}()
	codes := sas.KnownMeterCodes()[:10]
	lat := make([]time.Duration, 0, b.N)
	var slow []string
	i := 0
	for b.Loop() {
		busy := inFlight.Load()
		var err error
		if i%10 == 9 {
			_, err = h.SelectedMeters(0, codes, true)
		} else {
			_, err = h.GeneralPoll()
		}
		if err != nil {
			b.Fatalf("poll %d: %v", i, err)
		}
		l := h.LastTiming().Latency
		lat = append(lat, l)
		if l > 5*time.Millisecond && len(slow) < 20 {
			what := "the player idle"
			if busy == 1 || inFlight.Load() == 1 {
				what = "a player's command (a commit) in flight"
			}
			slow = append(slow, fmt.Sprintf("poll %d: %v, %s", i, l, what))
		}
		i++
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	slices.Sort(lat)
	n := 0
	for _, d := range lat {
		if d > 20*time.Millisecond {
			n++
		}
	}
	for _, s := range slow {
		b.Log(s)
	}
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "worst-ms")
	b.ReportMetric(20, "limit-ms")
	b.ReportMetric(float64(n), "over-limit")
	b.ReportMetric(float64(games.Load()), "games")
	b.ReportMetric(0, "ns/op")
}
