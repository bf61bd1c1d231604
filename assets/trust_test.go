package assets

import (
	"crypto/ed25519"
	"os"
	"slices"
	"testing"

	"github.com/openegm/cabinet/reels"
)

// trustsDevKey says whether this build trusts the development key (read
// from the repository, not from what the build embeds).
func trustsDevKey(t *testing.T) bool {
	t.Helper()
	data, err := os.ReadFile("keys/dev-NOT-FOR-PRODUCTION.pub")
	if err != nil {
		t.Fatal(err)
	}
	dev, err := reels.ParsePublicKey("dev key", data)
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(TrustedKeys(), func(k ed25519.PublicKey) bool { return k.Equal(dev) })
}
