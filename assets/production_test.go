//go:build production

package assets

import (
	"strings"
	"testing"
)

// A production build does not trust the development key, so the paytables
// signed with it in this repository are refused (fail closed until a lab key
// and lab-signed tables are built in).
func TestProductionRefusesDevelopmentSignatures(t *testing.T) {
	if trustsDevKey(t) {
		t.Fatal("production build trusts the development key")
	}
	for _, id := range Paytables() {
		_, err := LoadPaytable(id)
		if err == nil || !strings.Contains(err.Error(), "(signature)") {
			t.Fatalf("%s: %v", id, err)
		}
	}
}

// A production build refuses to play without its hash in a signed list.
func TestProductionRequiresAnApprovedProgram(t *testing.T) {
	if !RequireApprovedProgram {
		t.Fatal("production build plays an unapproved program")
	}
}
