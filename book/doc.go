// Package book is the one ledger framework (DESIGN rule 11): every durable
// account of the project — the cabinet's meters (meters), the link
// controller's pools (jackpot/ledger), and later the table server and the
// ticket system — is typed records folded by a pure function, kept with the
// same code for what is not particular to it:
//
//   - the log (book/walog: framed, hash-chained, signed checkpoints);
//   - the signing key, taken from a key store apart from the data (KeyStore;
//     a board's secure element can stand behind the same crypto.Signer);
//   - seals: every so many records, a signed record of the digest of the
//     folded state (Seal), and a snapshot beside it that start-up uses only
//     if its digest is the sealed one: a snapshot is a cache that the log
//     vouches for, never evidence (DESIGN rule 10);
//   - the witness: the head of the log (sequence number and chain hash) kept
//     outside the data directory after every commit, so that a data
//     directory replaced by an older copy of itself is evident at start-up
//     (Witness);
//   - verification for the inspector (Verify): every frame, the chain, every
//     checkpoint and seal signature against the key registered at
//     commissioning, and a fold of every record from the first, compared
//     with every seal and with the snapshots;
//   - signed documents (SignDocument, VerifyDocument): the reports.
//
// A ledger supplies its state (State: how a logged record folds, its
// invariants, its canonical encoding) and decides what a refused record
// means for it; Book appends, seals, snapshots and replays.
package book
