// PIN hashing off the owner: argon2id at 19 MiB takes tens of milliseconds
// and all of that memory, and the owner goroutine that steps the machine is
// the one every event (a spin, a bill, a SAS poll's order) waits for. The
// machine decides what to hash and what the result means; the hashing is a
// job the owner gives a worker, whose answer comes back as an event.

package machine

import (
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/openegm/cabinet/meters"
	"golang.org/x/crypto/argon2"
)

// PINHasher does the slow part: hashing a new PIN with a salt, and checking
// a PIN against a stored hash.
type PINHasher interface {
	Hash(pin string, salt []byte) string
	Verify(encoded, pin string) bool
}

// Argon2id is the cabinet's PINHasher: argon2id in the PHC string form.
var Argon2id PINHasher = argon2id{}

type argon2id struct{}

func (argon2id) Hash(pin string, salt []byte) string {
	key := argon2.IDKey([]byte(pin), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

func (argon2id) Verify(encoded, pin string) bool {
	h, err := ParsePINHash(encoded)
	if err != nil {
		return false
	}
	got := argon2.IDKey([]byte(pin), h.salt, h.time, h.memory, h.threads, uint32(len(h.key)))
	return subtle.ConstantTimeCompare(got, h.key) == 1
}

// PINJob is a device command the owner runs on a worker, not on its own
// goroutine; Do's event is stepped as the answer.
type PINJob interface {
	Device
	Do(h PINHasher, at time.Time) Event
}

// CheckPIN asks for a PIN typed on the keypad to be checked against the
// role's stored hash. The answer is PINChecked.
type CheckPIN struct {
	Role, PIN, Hash string
}

func (CheckPIN) device() {}

func (c CheckPIN) Do(h PINHasher, at time.Time) Event {
	return PINChecked{At: at, Role: c.Role, PIN: c.PIN, Hash: c.Hash, OK: h.Verify(c.Hash, c.PIN)}
}

// HashPIN asks for a new PIN to be hashed with the salt the machine drew
// from the certified RNG. The answer is PINHashed.
type HashPIN struct {
	ID   uint64 // the machine's number for the change, so a late answer is known
	PIN  string
	Salt []byte
}

func (HashPIN) device() {}

func (j HashPIN) Do(h PINHasher, at time.Time) Event {
	return PINHashed{At: at, ID: j.ID, Hash: h.Hash(j.PIN, j.Salt)}
}

// PINChecked answers CheckPIN: whether PIN matches Hash.
type PINChecked struct {
	At              time.Time
	Role, PIN, Hash string
	OK              bool
}

// PINHashed answers HashPIN with the new hash.
type PINHashed struct {
	At   time.Time
	ID   uint64
	Hash string
}

func (e PINChecked) at() time.Time { return e.At }
func (e PINHashed) at() time.Time  { return e.At }

// pinChecked finishes a login. What was true when the PIN was typed is
// asked again (the key, the lock-out: other entries may have failed
// meanwhile); a verdict on a hash that has since been replaced is no
// verdict, and the PIN is checked again against the new one.
func (m *Machine) pinChecked(e PINChecked, eff *Effects) {
	if m.pinRefused(e.Role, eff) {
		return
	}
	if hash, set := m.cfg.PINHashes[e.Role]; !set || hash != e.Hash {
		m.pinEntry(PINEntry{At: e.At, Role: e.Role, PIN: e.PIN}, eff)
		return
	}
	m.pinVerdict(e.Role, e.OK, true, eff)
}

// pinHashed finishes a PIN change, if the session that asked for it is
// still there and asked nothing since; otherwise the PIN is not changed.
func (m *Machine) pinHashed(e PINHashed, eff *Effects) {
	s := m.session
	if s == nil || s.pinJob != e.ID {
		return
	}
	s.pinJob = 0
	if m.cfg.PINHashes == nil {
		m.cfg.PINHashes = map[string]string{}
	}
	m.cfg.PINHashes[s.role] = e.Hash
	s.mustChange = false
	s.pinChanges++
	m.record(eff, meters.Service{At: m.ns(), Who: s.who, Role: s.role, Action: SvcSetPIN})
	m.sayService("msg_pin_changed")
	eff.Devices = append(eff.Devices, StorePIN{Role: s.role, Hash: e.Hash})
}
