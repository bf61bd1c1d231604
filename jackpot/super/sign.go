package super

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"golang.org/x/crypto/blake2b"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/jackpot"
)

// Every value a controller writes in the group is signed by its key (the
// key that signs its ledger), and every reader checks it against the keys
// the operators registered: someone who can write etcd's keys without a
// controller's key (etcd's administrator, a stolen root certificate, a
// restored backup) can stop the group, but cannot make it count money.

var (
	// ErrForged: a value that does not verify with the registered key of
	// the controller it claims to be from (or claims a key that is another
	// controller's). It is rejected: readers take the key's latest genuine
	// version (none if it has none), writers replace it, and it is
	// reported (OnRejected, Audit).
	ErrForged = errors.New("forged")
	// ErrUnverified: a value that cannot be judged, because the registered
	// key of its signer cannot be trusted to judge it: the controller is
	// not registered, or the key it published in the group (keys/<id>) is
	// not the one registered for it. Nothing is rejected or replaced: a
	// wrong registration must not erase a controller's genuine writes.
	ErrUnverified = errors.New("cannot be verified")
)

// Keyring holds the public keys the operators registered, by controller.
type Keyring interface {
	PublicKey(controller string) (ed25519.PublicKey, bool)
}

// Keys is a Keyring held in a map.
type Keys map[string]ed25519.PublicKey

// PublicKey returns controller's registered key.
func (k Keys) PublicKey(controller string) (ed25519.PublicKey, bool) {
	pub, ok := k[controller]
	return pub, ok && len(pub) == ed25519.PublicKeySize
}

// envelope is what etcd holds under every key of a group: the payload
// (the pools' binary state, a record's JSON, a head's digits), who signed
// it and the signature.
type envelope struct {
	By   string `json:"by"`
	Data []byte `json:"data"`
	Sig  []byte `json:"sig"`
}

// signLabel separates these signatures from every other the project's keys
// make (ledger checkpoints and seals, documents).
const signLabel = "openegm superjackpot value v1\x00"

// message is what a controller signs to write data under the group key
// rel (relative to prefix; its first segment is the kind: pool, batches,
// heads, claims, transfers, keys, rejected): the label, the prefix, rel,
// the signer, the key's create revision and version after the write
// (create 0 for the write that creates it), and the payload's BLAKE2b-256.
// A signature is thereby good for one payload in one place at one version
// of one group: copied to another key, kind, group, or back over a later
// version, it no longer verifies.
func message(prefix, rel, by string, create, version int64, data []byte) []byte {
	digest := blake2b.Sum256(data)
	m := make([]byte, 0, len(signLabel)+12+len(prefix)+len(rel)+len(by)+16+len(digest))
	m = append(m, signLabel...)
	for _, f := range []string{prefix, rel, by} {
		m = binary.BigEndian.AppendUint32(m, uint32(len(f)))
		m = append(m, f...)
	}
	m = binary.BigEndian.AppendUint64(m, uint64(create))
	m = binary.BigEndian.AppendUint64(m, uint64(version))
	return append(m, digest[:]...)
}

// rel is key relative to the group's prefix.
func (s *Store) rel(key string) string { return strings.TrimPrefix(key, s.prefix) }

// owner is the controller that alone may sign the group key rel ("": any
// registered controller: the pools, transfers).
func owner(rel string) string {
	parts := strings.Split(rel, "/")
	switch {
	case len(parts) >= 2 && (parts[0] == "batches" || parts[0] == "heads" || parts[0] == "keys" || parts[0] == "rejected"):
		return parts[1]
	case len(parts) >= 3 && parts[0] == "claims":
		return parts[2]
	}
	return ""
}

// put is the write of data under key, whose current version is cur,
// signed by the Store's key.
func (s *Store) put(key string, cur value, data []byte) (clientv3.Op, error) {
	var create, version int64 = 0, 1
	if cur.exists {
		create, version = cur.create, cur.version+1
	}
	sig, err := s.signer.Sign(nil, message(s.prefix, s.rel(key), s.id, create, version, data), crypto.Hash(0))
	if err != nil {
		return clientv3.Op{}, fmt.Errorf("signing %s: %w", key, err)
	}
	if len(sig) != ed25519.SignatureSize {
		return clientv3.Op{}, fmt.Errorf("signing %s: a signature of %d bytes, not an Ed25519 one", key, len(sig))
	}
	env, err := json.Marshal(envelope{By: s.id, Data: data, Sig: sig})
	if err != nil {
		return clientv3.Op{}, err
	}
	return clientv3.OpPut(key, string(env)), nil
}

// guard is the condition that key is still as read in v.
func guard(key string, v value) clientv3.Cmp {
	if !v.exists {
		return clientv3.Compare(clientv3.CreateRevision(key), "=", 0)
	}
	return clientv3.Compare(clientv3.ModRevision(key), "=", v.modRev)
}

// badSignature is a registered controller's signature that does not
// verify; whether that is a forgery or a wrong registration is for
// confirm to tell.
type badSignature struct{ error }

// check verifies one version of a key: its payload and signer, or why not
// (ErrCorrupt: not an envelope; ErrUnverified: an unregistered signer;
// ErrForged: signed as a controller that does not own the key;
// badSignature).
func (s *Store) check(kv *mvccpb.KeyValue) (data []byte, by string, err error) {
	key := string(kv.Key)
	var env envelope
	if err := decodeJSON(key, kv.Value, &env); err != nil {
		return nil, "", err
	}
	rel := s.rel(key)
	if o := owner(rel); o != "" && env.By != o {
		return nil, env.By, fmt.Errorf("%w: signed as controller %q, but only controller %q writes this key", ErrForged, env.By, o)
	}
	pub, ok := s.keys.PublicKey(env.By)
	if !ok {
		return nil, env.By, fmt.Errorf("%w: key %q at revision %d is signed as controller %q, whose key is not registered", ErrUnverified, key, kv.ModRevision, env.By)
	}
	create := kv.CreateRevision
	if kv.Version == 1 {
		create = 0
	}
	if !ed25519.Verify(pub, message(s.prefix, rel, env.By, create, kv.Version, env.Data), env.Sig) {
		return nil, env.By, badSignature{fmt.Errorf("the signature does not verify with controller %q's registered key %s (for this key at version %d)",
			env.By, book.KeyID(pub), kv.Version)}
	}
	return env.Data, env.By, nil
}

// judge is check, a bad signature judged: ErrForged if the signer's
// registered key is confirmed (confirm), else ErrUnverified (or etcd's
// error while confirming).
func (s *Store) judge(ctx context.Context, kv *mvccpb.KeyValue) (data []byte, by string, err error) {
	data, by, err = s.check(kv)
	var bad badSignature
	if errors.As(err, &bad) {
		if cerr := s.confirm(ctx, by); cerr != nil {
			return nil, by, fmt.Errorf("key %q at revision %d: %w (%w)", kv.Key, kv.ModRevision, cerr, bad.error)
		}
		return nil, by, fmt.Errorf("%w: %w", ErrForged, bad.error)
	}
	return data, by, err
}

// maxHistory bounds how many rejected versions of one key a reader walks
// back through to its genuine version.
const maxHistory = 64

// resolve reads kv, the current version of its key: the key's latest
// genuine version, walking back through etcd's history past the versions
// that are rejected (ErrForged), each reported to found. A version that
// cannot be judged, a walk that finds no end, or a history compacted
// before its end, is an error (ErrUnverified or ErrCorrupt): nothing is
// decided on such a key. Other errors are etcd's (worth a retry).
func (s *Store) resolve(ctx context.Context, kv *mvccpb.KeyValue, found func(Rejection)) (value, error) {
	var v value
	if kv == nil {
		return v, nil
	}
	key := string(kv.Key)
	v.exists, v.create, v.modRev, v.version = true, kv.CreateRevision, kv.ModRevision, kv.Version
	for {
		data, by, err := s.judge(ctx, kv)
		if err == nil {
			v.found, v.data, v.rev, v.genVersion = true, data, kv.ModRevision, kv.Version
			return v, nil
		}
		if !errors.Is(err, ErrForged) {
			return v, err
		}
		r := s.rejection(kv, by, err)
		v.rejected = append(v.rejected, r)
		found(r)
		if kv.Version == 1 {
			return v, nil // the key was created by a rejected version: nothing genuine before it
		}
		if len(v.rejected) >= maxHistory {
			return v, fmt.Errorf("%w: key %q: no genuine version among its last %d", ErrUnverified, key, maxHistory)
		}
		resp, err := s.cli.Get(ctx, key, clientv3.WithRev(kv.ModRevision-1))
		if errors.Is(rpctypes.Error(err), rpctypes.ErrCompacted) {
			return v, fmt.Errorf("%w: key %q: etcd compacted the history before its genuine version: %w", ErrUnverified, key, err)
		}
		if err != nil {
			return v, err
		}
		if len(resp.Kvs) == 0 {
			return v, nil // deleted before the rejected version was written
		}
		kv = resp.Kvs[0]
	}
}

// verdict reports whether err is a judgement on what etcd holds, which
// reading it again cannot change.
func verdict(err error) bool {
	return errors.Is(err, ErrCorrupt) || errors.Is(err, ErrUnverified) || errors.Is(err, ErrForged)
}

// keyKey is where controller publishes its public key, signed by it.
func (s *Store) keyKey(controller string) string { return s.prefix + "keys/" + controller }

// confirm checks that controller published in the group (keys/<id>, signed
// by it) the very key registered for it here: only then is a value that
// does not verify with that key a forgery, rather than the sign of a
// wrong registration (which would make genuine values look forged). The
// Store's own controller needs none: New checked its registration against
// the key it signs with. (A controller's key is its ledger's: it does not
// change under one controller ID.)
func (s *Store) confirm(ctx context.Context, controller string) error {
	if controller == s.id && s.signer != nil {
		return nil
	}
	pub, _ := s.keys.PublicKey(controller)
	resp, err := s.cli.Get(ctx, s.keyKey(controller))
	if err != nil {
		return err
	}
	if len(resp.Kvs) == 0 {
		return fmt.Errorf("%w: controller %q has not published its key in the group (%s), so the key registered for it cannot be confirmed",
			ErrUnverified, controller, s.keyKey(controller))
	}
	data, _, err := s.check(resp.Kvs[0])
	if err == nil && !bytes.Equal(data, pub) {
		err = errors.New("it holds another key")
	}
	if err != nil {
		return fmt.Errorf("%w: the key controller %q published (%s) does not confirm the key registered for it, %s: %w",
			ErrUnverified, controller, s.keyKey(controller), book.KeyID(pub), err)
	}
	return nil
}

// Publish writes the Store's public key under keys/<controller>, signed by
// it, unless it is there: the other controllers reject a value that does
// not verify with the key they registered for this controller only when
// that key is the one published here (see ErrUnverified). Every
// controller publishes its key when it starts.
func (s *Store) Publish(ctx context.Context) error {
	pub, _ := s.keys.PublicKey(s.id)
	kk := s.keyKey(s.id)
	_, err := s.update(ctx, []string{kk}, func(v []value) (*plan, error) {
		if v[0].found && bytes.Equal(v[0].data, pub) && len(v[0].rejected) == 0 {
			return nil, nil
		}
		op, err := s.put(kk, v[0], pub)
		if err != nil {
			return nil, err
		}
		p := &plan{cmps: []clientv3.Cmp{guard(kk, v[0])}, ops: []clientv3.Op{op}}
		return p, s.withEvidence(p, v[0])
	})
	if err != nil {
		return fmt.Errorf("super: publish the key of controller %q in %q: %w", s.id, s.prefix, err)
	}
	return nil
}

// Rejection is a version of a group key that did not verify: not counted,
// not paid, named.
type Rejection struct {
	Key      string `json:"key"`
	Revision int64  `json:"revision"` // the etcd revision that wrote it
	Version  int64  `json:"version"`  // the key's version it was
	By       string `json:"by"`       // the controller it claims to be signed by
	Reason   string `json:"reason"`
	// What is what it would have done (a batch's seq and bet, a claim's
	// hit and amount, the pools' values), as far as it decodes.
	What  string `json:"what,omitempty"`
	Value []byte `json:"value"` // as etcd held it: the evidence
}

func (r Rejection) String() string {
	s := fmt.Sprintf("%s at etcd revision %d, signed as %q: %s", r.Key, r.Revision, r.By, r.Reason)
	if r.What != "" {
		s += "; it claimed " + r.What
	}
	return s
}

func (s *Store) rejection(kv *mvccpb.KeyValue, by string, why error) Rejection {
	r := Rejection{Key: string(kv.Key), Revision: kv.ModRevision, Version: kv.Version, By: by, Reason: why.Error(), Value: kv.Value}
	var env envelope
	if json.Unmarshal(kv.Value, &env) == nil {
		r.What = describe(s.rel(r.Key), env.Data)
	}
	return r
}

// describe says what a payload stored under rel claims, or "".
func describe(rel string, data []byte) string {
	kind, _, _ := strings.Cut(rel, "/")
	switch kind {
	case "pool":
		p := new(jackpot.Pools)
		if p.UnmarshalBinary(data) != nil {
			return ""
		}
		var out []string
		for _, id := range p.Levels() {
			lv, _ := p.Level(id)
			out = append(out, fmt.Sprintf("level %q at %d cents (%d cents of bets, %d hits)", id, jackpot.Cents(lv.Meters.Current), lv.Meters.QualifyingBets, lv.Meters.Hits))
		}
		return "pools with " + strings.Join(out, ", ")
	case "batches":
		var c Contributed
		if json.Unmarshal(data, &c) != nil {
			return ""
		}
		return fmt.Sprintf("batch %d of controller %q: %d cents of bets on level %q, contributing %d millicents", c.Seq, c.Controller, c.Bet, c.Level, c.Contribution)
	case "claims":
		var c Claimed
		if json.Unmarshal(data, &c) != nil {
			return ""
		}
		return fmt.Sprintf("claim of %v: won %d cents", c.HitID, c.Cents())
	case "heads":
		return fmt.Sprintf("head at batch %s", strings.TrimLeft(string(data), "0"))
	case "transfers":
		var t Transferred
		if json.Unmarshal(data, &t) != nil {
			return ""
		}
		return fmt.Sprintf("transfer %q of %d millicents from %q to %q", t.ID, t.Amount(), t.From, t.To)
	}
	return ""
}

// report hands r to the OnRejected hook, once per rejected version.
func (s *Store) report(r Rejection) {
	if s.onRejected == nil {
		return
	}
	if _, seen := s.reported.LoadOrStore(fmt.Sprintf("%s@%d", r.Key, r.Revision), true); !seen {
		s.onRejected(r)
	}
}

// Evidence is a rejected version that a controller replaced by its write,
// kept under rejected/<controller>/<revision>/<key> for the inspector.
type Evidence struct {
	Rejection
	ReplacedBy string `json:"-"` // the controller that replaced it
	Replaced   int64  `json:"-"` // the etcd revision of the replacement
}

func (s *Store) evidenceKey(r Rejection) string {
	return s.prefix + "rejected/" + s.id + "/" + fmtSeq(uint64(r.Revision)) + "/" + s.rel(r.Key)
}

// withEvidence adds to p, for each value about to be replaced whose
// current version is rejected, the records of its rejected versions: a
// write that replaces a forgery keeps it for the inspector.
func (s *Store) withEvidence(p *plan, vals ...value) error {
	for _, v := range vals {
		if len(v.rejected) == 0 || v.rejected[0].Revision != v.modRev {
			continue
		}
		for _, r := range v.rejected {
			data, err := json.Marshal(r)
			if err != nil {
				return err
			}
			k := s.evidenceKey(r)
			op, err := s.put(k, value{}, data)
			if err != nil {
				return err
			}
			p.cmps = append(p.cmps, guard(k, value{}))
			p.ops = append(p.ops, op)
		}
	}
	return nil
}
