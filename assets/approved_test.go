package assets

import (
	"crypto/ed25519"
	"os"
	"strings"
	"testing"

	"github.com/openegm/cabinet/reels"
)

type reelsKey struct{ priv ed25519.PrivateKey }

func (k *reelsKey) sign(b []byte) []byte { return reels.Sign(k.priv, b) }

func devSigner(t *testing.T) *reelsKey {
	t.Helper()
	kd, err := os.ReadFile("keys/dev-NOT-FOR-PRODUCTION.key")
	if err != nil {
		t.Fatal(err)
	}
	priv, err := reels.ParsePrivateKey("dev key", kd)
	if err != nil {
		t.Fatal(err)
	}
	return &reelsKey{priv}
}

const hashA = "aa00000000000000000000000000000000000000000000000000000000000001"

func TestApprovedProgramList(t *testing.T) {
	if !trustsDevKey(t) {
		t.Skip("the development key signs the test list")
	}
	k := devSigner(t)
	list := []byte(`{"programs": [{"hash": "` + hashA + `", "name": "cabinet test"}]}`)
	a, err := ParseApproved("approved.json", list, k.sign(list))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := a.Approves(hashA); !ok || p.Name != "cabinet test" || a.KeyID == "" {
		t.Fatalf("%+v %v", p, ok)
	}
	if _, ok := a.Approves(strings.Replace(hashA, "1", "2", 1)); ok {
		t.Fatal("an unlisted hash is approved")
	}
	// A changed byte after signing, or a list signed by nobody trusted.
	tampered := []byte(strings.Replace(string(list), "test", "tost", 1))
	if _, err := ParseApproved("approved.json", tampered, k.sign(list)); err == nil {
		t.Fatal("a tampered list was accepted")
	}
	for name, c := range map[string]struct{ body, want string }{
		"unknown field": {`{"programs": [{"hash": "` + hashA + `", "name": "x", "ok": true}]}`, "unknown field"},
		"short hash":    {`{"programs": [{"hash": "aa", "name": "x"}]}`, "64 lower-case hex"},
		"upper case":    {`{"programs": [{"hash": "` + strings.ToUpper(hashA) + `", "name": "x"}]}`, "64 lower-case hex"},
		"no name":       {`{"programs": [{"hash": "` + hashA + `", "name": ""}]}`, "no name"},
		"empty":         {`{"programs": []}`, "approves no program"},
	} {
		b := []byte(c.body)
		if _, err := ParseApproved("approved.json", b, k.sign(b)); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "approved.json") {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
}
