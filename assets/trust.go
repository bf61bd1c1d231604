package assets

import (
	"embed"
	"io/fs"
)

// Production certification keys are added here by the certification lab's
// release process, one .pub file each. The directory holds a README so the
// embed pattern always matches.
//
//go:embed keys/production
var productionKeys embed.FS

func productionKeyFiles() []keyFile {
	var out []keyFile
	names, _ := fs.Glob(productionKeys, "keys/production/*.pub")
	for _, n := range names {
		data, _ := productionKeys.ReadFile(n)
		out = append(out, keyFile{n, data})
	}
	return out
}
