package assets

import (
	"embed"

	"github.com/openegm/cabinet/baccarat"
)

// The approved table-game definitions (docs/makccarat.md), each signed like
// a paytable by a certification key this program trusts.
//
//go:embed tables/*.json tables/*.json.sig
var tableFiles embed.FS

var tables = signedDir{tableFiles, "tables", "table definition"}

// Tables lists the IDs of the embedded table definitions.
func Tables() []string { return tables.ids() }

// Table returns the bytes of an embedded table definition and its signature.
func Table(id string) (data, sig []byte, err error) { return tables.read(id) }

// LoadTable loads an embedded table definition the way the cabinet must:
// signed by a built-in key, valid, every bet's return recomputed and at
// least 80%.
func LoadTable(id string) (*baccarat.Certified, error) {
	data, sig, err := Table(id)
	if err != nil {
		return nil, err
	}
	return baccarat.LoadCertified("assets/tables/"+id+".json", data, sig, TrustedKeys())
}
