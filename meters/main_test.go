package meters

import (
	"os"
	"testing"

	"github.com/openegm/cabinet/book"
)

// TestMain gives the tests one key store outside their data directories,
// shared with the child processes of the crash tests (by the environment).
func TestMain(m *testing.M) {
	dir := os.Getenv("METERS_TEST_KEYS")
	created := dir == ""
	if created {
		var err error
		if dir, err = os.MkdirTemp("", "meters-test-keys-"); err != nil {
			panic(err)
		}
		os.Setenv("METERS_TEST_KEYS", dir)
	}
	testKeys = book.FileKeys{Dir: dir}
	code := m.Run()
	if created {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}
