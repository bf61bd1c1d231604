package walog

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// testKey is deterministic so that helper processes sign with the same key
// as the test that starts them.
func testKey(seed byte) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
}

func pubOf(k crypto.Signer) ed25519.PublicKey { return k.Public().(ed25519.PublicKey) }

// typeFor and payloadFor make every record's content a function of its seq,
// so a test can check any record it finds without having kept it. Sizes vary
// from empty to several pages; the big ones can be cut by a kill mid-write.
func typeFor(seq uint64) uint16 { return uint16(seq % 7) }

func payloadFor(seq uint64) []byte {
	n := int(seq*7919) % 300
	if seq%17 == 0 {
		n = 5000 + int(seq%4096)
	}
	p := make([]byte, n)
	x := uint32(seq)*2654435761 + 1
	for i := range p {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		p[i] = byte(x)
	}
	return p
}

// fill appends records seq-derived records until the log holds n user
// records after its current end, and returns what Append returned.
func fill(t testing.TB, l *Log, n int) []Record {
	t.Helper()
	var out []Record
	for range n {
		seq := l.LastSeq() + 1
		rec, err := l.Append(typeFor(seq), payloadFor(seq))
		if err != nil {
			t.Fatalf("append seq %d: %v", seq, err)
		}
		if rec.Seq != seq {
			t.Fatalf("append returned seq %d, want %d", rec.Seq, seq)
		}
		out = append(out, rec)
	}
	return out
}

func mustOpen(t testing.TB, dir string, opts Options) (*Log, OpenInfo) {
	t.Helper()
	l, info, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	return l, info
}

func mustClose(t testing.TB, l *Log) {
	t.Helper()
	if err := l.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
}

// powerCut closes a Log the way a power loss would: no checkpoint, no
// orderly close, only the file handles released so the test can go on.
func powerCut(l *Log) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.waitIdle() // a side file's write under way ends (see writeSideAfter)
	l.closed = true
	l.w.Close()
	l.side.close()
	l.lock.Close()
}

// checkLog scans the whole log and checks that every user record holds the
// seq-derived content, every checkpoint covers the record before it, seqs
// are consecutive and the chain ends at LastHash. It returns the number of
// checkpoint records.
func checkLog(t testing.TB, l *Log) int {
	t.Helper()
	want := uint64(1)
	prev := genesis
	ckpts := 0
	err := l.Scan(1, func(r Record) error {
		if r.Seq != want {
			return fmt.Errorf("scan gave seq %d, want %d", r.Seq, want)
		}
		want++
		if r.Type == TypeCheckpoint {
			c, err := parseCheckpointData(r.Data)
			if err != nil {
				return fmt.Errorf("seq %d: %v", r.Seq, err)
			}
			if c.seq != r.Seq-1 || c.hash != prev {
				return fmt.Errorf("checkpoint seq %d covers seq %d", r.Seq, c.seq)
			}
			ckpts++
		} else if r.Type == TypeMark {
			if !checkMark(r.Data, r.Seq-1, prev, nil) {
				return fmt.Errorf("mark seq %d is not a signature's size", r.Seq)
			}
		} else if r.Type != typeFor(r.Seq) || !bytes.Equal(r.Data, payloadFor(r.Seq)) {
			return fmt.Errorf("seq %d holds type %d and %d bytes, not its own content", r.Seq, r.Type, len(r.Data))
		}
		prev = r.Hash
		return nil
	})
	if err != nil {
		t.Fatalf("scan: %v", err)
	}
	if got := want - 1; got != l.LastSeq() {
		t.Fatalf("scan saw %d records, LastSeq is %d", got, l.LastSeq())
	}
	if prev != l.LastHash() {
		t.Fatalf("scan ended at hash %x, LastHash is %x", prev[:4], l.LastHash())
	}
	return ckpts
}

func segmentPaths(t testing.TB, dir string) []string {
	t.Helper()
	segs, _, err := listSegments(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range segs {
		out = append(out, filepath.Join(dir, s.name))
	}
	return out
}

// span is one tidwall/wal entry in a segment: prefix and frame.
type span struct{ off, end int }

func entriesOf(t testing.TB, path string) []span {
	t.Helper()
	buf, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []span
	for pos := 0; pos < len(buf); {
		v, n := binary.Uvarint(buf[pos:])
		if n <= 0 || uint64(len(buf)-pos-n) < v {
			t.Fatalf("%s: entry at %d does not parse", path, pos)
		}
		out = append(out, span{pos, pos + n + int(v)})
		pos += n + int(v)
	}
	return out
}

func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	if err := os.RemoveAll(dst); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	// CopyFS copies the lock file too; it is harmless, but a test of Open
	// should see what a cabinet would.
	os.Remove(filepath.Join(dst, lockFile))
}

func truncate(t testing.TB, path string, size int64) {
	t.Helper()
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

func flipBit(t testing.TB, path string, off int, bit uint) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b [1]byte
	if _, err := f.ReadAt(b[:], int64(off)); err != nil {
		t.Fatal(err)
	}
	b[0] ^= 1 << bit
	if _, err := f.WriteAt(b[:], int64(off)); err != nil {
		t.Fatal(err)
	}
}

// openFault opens dir and requires a *Fault whose message contains want.
func openFault(t testing.TB, dir string, opts Options, want string) *Fault {
	t.Helper()
	l, _, err := Open(dir, opts)
	if err == nil {
		l.Close()
		t.Fatalf("open succeeded, want a fault containing %q", want)
	}
	var f *Fault
	if !errors.As(err, &f) {
		t.Fatalf("open: %v (%T), want a *Fault", err, err)
	}
	if !strings.Contains(f.Error(), want) {
		t.Fatalf("fault %q does not contain %q", f.Error(), want)
	}
	if !strings.HasPrefix(f.Error(), "meter fault: ") {
		t.Fatalf("fault %q does not say it is a meter fault", f.Error())
	}
	return f
}

// dirState is every file's content hash, size and mtime, to prove Verify
// changes nothing.
func dirState(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v %d %s", p, fi.Mode(), fi.Size(), fi.ModTime().Format(time.RFC3339Nano))
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
