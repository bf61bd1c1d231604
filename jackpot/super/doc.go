// Package super keeps a superjackpot shared by the link controllers of
// several casinos in an etcd cluster.
//
// The accounting is package jackpot's, unchanged: the shared state of a
// group is one marshalled jackpot.Pools (MarshalBinary), holding the
// group's superjackpot level or levels. It changes only by compare-and-swap
// transactions, each of which reads the pools at one revision, applies one
// jackpot op (or, for a claim, Hit and Award together) with jackpot's Apply,
// and writes the new state together with the record that makes the change
// idempotent, on the condition that the pools key was not modified since it
// was read. A transaction that loses that race (another controller's won)
// is retried on the state that won, with a jittered backoff, until the
// caller's context ends. No amount, time or outcome here comes from a
// clock, a random number or floating point: times and mystery targets come
// from the caller, amounts are jackpot's int64 millicents and cents (timers
// only pace retries and the watch's resync).
//
// # Keys
//
// Every key of a group starts with its prefix P (for example
// "/superjackpot/<group>/"):
//
//	P pool                               the group's jackpot.Pools (MarshalBinary)
//	P batches/<controller>/<seq:%020d>   Contributed (JSON): the outcome of an applied batch
//	P heads/<controller>                 last applied batch seq of the controller (%020d)
//	P claims/<level>/<controller>/<machine>/<game:%020d>
//	                                     Claimed (JSON): the outcome of a paid hit
//	P transfers/<id>                     Transferred (JSON)
//	P keys/<controller>                  the controller's Ed25519 public key
//	P rejected/<controller>/<revision:%020d>/<key relative to P>
//	                                     Rejection (JSON): a rejected version the controller replaced
//
// Level, controller and machine names are 1 to 64 bytes of printable UTF-8
// without '/'.
//
// # Signatures
//
// Every value above is an envelope (JSON: by, data, sig): the payload
// listed, the controller that wrote it, and its Ed25519 signature by that
// controller's key (the key that signs its ledger) over a labelled
// message binding the prefix, the key, the signer, the key's create
// revision and version after the write, and the payload's digest
// (message). A signature therefore cannot be moved to another key, kind,
// group or version: copied, or an old value written back, it fails. Batch,
// head, claim, key and evidence keys may be signed only by the controller
// they name; the pools and transfers by any registered controller.
//
// Readers verify everything they read against the keys the operators
// registered (Keyring). A version that does not verify is rejected
// (ErrForged): readers take the key's latest genuine version from etcd's
// history (none, if it has none), so a forged batch or claim is neither
// counted in the value nor paid; the next writer of the key replaces it,
// recording it under rejected/; every rejection is reported (OnRejected,
// Audit), and the watch checks every value written in the group as it
// goes by. Only a registered controller whose published key (keys/<id>)
// is the one registered for it can be the victim of a forgery: a value of
// an unregistered controller, or one whose registration cannot be
// confirmed, stops the readers (ErrUnverified) instead, since a wrong
// registration would otherwise make genuine values look forged and be
// replaced.
//
// A key deleted and written again gets a new create revision, so of its
// old versions only the first (signed for a key being created) verifies
// again: for the pools, their state at creation. Every head, claim and
// transfer is created after the pools it changed, so pools at their first
// version whose key is younger than such a record were rolled back: every
// reader refuses them (ErrCorrupt). Contribute also refuses pools behind
// the op its previous batch was applied as, the watch pools whose op
// sequence goes back, and Init creating pools again for a group with
// heads or claims.
//
// # Permissions
//
// etcd's own authentication holds each controller's user to its keys
// (Permissions, Grant): it reads the group and writes the pools,
// transfers and its own keys only. etcd refuses a controller that writes
// another's batch or claim before any signature is checked; signatures
// are what holds against whoever writes etcd's keys with root's
// credentials, or any writer of the pools.
//
// # Exactly once
//
// Contribute writes the pools, the batch record and the controller's head in
// one transaction that requires (a) the batch key not to exist, (b) the pools
// key's mod revision to be the one the new state was computed from, and (c)
// the head to be seq-1 (absent for seq 1). A controller numbers its batches
// 1, 2, 3, ... and logs each one in its own ledger before sending it; when it
// does not know whether a batch was applied (timeout, crash, partition) it
// sends the same batch again. If the batch key exists, the recorded outcome
// is returned (Replayed) and nothing is counted again; a batch whose seq was
// applied with different content, a gap in the sequence, or an old seq whose
// record is no longer there is refused with an error that names the
// controller and the seqs, so the ledger and etcd never silently diverge.
//
// Claim writes the pools (after Hit and Award) and the claim record in one
// transaction that requires the claim key, which is the hit's identity
// (level, controller, machine, game), not to exist and the pools not to have
// changed. A retry of the same hit, from the same Store or any other, returns
// the recorded claim (Replayed). Because each claim is hit and awarded in
// one transaction, claims of one level are paid one after the other in the
// order etcd commits them: the first wins the level's value, the next wins
// what the level holds after the reset (the reset value plus the
// contributions since). Claimed.Order is the level's hit count
// (Meters.Hits) after the award: 1, 2, 3, ... per level.
//
// An error from etcd after a write was sent does not say whether the write
// was applied; such errors wrap ErrOutcomeUnknown. The answer is always to
// send the same batch or claim again. Within one call, transient etcd
// errors (member down, no leader, timeouts, lost connections) are retried
// until the caller's context ends: every write is guarded, so a write that
// was applied without our knowing, or that the etcd client sent twice, is
// found by the next read and returned as Replayed, never applied twice.
// Replayed therefore means "found recorded", possibly by an earlier attempt
// of the same call.
//
// Records (Contributed, Claimed) are JSON with fixed field names, decoded strictly; the pools are jackpot's binary
// state. Batch records grow by one per batch: KeepBatches bounds them.
//
// # Display
//
// Watch follows the pools key with an etcd watch (after a first read),
// delivers coalesced snapshots (display value in cents, meters, revision),
// restarts after compaction or a lost stream, and reads the key again every
// resync interval so that a stream stuck on a dead member cannot freeze
// the display.
//
// # Mystery levels
//
// The contribution that reaches a mystery level's target registers the hit
// for the controller that sent the batch (jackpot's claim with Where = the
// controller, Game = the batch seq); Contributed.Hits reports it. While it
// is pending, the level's value is frozen and contributions go to its
// reserve. The controller then picks the machine that receives it and calls
// Claim with the next target, drawn by its certified RNG and logged in its
// ledger beforehand (never redrawn on a retry).
package super
