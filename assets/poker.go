package assets

import (
	"embed"

	"github.com/openegm/cabinet/poker/tabledef"
)

// The approved poker table definitions the table server runs
// (cmd/tablesrv), each signed like a paytable by a certification key this
// program trusts.
//
//go:embed poker/*.json poker/*.json.sig
var pokerFiles embed.FS

var pokerTables = signedDir{pokerFiles, "poker", "poker table definition"}

// PokerTables lists the IDs of the embedded poker table definitions.
func PokerTables() []string { return pokerTables.ids() }

// PokerTable returns the bytes of an embedded poker table definition and
// its signature.
func PokerTable(id string) (data, sig []byte, err error) { return pokerTables.read(id) }

// LoadPokerTable loads an embedded poker table definition the way the
// table server must: signed by a built-in key, then parsed strictly.
func LoadPokerTable(id string) (*tabledef.Certified, error) {
	data, sig, err := PokerTable(id)
	if err != nil {
		return nil, err
	}
	return tabledef.LoadCertified("assets/poker/"+id+".json", data, sig, TrustedKeys())
}
