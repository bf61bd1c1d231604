package ledger

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"testing"

	"github.com/openegm/cabinet/book"
)

// TestMain gives the tests one key store outside their data directories,
// shared with the child processes of the crash tests (by the environment).
func TestMain(m *testing.M) {
	dir := os.Getenv("LINK_LEDGER_TEST_KEYS")
	created := dir == ""
	if created {
		var err error
		if dir, err = os.MkdirTemp("", "link-ledger-test-keys-"); err != nil {
			panic(err)
		}
		os.Setenv("LINK_LEDGER_TEST_KEYS", dir)
	}
	testKeys = book.FileKeys{Dir: dir}
	code := m.Run()
	if created {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// testPub is the controller key of testKeys, as registered.
func testPub(t testing.TB) ed25519.PublicKey {
	t.Helper()
	pub, err := ReadPublicKey(filepath.Join(testKeys.(book.FileKeys).Dir, KeyName+".pub"))
	if err != nil {
		t.Fatal(err)
	}
	return pub
}
