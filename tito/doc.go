// Package tito is the ticket of ticket-in ticket-out as the cabinet prints
// it and the casino's system validates it: validation numbers in the three
// SAS 6.02 styles (validation.go), the printed ticket with its amount in
// words in Portuguese and English (ticket.go, words.go), its interleaved
// 2-of-5 barcode (barcode.go) and its picture (render.go).
//
// It is pure: no I/O, no clock. The time a ticket was printed is a field
// the caller fills in; rendering writes to the io.Writer it is given.
//
// The ticket system that records and redeems tickets across a casino is
// package tito/ticketsys; a lightweight SAS gaming machine that prints and
// redeems tickets, for tests and benchmarks of that system, is
// tito/titopeer.
package tito
