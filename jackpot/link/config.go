// Package link is the link controller's service (cmd/linkctl): it speaks
// SAS as the progressive host to the cabinets of one casino, feeds its
// levels from their coin-in meters, broadcasts the values, and awards hits
// exactly once, all through the controller's ledger (jackpot/ledger).
//
// The protocol with a cabinet, per channel (serial line, pseudo-terminal or
// TCP; several cabinets on one line by address):
//
//   - every BroadcastEvery, a global 0x86 with every level's value (cents);
//   - per cabinet, a general poll; every MeterEvery, and at once when the
//     cabinet raises 0x56, its games-played meter (0x2F) and its linked
//     coin-in, the coin-in of the bets that could win a linked level (0xB4
//     wager category 1; or the total coin-in, for a machine without it),
//     which the ledger turns into contributions by their delta (a lost or
//     repeated reading can neither lose nor double money), so a bet that
//     cannot win the levels feeds nothing;
//   - its reported hits (0x87): each is identified by cabinet, level and
//     games played (the cabinet is locked while a hit waits, so that meter
//     stands still), and hits arriving within Settle of each other on one
//     level are recorded in one Hit, in arrival order, under the level's
//     second-hit rule (addressed-mode cabinets);
//   - a hit is identified by the games-played meter read right after the
//     0x87 (and, for an addressed-mode cabinet, also right before it and
//     equal): the cabinet plays no game while a hit is pending;
//   - a cabinet in addressed award mode is told its award by an addressed
//     single-level 0x80 carrying the amount (the rule's amount, never more
//     than the value the cabinet showed), sent only while the cabinet
//     reports that very hit and repeated until it no longer does (it has
//     committed the payment); then the ledger records the confirmation. A
//     cabinet in broadcast award mode (standard SAS, the default) pays the
//     value it showed once the controller has read the hit: the claim is
//     recorded at once as paid by the cabinet (Claim.Paid), and confirmed
//     when the cabinet no longer reports it.
//
// A level listed in the configuration's "superjackpot" section is shared
// with the controllers of other casinos through an etcd cluster (package
// jackpot/super; super.go): its pool is in etcd, created from its
// configuration (the same on every controller), and the ledger keeps only
// what this controller owes it and was paid from it (SetupShared). The
// coin-in its cabinets feed goes out in batches, each recorded in the
// ledger (SuperBatch) before it is sent and its answer recorded after
// (SuperApplied), resent unchanged until answered; the value broadcast is
// etcd's, from a watch (none before the first one: the cabinets then see
// the link down for it); a hit is claimed from etcd on its own, after the
// level's coin-in, recorded before (SuperClaim) and after (SuperClaimed),
// and then confirmed to the cabinet like a local award. etcd is reached
// over TLS as the controller's own etcd user (the common name of its
// client certificate), which may write its own keys only; every value the
// controller writes there is signed by the key that signs its ledger, and
// every value it reads is verified with the keys registered for the
// group's controllers (Super.Keys): a forged one is not counted nor paid,
// and is logged and recorded in the ledger (EventSuperForged). Without the
// section nothing touches etcd.
package link

import (
	"bytes"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/jackpot/super"
)

// Config is the controller's configuration file.
type Config struct {
	Controller  string    `json:"controller"` // this controller's ID
	Group       int       `json:"group"`      // SAS progressive group, 1-255
	BroadcastMS int       `json:"broadcast_ms,omitempty"`
	MeterMS     int       `json:"meter_ms,omitempty"`
	SettleMS    int       `json:"settle_ms,omitempty"`
	Levels      []Level   `json:"levels"`
	Channels    []Channel `json:"channels"`
	// Super, if present, shares levels with the controllers of other
	// casinos through an etcd cluster (package jackpot/super). Without
	// it, nothing touches etcd.
	Super *Super `json:"superjackpot,omitempty"`
}

// Super is the superjackpot section: the etcd cluster, the group's key
// prefix and the levels kept there. A shared level's pool is in etcd,
// created from its configuration in Levels, which must be the same on
// every controller of the group (a difference is refused at start-up).
// Its machines' coin-in goes out in batches every BatchMS; its hits are
// claimed from etcd one by one. The controller ID is this controller's
// name in etcd: unique in the group, and never reused with another ledger.
type Super struct {
	Etcd    []string `json:"etcd"`   // client endpoints, host:port
	Prefix  string   `json:"prefix"` // "/superjackpot/<group>/"
	Levels  []string `json:"levels"` // IDs from Levels
	BatchMS int      `json:"batch_ms,omitempty"`
	// ConfirmMS bounds how old a shared level's value may be: one etcd has
	// not confirmed for longer is not broadcast (the cabinets then take
	// the level away after their 5 s).
	ConfirmMS int `json:"confirm_ms,omitempty"`
	// TLS are the files of the controller's etcd client (required: etcd is
	// reached over TLS only, with a client certificate).
	TLS EtcdTLS `json:"tls"`
	// Keys are the Ed25519 public keys (base64, as in NAME.pub) that the
	// operators registered for every controller of the group, this one
	// included, whose must be the key on its board (the one that signs its
	// ledger). Everything read from etcd is verified with them; a value
	// that does not verify is not counted nor paid (package jackpot/super).
	Keys map[string]string `json:"keys"`
}

// EtcdTLS are the files of a controller's etcd client: the CA certificate
// that signed the members' certificates, and the controller's client
// certificate and its key (PEM). etcd authenticates the controller by the
// certificate's common name, which must be the controller's ID: its etcd
// user (super.Grant), allowed to write its own keys only. Relative paths
// are relative to the configuration file.
type EtcdTLS struct {
	CA   string `json:"ca"`
	Cert string `json:"cert"`
	Key  string `json:"key"`
}

// Defaults of the superjackpot section.
const (
	DefaultBatch   = 500 * time.Millisecond // how often coin-in goes out to a shared level
	DefaultConfirm = 10 * time.Second       // how old a shared level's value may be
)

// BatchEvery is the configured batch interval.
func (s Super) BatchEvery() time.Duration { return ms(s.BatchMS, DefaultBatch) }

// ConfirmEvery is the configured bound on a shared value's age.
func (s Super) ConfirmEvery() time.Duration { return ms(s.ConfirmMS, DefaultConfirm) }

// shared reports whether level id is a superjackpot level.
func (c Config) shared(id string) bool { return c.Super != nil && slices.Contains(c.Super.Levels, id) }

// Level is a linked level (won by the paytable's progressive combination
// at the top bet on the cabinets that feed it).
type Level struct {
	ID         string `json:"id"`
	SAS        int    `json:"sas_level"` // 1-32: the level number cabinets know it by
	ResetCents int64  `json:"reset_cents"`
	RatePPM    int64  `json:"rate_ppm"`
	HiddenPPM  int64  `json:"hidden_ppm,omitempty"`
	CapCents   int64  `json:"cap_cents,omitempty"`
	// SecondHit is the rule for a hit that arrives before the previous one
	// on the level is awarded: "wins-reset" (it wins the reset value) or
	// "split" (the value is shared equally). Shown to players.
	SecondHit string `json:"second_hit"`
}

// Channel is one SAS line: exactly one of PTY (the host end of a
// cabinet's pseudo-terminal), TCP (a serial server) or Serial (a device).
type Channel struct {
	Name     string    `json:"name"`
	PTY      string    `json:"pty,omitempty"`
	TCP      string    `json:"tcp,omitempty"`
	Serial   string    `json:"serial,omitempty"`
	Framing  string    `json:"framing,omitempty"` // pty: "content" (default) or "parmrk"
	Cabinets []Cabinet `json:"cabinets"`
}

// Cabinet is a machine on a channel and the levels it feeds. Award is how
// the cabinet pays its linked hits, as set on it (--link-award): AwardBroadcast
// (the default, standard SAS: the cabinet pays the value it showed once the
// controller has read the hit) or AwardAddressed (the cabinet waits for the
// controller's amount, an addressed 0x80).
//
// Serial is the serial number the cabinet reports (SAS 0x54; the cabinet's
// --machine-id): when given, the controller reads it whenever it (re)opens
// the line or the cabinet stops answering, and a line on which another
// machine answers gets no broadcast, and that machine no reading, claim or
// award. Without it a line reused by another machine cannot be noticed.
//
// CoinIn is the coin-in the cabinet's levels are fed from: CoinInLinked (the
// default) is the coin-in of the bets that could win a linked level, which
// the cabinet reports as wager category 1 of SAS 0xB4, so that a bet that
// cannot win the levels (a lower bet, or the one forced while the link is
// down) feeds nothing; CoinInTotal is the total coin-in meter, for a
// machine without that category. A ledger whose baseline is the other
// meter needs a Rebase (linkctl rebase) when this changes.
type Cabinet struct {
	ID     string   `json:"id"`
	Addr   int      `json:"addr"`
	Levels []string `json:"levels"`
	Award  string   `json:"award,omitempty"`
	Serial string   `json:"serial,omitempty"`
	CoinIn string   `json:"coin_in,omitempty"`
}

// Coin-in meters a cabinet's levels are fed from.
const (
	CoinInLinked = "linked"
	CoinInTotal  = "total"
)

// Award modes of a cabinet.
const (
	AwardBroadcast = "broadcast"
	AwardAddressed = "addressed"
)

func (c Cabinet) broadcast() bool { return c.Award == "" || c.Award == AwardBroadcast }

// Defaults.
const (
	DefaultBroadcast = 500 * time.Millisecond // well inside the cabinet's 5 s
	DefaultMeter     = time.Second
	DefaultSettle    = 300 * time.Millisecond
)

func ms(v int, def time.Duration) time.Duration {
	if v <= 0 {
		return def
	}
	return time.Duration(v) * time.Millisecond
}

// BroadcastEvery, MeterEvery and Settle are the configured intervals.
func (c Config) BroadcastEvery() time.Duration { return ms(c.BroadcastMS, DefaultBroadcast) }
func (c Config) MeterEvery() time.Duration     { return ms(c.MeterMS, DefaultMeter) }
func (c Config) Settle() time.Duration         { return ms(c.SettleMS, DefaultSettle) }

// ParseConfig reads a configuration strictly; every error names the file
// and the entry.
func ParseConfig(name string, data []byte) (*Config, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Config
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: data after the configuration", name)
	}
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if c.Super != nil {
		for _, f := range []*string{&c.Super.TLS.CA, &c.Super.TLS.Cert, &c.Super.TLS.Key} {
			if !filepath.IsAbs(*f) {
				*f = filepath.Join(filepath.Dir(name), *f)
			}
		}
	}
	return &c, nil
}

func (c Config) validate() error {
	if c.Controller == "" || len(c.Controller) > ledger.MaxIDLen {
		return fmt.Errorf("controller: an ID of 1-%d characters is required", ledger.MaxIDLen)
	}
	if c.Group < 1 || c.Group > 255 {
		return fmt.Errorf("group %d: want 1-255", c.Group)
	}
	if c.BroadcastEvery() > 2*time.Second {
		return fmt.Errorf("broadcast_ms %d: cabinets report the link down after 5 s without a value; broadcast at least every 2 s", c.BroadcastMS)
	}
	if len(c.Levels) == 0 {
		return fmt.Errorf("no levels")
	}
	ids, sasLevels := map[string]bool{}, map[int]bool{}
	for i, l := range c.Levels {
		where := fmt.Sprintf("levels[%d] (%s)", i, l.ID)
		if l.ID == "" || ids[l.ID] {
			return fmt.Errorf("%s: a unique ID is required", where)
		}
		if l.SAS < 1 || l.SAS > 32 || sasLevels[l.SAS] {
			return fmt.Errorf("%s: sas_level %d: want a unique level 1-32", where, l.SAS)
		}
		ids[l.ID], sasLevels[l.SAS] = true, true
		if _, err := l.setup(0, nil); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	cabinets, addrs := map[string]bool{}, map[string]bool{}
	for i, ch := range c.Channels {
		where := fmt.Sprintf("channels[%d] (%s)", i, ch.Name)
		n := 0
		for _, s := range []string{ch.PTY, ch.TCP, ch.Serial} {
			if s != "" {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("%s: exactly one of pty, tcp, serial", where)
		}
		if ch.Framing != "" && ch.Framing != "content" && ch.Framing != "parmrk" {
			return fmt.Errorf("%s: framing %q: want content or parmrk", where, ch.Framing)
		}
		if len(ch.Cabinets) == 0 {
			return fmt.Errorf("%s: no cabinets", where)
		}
		for j, cab := range ch.Cabinets {
			w := fmt.Sprintf("%s cabinets[%d] (%s)", where, j, cab.ID)
			if cab.ID == "" || cabinets[cab.ID] {
				return fmt.Errorf("%s: a unique ID is required", w)
			}
			cabinets[cab.ID] = true
			key := fmt.Sprintf("%d/%d", i, cab.Addr)
			if cab.Addr < 1 || cab.Addr > 127 || addrs[key] {
				return fmt.Errorf("%s: address %d: want a unique address 1-127 on its line", w, cab.Addr)
			}
			addrs[key] = true
			if len(cab.Levels) == 0 {
				return fmt.Errorf("%s: feeds no level", w)
			}
			if cab.CoinIn != "" && cab.CoinIn != CoinInLinked && cab.CoinIn != CoinInTotal {
				return fmt.Errorf("%s: coin_in %q: want %s (the default) or %s", w, cab.CoinIn, CoinInLinked, CoinInTotal)
			}
			if cab.Award != "" && cab.Award != AwardBroadcast && cab.Award != AwardAddressed {
				return fmt.Errorf("%s: award %q: want %s (the default) or %s, as the cabinet's --link-award", w, cab.Award, AwardBroadcast, AwardAddressed)
			}
			for _, lv := range cab.Levels {
				if !ids[lv] {
					return fmt.Errorf("%s: unknown level %q", w, lv)
				}
				// etcd names a hit's place "controller/machine", at most
				// 64 bytes (package jackpot/super).
				if c.shared(lv) && len(c.Controller)+1+len(cab.ID) > maxEtcdName {
					return fmt.Errorf("%s: feeds shared level %q: controller and cabinet IDs are %d bytes together, at most %d",
						w, lv, len(c.Controller)+len(cab.ID), maxEtcdName-1)
				}
			}
		}
	}
	if c.Super != nil {
		if err := c.Super.validate(c); err != nil {
			return fmt.Errorf("superjackpot: %w", err)
		}
	}
	return c.validateAwards()
}

// validateAwards refuses a split level fed by a cabinet that pays its hits
// itself (broadcast award mode): splitting needs the controller's amount.
func (c Config) validateAwards() error {
	for i, ch := range c.Channels {
		for j, cab := range ch.Cabinets {
			if !cab.broadcast() {
				continue
			}
			for _, lv := range cab.Levels {
				if k := slices.IndexFunc(c.Levels, func(l Level) bool { return l.ID == lv }); c.Levels[k].SecondHit == "split" {
					return fmt.Errorf("channels[%d] (%s) cabinets[%d] (%s): level %q splits near-simultaneous hits, which needs the controller's amount: the cabinet must have \"award\": %q (and --link-award addressed)",
						i, ch.Name, j, cab.ID, lv, AwardAddressed)
				}
			}
		}
	}
	return nil
}

const maxEtcdName = 64

// etcdName checks a name that is a segment of etcd keys (package
// jackpot/super): 1-64 bytes of printable UTF-8 without '/'.
func etcdName(s string) error {
	switch {
	case s == "" || len(s) > maxEtcdName:
		return fmt.Errorf("want 1-%d bytes", maxEtcdName)
	case !utf8.ValidString(s):
		return fmt.Errorf("not UTF-8")
	case strings.ContainsRune(s, '/'):
		return fmt.Errorf("contains '/'")
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("contains a non-printable character")
		}
	}
	return nil
}

func (s Super) validate(c Config) error {
	if err := etcdName(c.Controller); err != nil {
		return fmt.Errorf("controller %q is this controller's name in etcd: %w", c.Controller, err)
	}
	if len(s.Etcd) == 0 {
		return fmt.Errorf("etcd: no endpoints")
	}
	seen := map[string]bool{}
	for i, ep := range s.Etcd {
		host, port, err := net.SplitHostPort(ep)
		if err != nil || host == "" {
			return fmt.Errorf("etcd[%d] %q: want host:port", i, ep)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("etcd[%d] %q: port %q: want 1-65535", i, ep, port)
		}
		if seen[ep] {
			return fmt.Errorf("etcd[%d] %q: listed twice", i, ep)
		}
		seen[ep] = true
	}
	if len(s.Prefix) < 3 || s.Prefix[0] != '/' || !strings.HasSuffix(s.Prefix, "/") || strings.Contains(s.Prefix, "//") ||
		!utf8.ValidString(s.Prefix) || strings.ContainsFunc(s.Prefix, func(r rune) bool { return !unicode.IsPrint(r) || r == ' ' }) {
		return fmt.Errorf("prefix %q: want a key prefix like \"/superjackpot/<group>/\" (starting and ending with '/', printable, no spaces)", s.Prefix)
	}
	if s.BatchMS != 0 && (s.BatchMS < 50 || s.BatchMS > 60_000) {
		return fmt.Errorf("batch_ms %d: want 50-60000 (0: %v)", s.BatchMS, DefaultBatch)
	}
	if s.ConfirmMS != 0 && (s.ConfirmMS < 1500 || s.ConfirmMS > 120_000) {
		return fmt.Errorf("confirm_ms %d: want 1500-120000 (0: %v)", s.ConfirmMS, DefaultConfirm)
	}
	if s.TLS.CA == "" || s.TLS.Cert == "" || s.TLS.Key == "" {
		return fmt.Errorf("tls: ca, cert and key are required (etcd is reached over TLS with the controller's client certificate)")
	}
	if _, err := s.Keyring(); err != nil {
		return err
	}
	if _, ok := s.Keys[c.Controller]; !ok {
		return fmt.Errorf("keys: no key for this controller %q (every controller of the group, this one included)", c.Controller)
	}
	switch len(s.Levels) {
	case 0:
		return fmt.Errorf("levels: none shared")
	case 1:
	default:
		// etcd numbers a controller's batches across all levels of the
		// group; the ledger numbers them per shared level.
		return fmt.Errorf("levels %q: one shared level per controller (etcd numbers a controller's batches across the group's levels, the ledger per level)", s.Levels)
	}
	for i, id := range s.Levels {
		where := fmt.Sprintf("levels[%d] (%s)", i, id)
		k := slices.IndexFunc(c.Levels, func(l Level) bool { return l.ID == id })
		if k < 0 {
			return fmt.Errorf("%s: not one of the configured levels", where)
		}
		if err := etcdName(id); err != nil {
			return fmt.Errorf("%s: the level's name in etcd: %w", where, err)
		}
		l := c.Levels[k]
		if l.trigger() != jackpot.TriggerPaytable {
			return fmt.Errorf("%s: a %v level cannot be shared yet (only paytable levels)", where, l.trigger())
		}
		if l.SecondHit != "wins-reset" {
			// Each claim is hit and awarded alone in its own etcd
			// transaction: nothing is ever split.
			return fmt.Errorf("%s: second_hit %q: a shared level's hits are awarded one by one in etcd (the first wins the value, the next what the level holds after the reset): want wins-reset", where, l.SecondHit)
		}
	}
	return nil
}

// Keyring decodes the registered keys.
func (s Super) Keyring() (super.Keys, error) {
	if len(s.Keys) == 0 {
		return nil, fmt.Errorf("keys: none: the public keys registered for the group's controllers are required")
	}
	out := super.Keys{}
	for id, k := range s.Keys {
		if err := etcdName(id); err != nil {
			return nil, fmt.Errorf("keys: controller %q: %w", id, err)
		}
		raw, err := base64.StdEncoding.Strict().DecodeString(strings.TrimSpace(k))
		if err != nil || len(raw) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("keys: controller %q: want the base64 of a %d-byte Ed25519 public key (NAME.pub), got %q", id, ed25519.PublicKeySize, k)
		}
		out[id] = ed25519.PublicKey(raw)
	}
	return out, nil
}

// ClientTLS loads the TLS files and returns the client's configuration and
// the common name of its certificate (its etcd user). Every error names
// the file.
func (s Super) ClientTLS() (*tls.Config, string, error) {
	ca, err := os.ReadFile(s.TLS.CA)
	if err != nil {
		return nil, "", fmt.Errorf("superjackpot tls ca: %w", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		return nil, "", fmt.Errorf("superjackpot tls ca: %s holds no PEM certificate", s.TLS.CA)
	}
	cert, err := tls.LoadX509KeyPair(s.TLS.Cert, s.TLS.Key)
	if err != nil {
		return nil, "", fmt.Errorf("superjackpot tls cert %s, key %s: %w", s.TLS.Cert, s.TLS.Key, err)
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		return nil, "", fmt.Errorf("superjackpot tls cert %s: %w", s.TLS.Cert, err)
	}
	return &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, leaf.Subject.CommonName, nil
}

// trigger is what wins the level: the paytable's progressive combination
// (the only kind a configuration can make yet).
func (l Level) trigger() jackpot.Trigger { return jackpot.TriggerPaytable }

// config is the level's jackpot configuration: the one its local pool
// is set up with, or, for a shared level, the one etcd must hold.
func (l Level) config() (jackpot.Config, error) {
	rule := map[string]jackpot.SecondHitRule{"wins-reset": jackpot.SecondHitWinsReset, "split": jackpot.SplitAmount}[l.SecondHit]
	if rule == 0 {
		return jackpot.Config{}, fmt.Errorf("second_hit %q: want wins-reset or split", l.SecondHit)
	}
	cfg := jackpot.Config{ResetValue: l.ResetCents * jackpot.MillicentsPerCent, Rate: l.RatePPM, HiddenRate: l.HiddenPPM,
		Cap: l.CapCents * jackpot.MillicentsPerCent, Trigger: l.trigger(), SecondHit: rule}
	if err := cfg.Validate(); err != nil {
		return jackpot.Config{}, err
	}
	return cfg, nil
}

// setup is the ledger record that opens the level.
func (l Level) setup(at int64, who []string) (ledger.SetupLevel, error) {
	cfg, err := l.config()
	if err != nil {
		return ledger.SetupLevel{}, err
	}
	w := "configuration"
	if len(who) > 0 {
		w = who[0]
	}
	return ledger.SetupLevel{At: at, Level: l.ID, ResetMC: cfg.ResetValue, RatePPM: l.RatePPM, HiddenPPM: l.HiddenPPM,
		CapMC: cfg.Cap, Trigger: cfg.Trigger.String(), SecondHit: cfg.SecondHit.String(), Who: w}, nil
}

// levelBySAS returns the level a cabinet knows by number n.
func (c Config) levelBySAS(n int) (Level, bool) {
	i := slices.IndexFunc(c.Levels, func(l Level) bool { return l.SAS == n })
	if i < 0 {
		return Level{}, false
	}
	return c.Levels[i], true
}
