// Package poker is the pure core shared by the card tables the table server
// runs: the non-banked poker tables, synthetic poker (poker/synthetic,
// Portaria 817/2005) and Texas hold'em (poker/holdem, the SRIJ online draft
// of 2015), and the banked chemin de fer (poker/chemin). It has no clock, no
// I/O and no randomness of its own: the table engines step on events that
// carry the time, draw cards from an injected certified RNG, and emit
// records.
//
//   - Core: what every table family has (seats, the step with its
//     conservation check and stop for good, the decision timer, the records
//     and their history, the events' dispatch); Base adds the poker hand.
//   - Seats: the players at a table, their chips, buy-ins, re-buys, fees,
//     cash-outs and session totals, and the chip-conservation invariant.
//   - Hand: the players of a hand, a betting round with every legal action
//     and its bounds (Options, Apply), uncalled bets, side pots (Pots) and
//     their award with a game's rake and split rule (Award).
//   - Record: what a table emits; a hand's records are its history, and
//     Replay rebuilds the table from them step by step for the player's
//     replay of the last hands.
//
// Money is integer cents everywhere. docs/poker.md is the specification:
// every rule of the originals, by number, and every choice made where they
// are silent.
package poker
