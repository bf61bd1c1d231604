package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/machine"
)

// The service roles' PIN hashes (argon2id) live in DATA/pins.json, not in
// the ledger: the ledger is handed to inspectors, and a hash of a 6-digit
// PIN is a brute-force away from the PIN. The ledger records that a PIN
// changed, who changed it and when.
const pinFile = "pins.json"

func loadPINHashes(data string) (map[string]string, error) {
	b, err := os.ReadFile(filepath.Join(data, pinFile))
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	pins := map[string]string{}
	name := filepath.Join(data, pinFile)
	if err := json.Unmarshal(b, &pins); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, role := range slices.Sorted(maps.Keys(pins)) {
		if _, err := machine.ParsePINHash(pins[role]); err != nil {
			return nil, fmt.Errorf("%s: PIN of role %q: %w", name, role, err)
		}
	}
	return pins, nil
}

// storePIN replaces one role's hash durably.
func storePIN(data, role, hash string) error {
	pins, err := loadPINHashes(data)
	if err != nil {
		return err
	}
	pins[role] = hash
	b, err := json.MarshalIndent(pins, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(data, pinFile), b, 0o600)
}
