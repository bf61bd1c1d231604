// Package baccarat is the game math of Makccarat, the baccarat variant of
// the Macau dispatch of 3 July 2007 that the cabinet deals as its table
// game: the drawing rules of both alternatives, the bets and commissions in
// exact cents, the certified table definition (strict loader, signature,
// 80% rule), the exact figures and the simulator. docs/makccarat.md is the
// specification; this package implements it once:
//
//   - Alternative.Deal draws a hand's cards from a freshly shuffled shoe with
//     the certified RNG (cards.Shoe: partial Fisher–Yates, exact ranges).
//   - Definition.Play is the pure function the cabinet and recall call:
//     cards and stakes in, the outcome and every spot's payout out.
//   - Definition.Exact enumerates every hand over card values with their
//     counts (pairs split by rank) and pays each kind of hand with the same
//     settle function Play uses.
//   - Definition.Simulate deals hands with Deal, Evaluate and Settle.
package baccarat
