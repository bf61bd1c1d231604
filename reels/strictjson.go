package reels

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

const maxDepth = 16

// checkDuplicateKeys refuses an object that names a key twice. encoding/json
// silently keeps the last one, so {"rows":3,"rows":5} would certify one
// figure and show the reviewer another.
func checkDuplicateKeys(data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("empty file")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func(path string, depth int) error
	walk = func(path string, depth int) error {
		// A paytable nests four levels at most (free_games.reels[i][j]); a
		// deeper file is not a paytable, and walking it costs quadratic time.
		if depth > maxDepth {
			return fmt.Errorf("nested deeper than %d levels at %s", maxDepth, path)
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := kt.(string)
				if seen[key] {
					return fmt.Errorf("key %q appears twice in %s", key, path)
				}
				seen[key] = true
				if err := walk(path+"."+key, depth+1); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	if err := walk("(top)", 0); err != nil {
		// Syntax errors and truncation are reported by the typed decode, which
		// knows the field.
		var se *json.SyntaxError
		if errors.As(err, &se) || err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil
		}
		return err
	}
	return nil
}
