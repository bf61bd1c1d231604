// Package ledger is the durable ledger of the link controller (cmd/linkctl),
// which holds the progressive pools fed by the machines of one casino
// (regulation rules 3 to 6).
//
// It keeps its records in the framework's write-ahead log, book/walog:
// framed, hash-chained, with checkpoints signed by the controller's Ed25519
// key, a torn last record cut at start-up and any other damage a fault that
// names the record. The accounting is package jackpot's, unchanged: the
// local levels are one jackpot.Pools, changed only by jackpot ops that the
// fold derives from the records.
//
// # Records
//
// Each record is a typed value (record.go), encoded as strict canonical
// JSON, appended to the log and synced before its effect is used:
//
//   - SetupLevel (jackpot AddLevel; a mystery target is drawn by the caller
//     with jackpot.DrawTarget and carried in the record), SetupShared (a
//     superjackpot level kept in etcd by package jackpot/super), and
//     SetupMachine (machine ID, SAS address, the levels it feeds).
//   - Meters: a reading of a machine's coin-in and games-played meters. The
//     fold contributes the coin-in since the previous reading (one jackpot
//     Contribute op over the machine's local levels, Where = machine, Game =
//     games played) and adds it to its shared levels' coin-in not yet
//     batched, atomically with moving the baseline. The first reading only
//     sets the baseline; a reading equal to the baseline is a repeat; one
//     below it is refused (ErrBackwards). Rebase (who, why) sets a new
//     baseline without contributing, after a RAM clear.
//   - Hit: paytable hits on a level, awarded at once in the order given
//     (jackpot Hit for each claim, then Award, under the level's SecondHit
//     rule, each amount held to what the machine showed, or exactly that
//     when the machine paid it itself: Claim.Paid; the same for a
//     SuperClaim in etcd). Award pays a mystery hit that a reading triggered, with the
//     next target. Confirmed records that the machine acknowledged an award.
//   - Fund and Transfer (who and why required; a transfer moves captive
//     value between local levels, nothing created or lost).
//   - SuperBatch (a batch of coin-in to a shared level, consecutive seqs,
//     recorded before it is sent) and SuperApplied (etcd's answer).
//   - SuperClaim (a machine's hit on a shared level, recorded before the
//     controller sends the claim to etcd) and SuperClaimed (etcd's answer:
//     the amount, the level's hit order, the etcd revision), which makes
//     it an award pending for the machine like a local one.
//   - Event (log repaired, start, stop, notes).
//
// # Exactly once
//
// Money from readings cannot be lost or doubled because a reading carries
// the meter itself, not an increment: the contribution is the difference
// from the baseline, and the baseline moves in the same record. A lost
// reading is covered by the next one; a repeated one differs by nothing.
//
// A hit is identified by (machine, level, game). The state keeps, per
// machine and level, the last awarded game and the awards not yet
// confirmed. A claim for a game that is pending or equal to the last
// awarded is a repeat: the result gives the earlier payout and nothing is
// paid or logged. A claim for an older game is refused (ErrStale). The
// pending awards are in the state, so after a restart of the controller the
// controller knows which machines still have to be told (PendingPayouts);
// after a restart of the machine, its repeated claim returns the same
// payout. Confirmed takes an award off the pending list once; repeating it
// is a no-op.
//
// Super batches are numbered 1, 2, … per shared level, and a batch is
// logged before it is sent, so a retry after a crash resends the same seq
// with the same bet (Unsent) and etcd (package jackpot/super) recognises
// it. SuperApplied must name the oldest unconfirmed batch; an older seq is
// a repeat.
//
// A hit on a shared level is a Hit refused (ErrShared): its pool is in
// etcd, which pays it. The claim, identified by (level, machine, game) as
// etcd identifies it, is logged as a SuperClaim before it is sent, with
// the time, bet and next mystery target that make up what is sent; it
// stays pending (PendingSuperClaims) until a SuperClaimed records etcd's
// answer, so after a crash the controller sends exactly the same claim
// again and etcd answers it as a replay (never a second award). A repeated
// SuperClaim returns the claim recorded, or, once answered, the payout; the
// per (machine, level) game rules of local hits apply (an older game is
// stale). SuperClaimed needs the claim pending and records the answer
// once: the same answer again is a repeat, a different one is refused
// (ErrConflict). Claims of one machine in flight together may be answered
// in any order. The answer becomes the machine's pending payout on the
// shared level (PendingPayouts, Amount in cents), finished by Confirmed as
// for a local level; a machine with a claim unanswered cannot be re-based.
// The money is not in this controller's pools: each shared level keeps a
// tally instead — claims sent, answered, cents awarded, awards and cents
// confirmed — with claims = answered + unanswered, and awarded − confirmed
// = the pending payouts on the level, in number and in cents (State.Check,
// Report.Check).
//
// # Commit
//
// Commit folds the record first, then appends and syncs it, and only then
// lets the state show it: a record the fold refuses is a *Refused and
// nothing is logged and the ledger goes on; a repeat is not logged; a
// failed write, or a record that would break an invariant (a defect, not bad
// input), is a *Fault that stops the ledger, and the state stays at the
// last durable record. (The fold works in place and
// keeps an undo list, a copy of the pools before the first op and the old
// value of every entry it changes; that state is the commit's own, under
// the ledger's lock. View, State and Report read a second state, into
// which a commit folds its logged records once they are durable, under a
// read lock no write or fsync holds: a look never waits for a commit in
// flight, and nothing in between can be seen.) CommitBatch is the group
// commit: many records, one log record, one sync. Every commit checks the
// pools' identity to the millicent with their exact carries, and the
// invariants of what the record touched; start-up checks all of them
// (State.Check).
//
// # Files
//
//	DIR/controller.key   Ed25519 seed (0600), created with the ledger
//	DIR/controller.pub   its public key, hex: the inspector records it
//	DIR/log/             the walog
//	DIR/snapshot-0, -1   the state every SnapshotEvery records (start-up only)
//
// Awards lists every award ever made (the state keeps the last per machine
// and level), for a reconciliation with the cabinets (package
// jackpot/reconcile). Verify checks a directory for an inspector without
// writing to it: the
// log's frames, chain and signatures, and a fold of every record from the
// first. State.Report gives, per level and in total, the liability
// (current + reserve + overflow), contributions, seed funding, awards,
// hits, transfers and the identity seed funding + contributions = awards +
// current + reserve + overflow (local levels only), and per shared level
// the coin-in fed and batched and the claims tally, with the awards and
// claims still pending; SignReport and VerifyReport sign and check its
// canonical JSON document like meterread's signed report.
package ledger
