package assets

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// signedDir is an embedded directory of certified files, each ID.json with
// its detached signature ID.json.sig (paytables, table definitions).
type signedDir struct {
	fsys embed.FS
	dir  string
	kind string // for messages
}

// ids lists the IDs of the files, sorted.
func (s signedDir) ids() []string {
	entries, _ := fs.Glob(s.fsys, s.dir+"/*.json")
	var ids []string
	for _, e := range entries {
		ids = append(ids, strings.TrimSuffix(path.Base(e), ".json"))
	}
	sort.Strings(ids)
	return ids
}

// read returns a file's bytes and its signature (nil when it has none,
// which the loaders refuse by name).
func (s signedDir) read(id string) (data, sig []byte, err error) {
	name := s.dir + "/" + id + ".json"
	if data, err = s.fsys.ReadFile(name); err != nil {
		return nil, nil, fmt.Errorf("no embedded %s %q", s.kind, id)
	}
	sig, _ = s.fsys.ReadFile(name + ".sig")
	return data, sig, nil
}
