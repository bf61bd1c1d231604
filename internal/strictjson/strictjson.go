// Package strictjson holds what the certified file loaders (paytables, table
// definitions) add to encoding/json so that a file means one thing only: a
// key given twice is an error, and decode errors name the field.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DuplicateKeys refuses an object that names a key twice. encoding/json
// silently keeps the last one, so {"rows":3,"rows":5} would certify one
// figure and show the reviewer another. Files nested deeper than maxDepth are
// refused too: no certified file nests that deep, and walking one costs
// quadratic time. Syntax errors and truncation are left to the typed decode,
// which knows the field.
func DuplicateKeys(data []byte, maxDepth int) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("empty file")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func(path string, depth int) error
	walk = func(path string, depth int) error {
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
		var se *json.SyntaxError
		if errors.As(err, &se) || err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil
		}
		return err
	}
	return nil
}

// Problem turns encoding/json's messages into ones that name the field.
func Problem(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return fmt.Sprintf("field %q: a JSON %s cannot be a %s (at byte %d)", te.Field, te.Value, te.Type, te.Offset)
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "malformed JSON: the file ends in the middle of a value (truncated?)"
	}
	return err.Error()
}
