// Package assets embeds what the cabinet carries inside its program: the
// certified paytables with their signatures and the certification public
// keys it trusts. Nothing here is read from the disk at run time, so the
// program hash covers it.
package assets

import (
	"crypto/ed25519"
	"embed"

	"github.com/openegm/cabinet/reels"
)

//go:embed paytables/*.json paytables/*.json.sig
var paytableFiles embed.FS

var paytables = signedDir{paytableFiles, "paytables", "paytable"}

// LocalJackpot is the default configuration of the cabinet's own jackpot
// (regulation rule 3): a paytable level won by the top combination at the
// top bet, and a mystery level. The operator may give another file.
//
//go:embed jackpot/local.json
var LocalJackpot []byte

// DefaultGame is the paytable the simulator and `make run` start with.
const DefaultGame = "lusitania-92"

// Paytables lists the IDs of the embedded paytables.
func Paytables() []string { return paytables.ids() }

// Paytable returns the bytes of an embedded paytable and its signature.
func Paytable(id string) (data, sig []byte, err error) { return paytables.read(id) }

// LoadPaytable loads an embedded paytable the way the cabinet must: signed
// by a built-in key, valid, RTP recomputed and inside the rule.
func LoadPaytable(id string) (*reels.Certified, error) {
	data, sig, err := Paytable(id)
	if err != nil {
		return nil, err
	}
	return reels.LoadCertified("assets/paytables/"+id+".json", data, sig, TrustedKeys())
}

// TrustedKeys are the certification public keys built into this program.
func TrustedKeys() []ed25519.PublicKey {
	var keys []ed25519.PublicKey
	for _, k := range trustedKeyFiles() {
		pub, err := reels.ParsePublicKey(k.name, k.data)
		if err != nil {
			// A damaged built-in key is a build defect; trusting nothing fails closed.
			return nil
		}
		keys = append(keys, pub)
	}
	return keys
}

type keyFile struct {
	name string
	data []byte
}
