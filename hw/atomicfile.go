package hw

import (
	"path/filepath"

	"github.com/openegm/cabinet/internal/atomicfile"
)

// writeFileAtomic replaces dir/name with data so that after a power loss the
// file holds either the old or the new content.
func writeFileAtomic(dir, name string, data []byte) error {
	return atomicfile.Write(filepath.Join(dir, name), data, 0o600)
}

const tmpInfix = atomicfile.TempInfix

// removeStaleTemps removes temporary files left by a write cut by a power loss.
func removeStaleTemps(dir, name string) error {
	return atomicfile.RemoveStale(filepath.Join(dir, name))
}
