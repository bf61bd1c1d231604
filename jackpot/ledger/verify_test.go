package ledger

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// treeDigest hashes every name, mode, time and byte under dir.
func treeDigest(t *testing.T, dir string) [32]byte {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		h.Write([]byte(rel + "|" + fi.Mode().String() + "|" + fi.ModTime().String() + "\n"))
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			h.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

func TestVerifyReadOnly(t *testing.T) {
	dir := t.TempDir()
	l, _ := mustOpen(t, dir, Options{CheckpointEvery: 9, SnapshotEvery: 13})
	g := newPropGen(t, 3, 5)
	for range 300 {
		g.step()
	}
	for _, r := range g.recs {
		mustCommit(t, l, r)
	}
	want := stateJSON(t, l.State())
	pub := l.PublicKey()
	l.Close()

	before := treeDigest(t, dir)
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o500) // and it would fail if it tried to create anything
	v, err := Verify(dir, pub)
	os.Chmod(dir, fi.Mode().Perm())
	if err != nil || !v.OK || v.KeyID != KeyID(pub) || v.Checkpoints == 0 || v.Folded != uint64(len(g.recs)) {
		t.Fatalf("verify: %v %+v", err, v)
	}
	if stateJSON(t, v.State) != want {
		t.Fatal("verify folded a different state")
	}
	if treeDigest(t, dir) != before {
		t.Fatal("verify changed its input")
	}

	// Another key: the checkpoints do not verify.
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, 32)).Public().(ed25519.PublicKey)
	if v, err := Verify(dir, other); err != nil || v.OK || !strings.Contains(strings.Join(v.Problems, "\n"), "signature") {
		t.Fatalf("wrong key: %v %+v", err, v)
	}

	// A torn tail is reported, not repaired.
	seg := lastSegment(t, dir)
	fi, _ = os.Stat(seg)
	os.Truncate(seg, fi.Size()-3)
	before = treeDigest(t, dir)
	v, err = Verify(dir, pub)
	if err != nil || v.OK || !strings.Contains(strings.Join(v.Problems, "\n"), "torn last record") {
		t.Fatalf("torn: %v %+v", err, v)
	}
	if treeDigest(t, dir) != before {
		t.Fatal("verify repaired its input")
	}
	if _, err := Verify(t.TempDir(), pub); err == nil {
		t.Fatal("verified a directory without a ledger")
	}
}

func TestReportSignAndVerify(t *testing.T) {
	dir := t.TempDir()
	l, _ := mustOpen(t, dir, Options{})
	g := newPropGen(t, 11, 5)
	for range 500 {
		g.step()
	}
	for _, r := range g.recs {
		mustCommit(t, l, r)
	}
	rep, err := l.Report()
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	v, err := Verify(dir, testPub(t))
	if err != nil || !v.OK {
		t.Fatalf("verify: %v %+v", err, v)
	}
	rep.Verdict = v
	if !rep.Holds || len(rep.Levels) != 3 || len(rep.Shared) != 1 {
		t.Fatalf("report: %+v", rep)
	}
	var liab, contrib int64
	for _, lr := range rep.Levels {
		liab += lr.Liability
		contrib += lr.Contributions
		if lr.Liability != lr.Current+lr.Reserve+lr.Overflow || !lr.Holds {
			t.Fatalf("level %+v", lr)
		}
	}
	if rep.Total.Liability != liab || rep.Total.Contributions != contrib || rep.Total.Sources != rep.Total.Uses {
		t.Fatalf("total %+v", rep.Total)
	}

	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{4}, 32))
	pub := key.Public().(ed25519.PublicKey)
	doc, sig, err := SignReport(rep, key)
	if err != nil {
		t.Fatal(err)
	}
	got, err := VerifyReport(doc, sig, pub)
	if err != nil || got.Total != rep.Total || got.Verdict == nil || !got.Verdict.OK {
		t.Fatalf("verify report: %v", err)
	}
	// Tampered, re-formatted, wrong key, inconsistent: refused.
	tampered := bytes.Replace(doc, []byte(`"hits": `), []byte(`"hits": 1`), 1)
	if _, err := VerifyReport(tampered, sig, pub); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("tampered: %v", err)
	}
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, 32))
	if _, err := VerifyReport(doc, sig, other.Public().(ed25519.PublicKey)); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("wrong key: %v", err)
	}
	spaced := bytes.Replace(doc, []byte("\n  "), []byte("\n   "), 1)
	if _, err := VerifyReport(spaced, ed25519Sig(other, spaced), other.Public().(ed25519.PublicKey)); err == nil {
		t.Fatal("a non-canonical document verified")
	}
	bad := *rep
	bad.Total.Hits++
	if _, _, err := SignReport(&bad, key); err == nil {
		t.Fatal("signed an inconsistent report")
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"VERIFIED", "TOTAL", "grand", "identity", "holds", "SHARED LEVELS", "SUPERJACKPOT CLAIMS"} {
		if !strings.Contains(text.String(), want) {
			t.Fatalf("text report lacks %q:\n%s", want, text.String())
		}
	}
}

func ed25519Sig(key ed25519.PrivateKey, doc []byte) []byte {
	return []byte(base64.StdEncoding.EncodeToString(ed25519.Sign(key, doc)))
}
