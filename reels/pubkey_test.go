package reels

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"testing"
)

// One key encoding across the tools: a public key is one line of base64,
// and a cabinet's machine.pub written in hex before is read as well.
func TestParsePublicKeyEncodings(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(nil)
	for name, data := range map[string]string{
		"base64": base64.StdEncoding.EncodeToString(pub) + "\n",
		"hex":    hex.EncodeToString(pub) + "\n",
	} {
		got, err := ParsePublicKey(name, []byte(data))
		if err != nil || !got.Equal(pub) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, bad := range []string{"", "zz", hex.EncodeToString(pub[:31]), base64.StdEncoding.EncodeToString(pub[:31])} {
		if _, err := ParsePublicKey("bad", []byte(bad)); err == nil {
			t.Errorf("%q was taken for a key", bad)
		}
	}
}
