package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/meters"
)

// coldGames is how many games BenchmarkColdStart's ledger holds: small by
// default, so that -benchtime 1x stays quick; OPENEGM_BENCH_GAMES asks for
// more (100000, 1000000).
func coldGames(b *testing.B) uint64 {
	n := uint64(10_000)
	if s := os.Getenv("OPENEGM_BENCH_GAMES"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil || v == 0 {
			b.Fatalf("OPENEGM_BENCH_GAMES=%q: not a number of games", s)
		}
		n = v
	}
	return n
}

// coldData is a cabinet's data directory whose ledger holds n games (a
// bill, then n commits of a game start and its end), with its board (the
// machine key and the witness) beside it as the cabinet keeps them: built
// once without fsync and kept for later runs (a start-up adds its few
// records of power up and down, which change nothing measured).
func coldData(b *testing.B, n uint64) string {
	data := filepath.Join(os.TempDir(), fmt.Sprintf("openegm-bench-cabinet-v2-%d", n))
	board := data + ".board"
	if _, err := os.Stat(filepath.Join(data, "built")); err == nil {
		return data
	}
	os.RemoveAll(data)
	os.RemoveAll(board)
	w, err := book.OpenFileWitness(filepath.Join(board, "witness"))
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	l, _, err := meters.Open(filepath.Join(data, "ledger"), meters.Options{UnsafeNoSync: true, Keys: book.FileKeys{Dir: board}, Witness: w})
	if err != nil {
		b.Fatal(err)
	}
	if err := l.Commit(meters.MoneyIn{Source: meters.SourceBill, Cents: 50000}); err != nil {
		b.Fatal(err)
	}
	for g := uint64(1); g <= n; g++ {
		if err := l.Commit(meters.GameStart{At: int64(g), Game: g, Paytable: "lusitania-92", Digest: "9762272ab15ed0679b49b07fb016584dffe07dfaa9cb430df628dee8c4b74006",
			Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{12, 3, 44, 7, 19}, WinCents: 20}, meters.GameEnd{At: int64(g), Game: g, WinCents: 20}); err != nil {
			b.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "built"), nil, 0o600); err != nil {
		b.Fatal(err)
	}
	return data
}

// probeSource is the floor of a cold start: a Go program that does nothing
// but answer one line on its socket.
const probeSource = `package main

import (
	"bufio"
	"net"
	"os"
)

func main() {
	ln, err := net.Listen("unix", os.Args[1])
	if err != nil {
		panic(err)
	}
	c, err := ln.Accept()
	if err != nil {
		panic(err)
	}
	line, _ := bufio.NewReader(c).ReadString('\n')
	c.Write([]byte(line))
	c.Close()
}
`

// answered starts cmd and returns how long it took until its socket sock
// answered ask with a reply that ready accepts (the dial is tried every
// 100 µs: the measure's grain).
func answered(b *testing.B, cmd *exec.Cmd, sock, ask string, ready func(string) bool) time.Duration {
	os.Remove(sock)
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	deadline := t0.Add(60 * time.Second)
	for {
		conn, err := net.Dial("unix", sock)
		if err != nil {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				b.Fatalf("%s never answered: %v", cmd.Path, err)
			}
			time.Sleep(100 * time.Microsecond)
			continue
		}
		rd := bufio.NewReader(conn)
		for {
			if _, err := conn.Write([]byte(ask + "\n")); err != nil {
				b.Fatal(err)
			}
			line, err := rd.ReadString('\n')
			if err != nil {
				b.Fatalf("%s: %v", cmd.Path, err)
			}
			if ready(line) {
				d := time.Since(t0)
				conn.Close()
				return d
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
}

// BenchmarkColdStart is the cabinet's start from power-on with N games in
// its ledger (OPENEGM_BENCH_GAMES, default 10^4): the real binary started
// on its data directory until its control socket answers with the machine
// powered up (past "starting": self-tests, the ledger opened and checked
// from its sealed snapshots, the witness compared, the paytable's
// signature checked, the power-up recorded). Beside it, in the same run:
// its floor, a Go process that only answers its socket, and the ledger's
// start-up alone in this process (meters.Open on the same directory, with
// the witness). Each is the best of its runs; issue 26's goal is a cold
// start under 200 ms with 10^6 games.
func BenchmarkColdStart(b *testing.B) {
	n := coldGames(b)
	data := coldData(b, n)
	probeDir := b.TempDir()
	os.WriteFile(filepath.Join(probeDir, "go.mod"), []byte("module probe\n\ngo 1.22\n"), 0o600)
	os.WriteFile(filepath.Join(probeDir, "main.go"), []byte(probeSource), 0o600)
	build := exec.Command("go", "build", "-o", "probe", ".")
	build.Dir, build.Env = probeDir, append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the probe: %v\n%s", err, out)
	}
	logf, err := os.OpenFile(filepath.Join(data, "cabinet.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	defer logf.Close()
	cold, floor, ledger := time.Duration(1<<63-1), time.Duration(1<<63-1), time.Duration(1<<63-1)
	var info meters.OpenInfo
	for b.Loop() {
		cmd := exec.Command(filepath.Join(binDir, "cabinet"), "--data", data, "--machine-id", "EGM-TEST", "--machine-num", "7")
		cmd.Stdout, cmd.Stderr = logf, logf
		d := answered(b, cmd, filepath.Join(data, "control.sock"), `{"cmd":"state"}`, func(line string) bool {
			var r struct {
				View struct {
					Mode string `json:"mode"`
				} `json:"view"`
			}
			return json.Unmarshal([]byte(line), &r) == nil && r.View.Mode != "" && r.View.Mode != "starting"
		})
		cold = min(cold, d)
		b.StopTimer()
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()

		probe := exec.Command(filepath.Join(probeDir, "probe"), filepath.Join(probeDir, "sock"))
		floor = min(floor, answered(b, probe, filepath.Join(probeDir, "sock"), "ping", func(string) bool { return true }))
		probe.Wait()

		w, err := book.OpenFileWitness(filepath.Join(data+".board", "witness"))
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		l, oi, err := meters.Open(filepath.Join(data, "ledger"), meters.Options{Keys: book.FileKeys{Dir: data + ".board"}, Witness: w})
		ledger = min(ledger, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		if uint64(l.Meter(meters.GamesPlayed)) != n || oi.Witness.Status != book.WitnessOK || len(oi.Tampered) > 0 {
			b.Fatalf("the ledger after a cold start: %d games, %+v", l.Meter(meters.GamesPlayed), oi)
		}
		info = oi
		l.Close()
		w.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(cold.Microseconds())/1000, "coldstart-ms")
	b.ReportMetric(float64(floor.Microseconds())/1000, "floor-ms")
	b.ReportMetric(float64(ledger.Microseconds())/1000, "ledger-open-ms")
	b.Logf("%d games: cold start %v (a Go process answering its socket: %v); the ledger's start-up alone %v, reading the log from record %d of %d (%s)",
		n, cold.Round(time.Microsecond), floor.Round(time.Microsecond), ledger.Round(time.Microsecond), info.ReadFrom, info.LastSeq,
		map[bool]string{true: "the tail", false: "the whole log: " + info.WholeLog}[info.ReadFrom > 1])
}
