// Package sas speaks SAS 6.02/6.03 (Slot Accounting System) as the gaming
// machine. Its core is pure and deterministic (no goroutines, no I/O, no
// clock: bytes and the time they arrived are passed in, and what to send
// comes out); the I/O edge lives in port.go, tty_linux.go, tcp.go and
// serve.go, and sas/host is the host side used by cmd/sashost and tests.
//
// The pieces, from the wire up:
//
//   - crc.go: the SAS CRC (CRC-16/KERMIT), plain and seeded.
//   - bcd.go: packed BCD with a fixed digit width (meters roll over there).
//   - frame.go: the poll and reply formats, the long-poll length table, a
//     strict parser for polls and replies, and builders.
//   - framer.go: turns a byte stream into polls, either from a Linux UART in
//     space parity with PARMRK (the wakeup bit marks the address byte) or by
//     content (pseudo-terminals, serial over TCP).
//   - exceptions.go: exception codes with names, and the persistent exception
//     queue with priority exceptions and the overflow rule (each queued
//     exception with its real-time event message).
//   - link.go: the link layer of one machine address: general polls,
//     implied acknowledgement, resend of lost replies, NACK, busy, link
//     loss, chirping and the start-up synchronisation rule. The content of
//     long polls is delegated to a Handler.
//   - meters.go: SAS meter codes with names and the replies to the meter
//     long polls, read from a MeterSource.
//   - records.go: the exceptions a committed ledger record raises;
//     realtime.go: real-time event reporting (0x0E), the event messages
//     (4F bill accepted, 7E game started, 7F game ended) and their data,
//     derived from committed records and the ledger's fold (EventsFor).
//   - bills.go: the bill denomination codes, the euro's country code,
//     0x08 (configure bill denominations) and the 0x48 reply (last
//     accepted bill); features.go: the 0xA0 reply (enabled features).
//   - progressive.go: the SAS progressive broadcasts (0x80, 0x86) and the
//     progressive win replies (0x83, 0x84, 0x85, 0x87). The machine's
//     progressive state (values, the 5 s rule and exception 0x53, hits and
//     exception 0x56) is not kept here but in the cabinet's ledger
//     (machine/link.go), and a hit is reported until it is paid, so a lost
//     acknowledgement can never lose a jackpot (cmd/cabinet/sasport_progressives.go);
//     sas/sastest has a small stand-in for the host's tests. Choice: how a reported hit is paid is the
//     operator's (--link-award). "broadcast", the default, is standard
//     SAS: once the host has received the 0x85/0x87 reply that carried the
//     hit and moved on again, the cabinet pays the value it reported (as
//     the Aristocrat Monaco client awards a linked level on the implied
//     acknowledgement of its LP85 reply); 0x84 then reports that win.
//     "addressed" waits for the link controller's addressed single-level
//     0x80, whose amount is paid if it is not above the value reported for
//     that hit (a larger one is refused and recorded), so the controller
//     can apply its second-hit rule. The 6.02 digest says nothing of an
//     addressed confirmation; it is this project's, for its controller.
//   - wager.go: send wager category information (0xB4): a category's
//     coin-in; the cabinet's category 1 is the coin-in of the bets that
//     could win a linked level, which the link controller feeds from.
//   - handpay.go: the handpay information reply (0x1B); machineinfo.go:
//     the gaming machine information reply (0x1F).
//   - port.go, tty_linux.go, tcp.go: the serial port (termios, space/mark
//     parity for the wakeup bit), pseudo-terminals and TCP, one Port each.
//   - serve.go: the machine's loop on a Port (framing, replies, chirps).
//
// The authoritative description of the protocol for this project is
// ../shared/spec/sas.md. Where it is silent, or marks a detail with (?), the
// choice made here is written in a comment next to the code that makes it,
// starting with "Choice:".
package sas
