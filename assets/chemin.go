package assets

import (
	"embed"

	"github.com/openegm/cabinet/poker/tabledef"
)

// The approved chemin de fer table definitions, each signed like a
// paytable by a certification key this program trusts. They sit apart
// from the poker tables (poker/), which the table server opens all of by
// default: a chemin de fer table runs when it is named
// (tablesrv run --table chemin-6d).
//
//go:embed chemin/*.json chemin/*.json.sig
var cheminFiles embed.FS

var cheminTables = signedDir{cheminFiles, "chemin", "chemin de fer table definition"}

// CheminTables lists the IDs of the embedded chemin de fer definitions.
func CheminTables() []string { return cheminTables.ids() }

// CheminTable returns the bytes of an embedded chemin de fer definition and
// its signature.
func CheminTable(id string) (data, sig []byte, err error) { return cheminTables.read(id) }

// LoadCheminTable loads an embedded chemin de fer definition as the table
// server will: signed by a built-in key, then parsed strictly.
func LoadCheminTable(id string) (*tabledef.Certified, error) {
	data, sig, err := CheminTable(id)
	if err != nil {
		return nil, err
	}
	return tabledef.LoadCertified("assets/chemin/"+id+".json", data, sig, TrustedKeys())
}
