// Package ticketsys is the casino's ticket system: every ticket a cabinet
// prints is recorded once, and redeemed once, across all the cabinets and
// the cashier, in an etcd cluster (the distributed store the superjackpot
// already uses).
//
// # Keys
//
// Every key starts with the system's prefix P (for example
// "/casino/tickets/"):
//
//	P t/<digits>   Ticket (JSON): a printed ticket, its state and history
//	P r/<id>       Redemption (JSON): the answer given to redemption <id>
//	P h/<cabinet>/<id>  the digits of the ticket held for <cabinet> by
//	               redemption <id>, while it is held (an index, written and
//	               deleted in the hold's own transactions)
//	P c/<cabinet>  the cabinet's secure-enhanced validation ID (the service)
//	P v/<ID>       the cabinet (its name) that validation ID <ID> (6
//	               hexadecimal digits) was given to: written with c/ in one
//	               transaction that requires both absent, so that no two
//	               cabinets given an ID here share it
//	P n/<cabinet>  the last ticket number (and its digits) the cabinet
//	               reported (the service)
//	P a/<cabinet>/<ns>  SequenceAlarm (JSON): a ticket of the cabinet whose
//	               number went back (its data restored from a copy, or
//	               cleared): the system is the witness the cabinet cannot
//	               roll back
//
// <digits> is what the barcode carries (tito.Validation.Digits): 18 digits
// for secure-enhanced and system numbers, 8 for standard ones.
//
// # Exactly once
//
// Every change is one etcd transaction that requires the keys it read not
// to have changed since (their mod revisions), so two cabinets that redeem
// one ticket at the same moment cannot both win: one transaction commits,
// the other reads the state that won and is refused. A redemption names
// its cabinet (or cashier) and carries a redemption ID; its answer is
// written under P r/<id> in the same transaction, so a repeat of the same
// ID (after a crash of the redeemer, a lost reply, a retried etcd request
// whose outcome was unknown) returns the recorded answer and changes
// nothing.
//
// # Round trips
//
// The store decides each step on its guess of the keys it touches (what it
// last wrote or read there; a key it never saw is guessed absent) and
// writes conditional on the guessed revisions; a decision that writes
// nothing is checked by the same comparisons alone. A guess that is no
// longer true loses its comparison, and the same transaction reads the
// keys (its Else branch), so the store decides again on what etcd holds
// without another request. A ticket issued is one round trip, and a
// redemption at a cabinet two (authorise, commit), when the store issued
// the ticket or saw it last; one more when another ticket system did
// (Follow keeps the guesses from etcd's watch of the tickets, at the cost
// of every ticket write's event).
//
// Concurrent steps share their round trip (group commit): one etcd
// transaction carries up to 120 of them, each a nested transaction with
// its own comparisons (etcd 3.3 or later), so one stale or refused ticket
// fails alone and the others are applied. No two steps on one key share a
// batch (etcd refuses a transaction that writes a key twice): the later
// waits for the next, and decides on the first's write. Each caller is
// answered when its batch's transaction has returned, that is when it is
// committed by the cluster; an answer lost in a batch is an unknown
// outcome, and the same call again (same redemption ID) returns what etcd
// recorded.
//
// # Two phases
//
// A cabinet redeems in two phases, as SAS does: Authorize puts the ticket
// on hold for that cabinet and redemption (SAS transfer code 00 to the
// machine); Commit, when the machine reports the credit (exception 0x68,
// status 00 in 0x71 FF), makes it redeemed; Release, when the machine
// reports that it rejected the ticket or timed out (a 0x71 status 80–8B),
// puts it back so it can be redeemed again. A hold is never released by
// the clock: a machine that was told to credit may have credited, so only
// its own status may free the ticket (the service asks it with 0x71 FF).
// The cashier redeems in one phase (Redeem).
//
// # One presentation, one authorisation
//
// An authorisation belongs to one presentation of the ticket at one
// cabinet, identified by the cabinet's count of tickets redeemed as it
// presented it (SAS 0x50 types 80 and 81, Request.Seq, kept in the hold).
// While the ticket waits for its answer nothing else can be credited
// there, and every authorisation the service gives a cabinet first
// resolves the holds it has there, so the count alone tells whether the
// cabinet credited a hold: moved, it did (Commit); not moved, it did not
// (Release, or, for the ticket in its validator now, the same
// authorisation given again: it can credit it once). The status 0x71 FF
// reports cannot tell: a copy of the ticket put in the validator right
// after the credit makes it report the copy, waiting, and never the
// credit. So a copy presented while the original's redemption is pending
// is refused (already redeemed), whether the service was polling or away,
// and the one credit is committed. A hold kept without a count (recorded
// before it was kept, or a cabinet that does not report it) refuses every
// further presentation of its ticket at that cabinet (pending), and is
// settled by the status, as before.
//
// The service knows its cabinet's holds without reading them: it wrote
// them last. So a presentation is the end of the hold before (by the
// count) and the new authorisation, each a transaction conditional on the
// cabinet holding no other ticket (its hold index has no other key), and
// on the ticket's revision as every step: 2 round trips, or 1 when the
// next ticket is presented before the end of the one before was read (a
// stack of tickets: both in one transaction, all or nothing). A hold that
// appeared there otherwise (another ticket system, a service before a
// restart) fails the condition, and the service reads the holds and
// decides on them, as at its start.
//
// # Handpays
//
// A handpay the cabinet validated is recorded too: with its receipt
// printed (tito.KindHandpayReceipt) it is the cashier's to pay, never a
// cabinet's; validated without one (tito.KindHandpay) it was paid by the
// attendant at the machine, and is recorded redeemed at once, so that
// nothing pays it again.
//
// # Restricted promotional tickets
//
// A restricted ticket a cabinet printed (0x4D validation type 01,
// tito.KindRestricted) is recorded with its pool and the date its credits
// expire. It is promotional credit, never money: only a cabinet redeems
// it, in the same two phases, told to credit it as restricted credits of
// that pool (SAS transfer code 01, with the pool ID and expiration); the
// cashier's Redeem refuses it, and no auto-redemption limit applies to it.
// A cabinet that cannot take it (restricted credits of another pool on its
// meter: status 87) releases the hold, and the ticket stays good.
//
// # Time
//
// No decision takes the time from a clock: every operation carries its
// time (At), from the caller, and expiry is judged at that time.
package ticketsys
