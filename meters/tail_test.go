package meters

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/book"
)

// The cabinet's start-up from the sealed snapshots reads only the log's
// tail, so the snapshot must hold everything the fold rebuilds: the
// meters, the histories (games, events, bills, handpays), the pools, the
// ticket system's state and the AFT history with its retired IDs (a
// transfer ID is money once, forever). Over random lawful histories that
// touch all of them, reopened after clean closes and power cuts with
// seals falling at every kind of point, the state start-up gives is the
// state the inspector's fold of the whole log gives, encoded alike; and
// the ledger carries on from it so that every later seal (which signs
// the digest of the live state) verifies against that whole fold.
func TestTailStartUpIsTheWholeFoldOfTheMeters(t *testing.T) {
	pub, err := ReadPublicKey(filepath.Join(testKeys.(book.FileKeys).Dir, "machine.pub"))
	if err != nil {
		// The key store's key is made by the first ledger opened.
		l, _, err := Open(t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
		if pub, err = ReadPublicKey(filepath.Join(testKeys.(book.FileKeys).Dir, "machine.pub")); err != nil {
			t.Fatal(err)
		}
	}
	tails, ids, tickets := 0, 0, 0
	for seed := range uint64(4) {
		dir := filepath.Join(t.TempDir(), "ledger")
		opts := Options{SnapshotEvery: []uint64{17, 41, 61, 150}[seed], CheckpointEvery: []uint64{5, 100, 31, 0}[seed],
			SegmentSize: []int{16 << 10, 0, 64 << 10, 4 << 10}[seed], UnsafeNoSync: true}
		for session := range uint64(6) {
			l, info, err := Open(dir, opts)
			if err != nil {
				t.Fatalf("seed %d session %d: %v", seed, session, err)
			}
			whole, v, err := Read(dir, pub)
			if err != nil || !v.OK {
				t.Fatalf("seed %d session %d: the whole fold: %v %+v", seed, session, err, v)
			}
			if got, want := stateJSON(t, l.state), stateJSON(t, whole); got != want {
				t.Fatalf("seed %d session %d (%+v): start-up differs from the whole fold:\n%s\n%s", seed, session, info, got, want)
			}
			every := opts.CheckpointEvery
			if every == 0 {
				every = 1000
			}
			// A log without a checkpoint yet (fewer records than between
			// two) has no side file to judge from its tail: it is read
			// whole, which costs little at that length.
			// After a power cut the last seal's snapshot may be missing
			// (it is written after its commit is answered): start-up then
			// folds from the seal before, one interval more.
			replay := 3*opts.SnapshotEvery + 10
			if session > 0 && session%3 == 0 {
				replay += 2 * opts.SnapshotEvery
			}
			if info.SnapshotSeq > 0 && info.LastSeq >= every {
				if info.ReadFrom <= 1 || info.Replayed > replay {
					t.Fatalf("seed %d session %d: sealed snapshot at %d, yet read from %d (%d replayed)", seed, session, info.SnapshotSeq, info.ReadFrom, info.Replayed)
				}
				tails++
			}
			p := ledgerPlayer(t, l, seed*100+session+1)
			// The player goes on where the last session left off.
			p.now, p.order, p.ticket = int64(session)<<40, l.state.BillRef, int(session)*100_000
			if session == 0 {
				p.openLocal()
			}
			p.local = true
			for i := range 100 + int(seed)*40 {
				switch p.n(12) {
				case 0:
					// An AFT transfer under a new ID: past aft.MaxHistory
					// of them, IDs leave the history for the retired set.
					c := int64(1 + p.n(2000))
					p.credit += c
					ids++
					p.apply(aftRec(l.state, fmt.Sprintf("S%d-%d-%d", seed, session, i), aft.InHouseToMachine, c))
				case 1:
					// A ticket of the casino's system, in escrow then
					// redeemed (or refused).
					d := fmt.Sprintf("%018d", 100000+seed*1_000_000+session*10_000+uint64(i))
					p.apply(TicketEscrow{At: p.now, Digits: d})
					if p.n(4) == 0 {
						p.apply(TicketRedeem{At: p.now, Digits: d, Status: 0x84, Why: "host refused"})
					} else {
						c := int64(1 + p.n(5000))
						p.credit += c
						p.apply(TicketRedeem{At: p.now, Digits: d, Cents: c})
					}
					tickets++
				default:
					p.step()
				}
			}
			if session%3 == 2 {
				// A power cut: the directory as the last commit left it.
				img := filepath.Join(t.TempDir(), "img")
				if out, err := exec.Command("cp", "-a", dir, img).CombinedOutput(); err != nil {
					t.Fatal(err, string(out))
				}
				l.Close()
				os.RemoveAll(dir)
				if err := os.Rename(img, dir); err != nil {
					t.Fatal(err)
				}
			} else if err := l.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if tails < 10 || ids < aft.MaxHistory {
		t.Fatalf("%d start-ups from the tail, %d AFT IDs, %d tickets: the test did not reach what it is about", tails, ids, tickets)
	}
}
