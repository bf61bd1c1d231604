package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/openegm/cabinet/poker/tabledef"
	"github.com/openegm/cabinet/reels"
)

// errNoPokerFigures: a poker table is not banked, so there is no return to
// the player to certify; the definition's rules are checked by check.
var errNoPokerFigures = errors.New("a poker table definition has no PAR sheet and no simulation here: the players play against each other and the house takes its commission (use check; the engines' sessions are in go test ./poker/...)")

// pokerCheck validates a poker table definition and prints its card.
func pokerCheck(name string, data []byte, requireSig bool, pubs []string, out io.Writer) error {
	d, err := tabledef.Parse(name, data)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s v%d (%s): %s\n  %s\n", d.ID, d.Version, d.Game, d.Title.EN, strings.Join(d.Card("en"), "\n  "))
	return checkSignature(name, data, requireSig, pubs, out)
}

// pokerSign signs a poker table definition that passes check.
func pokerSign(name string, data []byte, priv ed25519.PrivateKey, out io.Writer) error {
	if _, err := tabledef.Parse(name, data); err != nil {
		return fmt.Errorf("not signed: %w", err)
	}
	if err := os.WriteFile(name+".sig", reels.Sign(priv, data), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: signed with key %s\n", name, reels.KeyID(priv.Public().(ed25519.PublicKey)))
	return nil
}

// errNoCheminSim: chemin de fer's figures are exact (par); its coups are
// played by the engine's tests.
var errNoCheminSim = errors.New("a chemin de fer definition has no simulation here: par gives its exact figures, enumerated")
