// Package aft is the gaming machine's side of SAS 6.02 Advanced Funds
// Transfer (long polls 0x72, 0x73, 0x74) as a pure, deterministic core:
// no clock, no I/O, no goroutines. Time and what the machine is doing
// (Conditions) come in; replies, ledger records and exceptions come out.
// The wire layouts are in package sas (sas/aft.go), the host's side in
// sas/host (aft.go). It imports only sas/metercode, so the ledger
// (meters/) may use its record types directly.
//
// # What it keeps
//
// State is durable: the registration, the current (last committed)
// transfer, the history of up to 127 logged transfers (positions 1–127,
// a ring), the IDs of every older transfer (digests), the host cashout
// state and the AFT meters. It is the fold of
// the committed records (Fold) and serialises to JSON for the ledger
// snapshot. What a power loss ends is outside it: the game lock, a
// transfer between its decision and its commit, the status of a refused request.
//
// # A transfer, exactly once
//
//	d := core.Transfer(req, cond, now)   // 0x72 poll
//	reply d.Reply at once (status 40 pending when d.Record != nil)
//	commit d.Record to the ledger (synced)
//	core.Committed(*d.Record, now)       // → exceptions: 69 (and 6F on lock after transfer)
//
// Until Committed nothing has moved and the host reads 40. A power loss
// in between is resolved at power-up from the ledger: the record is there
// (the transfer happened; the host reads it back) or it is not (it never
// happened; the current transfer the host reads has another ID, and a
// host that sends it again under the same ID gets it done once). A
// transaction ID already committed (current or in the history) is never
// run again: the same request is answered with its recorded result; a
// different request under that ID is refused with 81. There is no
// horizon: an ID that left the history (127 logged transfers) or the
// current transfer (a zero-amount one, which only sets the host cashout
// flags) is kept as a 64-bit digest in State.Retired (IDSet), and any
// request under it is refused with 81, identical or not: its record is
// gone, the ID is not. The fold refuses a record under any ID it holds.
// Choice: SAS lists 81 for any repeated ID; answering an identical
// repeat still in the history with its record tells the host the truth
// in one poll and still never runs it twice.
//
// A refusal moves nothing, produces no record, and becomes the current
// transfer with its status until the next commit; its ID may be used
// again.
//
// # Wiring it into the cabinet (for machine/ and cmd/cabinet)
//
// Ledger records to add (meters/): three types carrying the fields of
// this package's records, or embedding them (every field has a JSON tag):
//
//   - AFTTransfer (aft.Transfer): position 1–127 (0: not logged), ID,
//     code, type, status (00/01), flags, asset, requested and moved
//     amounts (cashable, restricted, non-restricted cents), time,
//     expiration as sent and as resolved, pool ID, receipt status (40 to
//     print, FF none) and the host's receipt data, host cashout state
//     after it, lock timeout, whether a bonus jackpot is paid by
//     handpay (Handpay, set by the machine before it records it), and a
//     debit's POS ID.
//   - AFTRegistration (aft.Registration): status, key, POS ID.
//   - AFTReceipt (aft.Receipt): position and ID of a transfer whose
//     receipt came out of the printer (once: the history then reads 00).
//   - AFTReceiptText (aft.ReceiptTextSet): the texts of every receipt
//     the host set with 0x75 (receiptdata.go).
//
// The ledger's fold gives these, in order, to Fold (or State.Apply); a
// returned ErrRecord (an ID twice, a position out of turn) is a damaged
// ledger: stop play. The same records move the machine's meters:
//
//   - credits: Credits.Apply(transfer) is the one definition (in,
//     in-house or debit: added by kind; bonus coin-out: a win, added as cashable; to host:
//     subtracted; to ticket and bonus jackpot: unchanged). Bets take restricted first, then non-restricted, then
//     cashable (Credits.Wager, whose Amounts also feed meters 0x19
//     restricted and 0x1A non-restricted played); Credits.Expire drops
//     expired restricted money: check it at power-up and before each
//     game with the machine's clock, and record the amount removed (the
//     credit equation needs a term for it; SAS has no meter). Meter 0x0C current credits (and long poll
//     1A) is the total, meter 0x1B current restricted credits the
//     restricted part.
//   - 0x17 and 0x18 and the AFT meters 0xA0–0xBD: State.Meters, every
//     one in cents (counts for the count codes). 0x17 and 0x18 are SAS
//     credit meters: answer them converted as the cabinet's other credit
//     meters are; A0–BD are cents meters, as they are. Meters() lists
//     the codes it keeps, named by sas/metercode's table.
//   - a bonus is a win, not a transfer (SAS 8.5): type 10 also adds to
//     0x1E machine-paid external bonus and 0x01 coin out; so does type
//     11 below the machine's handpay limit, and at or above it the
//     machine pays it by a handpay lockup of its amount (Transfer.Handpay;
//     0x21 attendant-paid external bonus and 0x02 jackpot when reset); a
//     machine that cannot lock up for it leaves Config.BonusJackpot off
//     and type 11 is refused (82).
//   - type 20 prints a ticket of the moved amount: ticket-out meters, and
//     the ticket's validation as for any cash-out ticket.
//   - a debit (type 40) is cashable money in, as an in-house cashable
//     transfer is for the credits and 0x17; the AFT fold meters it on A6
//     and A7 (debit transfers to machine), never on A0. Its record
//     carries the POS ID of the registration it was made under
//     (Transfer.POSID): the fold refuses a debit without a registration
//     with a key, at another POS, or of promotional money.
//
// The SAS port (cmd/cabinet/sasport.go) answers polls without waiting for
// the owner, so the Core fits there, under the port's mutex, with the
// machine's conditions from the snapshot it already publishes:
//
//   - Order: the owner commits the records the port hands it in the order
//     it handed them (one queue). The core answers from what it handed
//     out (a registration at once, a transfer as pending) and Committed
//     refuses a record out of that order with ErrNotPending.
//   - 0x72: q, err := sas.DecodeAFTTransfer(data). On an *sas.AFTError
//     reply sas.EncodeAFTTransferReply(aft.TransferReply{Status:
//     e.Status, At: now}) (the host learns why; it is not recorded and
//     does not become the current transfer). Otherwise d :=
//     core.Transfer(q, cond, now), reply sas.EncodeAFTTransferReply(d.Reply);
//     when d.Record != nil, order it to the owner, which runs
//     aft.Recheck(rec, its live conditions) and commits the AFTTransfer
//     record in the same step (or, when Recheck fails, tells the port,
//     which calls core.Abandon(rec, status, now)). After the commit is
//     published the port calls core.Committed(rec, now) and queues the
//     exceptions it returns.
//   - 0x73: reply, rec := core.Register(q) (a decode error: no reply);
//     reply at once, order rec when non-nil, call core.Committed(*rec,
//     now) after its commit. From the reply on, the core answers 73, 72
//     and 74 with that registration (a host sends 00 and 01 back to back
//     and may transfer at once); core.State() moves only at Committed.
//     A power loss before the commit drops it: the host's next transfer
//     is refused (88 not registered, or 89 key mismatch) and it registers
//     again; no money depends on it. The operator's acknowledgement (a
//     service menu action) is rec := core.OperatorAcknowledge(), ordered
//     and committed the same way (6D comes from Committed).
//   - 0x74: reply, exc := core.Lock(q, cond, now); the lock holds play:
//     while core.Locked() the machine starts no game and shows "please
//     wait" (an order to the owner, like 0x01/0x02). core.Tick(cond,
//     now) on every poll moves a pending lock on, ends a lapsed one and
//     repeats 6F every 5 s.
//   - frame.go's long-poll table gains sas.AFTLongPolls (72 and 73 with a
//     length byte, 74 fixed at 8 bytes), so the port frames them (the
//     host side, sas/host, already reads the replies by their length
//     byte).
//   - 0xA0 enabled features: Feature2AFT, and Feature1AFTBonusAwards when
//     Config.Bonus.
//   - 0x74's AFT status: bit 6 "debit transfers enabled" is Config.Debit
//     (the operator's setting); "transfer to machine available" is set
//     for debit only once a host is registered with a key and a POS ID.
//
// Exceptions: 69 when a transfer completes (Committed); 6F when the lock
// is granted and every 5 s while held (Lock, Tick, Committed); 6D when the
// operator acknowledges a registration; 6A (with 66, cash-out button)
// when the player cashes out and HostCashoutWanted says the host takes
// it. A published SAS exception table marks 69, 6A, 6B, 6C, 6D and 6F as
// priority exceptions; sas/exceptions.go has only 6F among its priority
// flags.
//
// At power-up: st := the ledger's AFT state (snapshot or Fold), core :=
// aft.New(cfg, st); print the receipts of core.ReceiptDue() and commit an
// AFTReceipt for each (the ledger drives the devices). Receipts are laid
// out and drawn by package aft/receipt.
//
// # Choices where SAS 6.02 (as publicly described) is silent
//
//   - A cancel (80) cannot take back a transfer already handed to the
//     ledger: it is answered with the current transfer's status.
//   - Transfers are refused (87) during a game, a handpay, a tilt or
//     while disabled; bonuses too (SAS allows escrowing them).
//   - Partial transfers in fill cashable first, then restricted, then
//     non-restricted; a partial transfer that could move nothing is
//     refused (84 in, 83 out). Full transfers out of more than the
//     machine holds are refused with 83.
//   - Restricted money keeps the later of two expirations; an expiration
//     in days is resolved to a date when the transfer is decided.
//   - A win to the host (90) meters as in-house cashable out (B8/B9).
//   - A lock request with timeout 0 is answered "not locked".
//
// Debit transfers (SAS 8.1: the host registers with a non-zero key and a
// non-zero POS ID before any debit; 8A is "no POS ID"):
//
//   - A debit to the machine (40) is accepted only with Config.Debit, from
//     a registered host whose key is not zero, under that key, with a
//     POS ID: otherwise 82 (debit off), 88 (not registered, or
//     registered without a key), 89 (another key, a zero key included)
//     or 8A (no POS ID). With Config.RequireRegistration
//     off a zero key still spares in-house transfers the registration;
//     a debit never.
//   - A debit is cashable money: a restricted or non-restricted amount
//     is refused with 83, as the other amounts a type cannot carry are.
//     (Choice: 83 names the amount; a SAS client we read answers 82.)
//   - A debit is an in-house transfer with those checks and other meters:
//     the same decision, commit, exactly-once by ID, history, limits
//     (84 over the transfer or credit limit) and partial transfers.
//   - Receipts: SAS (as publicly described) lists debit among the three
//     receipt types and does not require one, so the host chooses. A
//     debit receipt prints the POS ID and the card's last digits instead
//     of the patron (8.11.2), so a receipt asked for without the card
//     (8.3f code 41) is refused with 91 (insufficient data); it prints the
//     fee (42) and the total debited (43, or the transfer and the fee).
//   - Debit to a ticket (60) is refused as not a valid function (82): the
//     cabinet prints no ticket for in-house transfers either (type 20 is
//     in the core but not offered by the cabinet), so there is no ticket
//     path to share, and a debit ticket needs its own title (0x7C) and
//     meters (AC, AD).
package aft
