// Package jackpot keeps the accounting of progressive prize pools
// (regulation rules 3 to 6): local jackpots fed by one cabinet and
// superjackpots fed by a group of cabinets through the link controller.
//
// The package is a pure, deterministic state machine. A Pools value holds
// levels; it changes only through Apply(op), where op is one of the typed
// records AddLevel, Contribute, Hit, Award, Transfer and Fund. Apply never
// reads a clock, never does I/O and never draws a random number: time comes
// in the op (At, unix nanoseconds) and the one random quantity, a mystery
// level's hit value, is drawn by the caller with DrawTarget and carried in
// the op that needs it. The ledger logs each op (MarshalOp) before it is
// applied; replaying the logged ops on an empty Pools gives the same state,
// byte for byte (MarshalBinary). An op is applied entirely or not at all:
// on error the state is unchanged.
//
// # Units
//
//   - Amounts (values, meters, reset, cap, transfers, funding) are int64
//     millicents: 1 cent = 1000 millicents. Reset values, caps, mystery
//     targets and operator funding must be whole cents.
//   - Bets are int64 cents (the caller converts credits with the
//     denomination). Hits is a count.
//   - Rates are parts per million (ppm) of the qualifying bet:
//     250 ppm = 0.025 %, 1_000_000 ppm = 100 %. Rate + HiddenRate <= 1e6.
//   - Times are int64 unix nanoseconds, stored as given.
//
// # Rounding: where every fraction goes
//
//   - Contribution. A bet of b cents at r ppm is worth b*r/1000 millicents
//     exactly. Each level keeps a carry per rate (main and hidden) in units of
//     1/1000 millicent: contribution = (b*r + carry) / 1000 millicents, and
//     the new carry is the remainder. Nothing is rounded away; at every commit
//     QualifyingBets*Rate = (Contributions-HiddenContributions)*1000 + carry
//     exactly, and likewise for HiddenRate (Check verifies it).
//   - Award. The cabinet pays in cents, so an award is the value floored to
//     whole cents; the sub-cent remainder (< 1000 millicents) goes to the
//     level's reserve, which funds the next reset.
//   - Split. Under SplitAmount each of n claimants gets floor(cents/n) whole
//     cents; the leftover cents (< n) and the sub-cent remainder go to the
//     reserve.
//   - Mystery target. Drawn uniformly among the whole-cent amounts in
//     [ResetValue, Cap], i.e. ResetValue + 1000*U{0..(Cap-ResetValue)/1000}.
//   - Display. DisplayCents and Cents floor millicents to cents. Nothing in
//     this package uses floating point.
//
// # Where money goes
//
// The main rate feeds the current value, up to the cap (a level without a cap
// has no limit); the part above the cap goes to the overflow meter. The hidden
// rate feeds the reserve. While a level has unconfirmed hits (between Hit and
// Award) its current value is frozen for the winners, and the whole
// contribution goes to the reserve. On a mystery level the contribution that
// brings the current value to its target triggers the hit: the current value
// is filled to the target exactly and the rest of that contribution goes to
// the reserve, so the hit value is the drawn target and is never above the
// cap.
//
// When a level resets (Award), the overflow is moved into the reserve, and the
// new current value, exactly ResetValue, is taken from the reserve; any
// shortfall is seed funding by the operator. AddLevel seeds a new level to
// its reset value the same way; Fund lets the operator put money into the
// reserve in advance (also counted as seed funding).
//
// For every level, at every commit, to the millicent:
//
//	SeedFunding + Contributions + TransferredIn
//	    = Awarded + Current + Reserve + Overflow + TransferredOut
//
// and over all levels transfers cancel (sum of TransferredIn = sum of
// TransferredOut), so for the pools as a whole
//
//	SeedFunding + Contributions = Awarded + Current + Reserve + Overflow.
//
// Meters.Identity computes both sides, exactly, for the pools' checks and
// for every report that shows them (the link controller's, the
// inspector's).
//
// # Hits
//
// A paytable level is hit by a Hit op (the cabinet evaluated the progressive
// combination at a bet of at least MinHitBet). A mystery level is hit by the
// Contribute op that reaches its target; the Result reports it. Either way
// the hit is a pending claim until an Award op (the reset confirmation) pays
// it and resets the level. A second Hit on the same level before the Award is
// handled by the level's SecondHit rule: SecondHitWinsReset (the first claim
// wins the value, each later claim wins the reset value, one reset after the
// other) or SplitAmount (the value is split equally between all claims).
//
// # Transfers
//
// Values that cannot be awarded (rule 6) are moved by Transfer, which names
// who, when and why: the chosen amounts (or all) of the source's current
// value, reserve and overflow go to the destination's current value (up to
// its cap, or for a mystery level to just below its target) and the rest to
// its reserve. The transfer is counted in TransferredOut and TransferredIn
// and kept in the audit list (Transfers). With Close, the emptied source
// level is closed for good.
package jackpot
