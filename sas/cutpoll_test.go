package sas

import (
	"bytes"
	"testing"
)

// CutPoll splits a host's stream into its polls: a general poll, a fixed
// long poll, a variable one by its length byte, a ticket system's poll,
// bytes that start nothing known dropped, and a poll not whole yet kept.
func TestCutPoll(t *testing.T) {
	var fixed, variable byte
	for _, c := range SupportedLongPolls() {
		spec, _ := LookupLongPoll(c)
		switch {
		case spec.Variable && variable == 0:
			variable = c
		case !spec.Variable && spec.Length > 2 && fixed == 0:
			fixed = c
		}
	}
	var ticket byte
	for c := 0; c < 256 && ticket == 0; c++ {
		if _, long := LookupLongPoll(byte(c)); long {
			continue
		}
		if _, ok := TicketPollSpec(byte(c)); ok {
			ticket = byte(c)
		}
	}
	// The frames' address and the junk between them are bytes that no
	// table knows as a command, so a resync never reads them as a poll.
	var addr byte
	for c := byte(1); c < GeneralPollBit && addr == 0; c++ {
		_, long := LookupLongPoll(c)
		_, tick := TicketPollSpec(c)
		if !long && !tick {
			addr = c
		}
	}
	if fixed == 0 || variable == 0 || ticket == 0 || addr == 0 {
		t.Fatalf("no fixed (%#x), variable (%#x) or ticket (%#x) poll to test with", fixed, variable, ticket)
	}
	fspec, _ := LookupLongPoll(fixed)
	tspec, _ := TicketPollSpec(ticket)
	vspec, _ := LookupLongPoll(variable)
	mk := func(cmd byte, n int, fill byte) []byte {
		b := bytes.Repeat([]byte{fill}, n)
		b[0], b[1] = addr, cmd
		return b
	}
	general := []byte{GeneralPollBit | addr}
	long := mk(fixed, fspec.Length, 0x11)
	tk := mk(ticket, tspec.Length, 0x22)
	if tspec.Variable {
		tk = append(mk(ticket, tspec.Length, 0x22), 0, 0)
		tk[2] = 2
	}
	vb := append(mk(variable, vspec.Length, 0x33), 0x44, 0x44, 0x44)
	vb[2] = 3
	stream := append(append(append(append(append([]byte{}, general...), addr, addr), long...), tk...), vb...)
	// addr, addr between the polls: a command no table knows, dropped
	want := [][]byte{general, long, tk, vb}
	in := stream
	for i, w := range want {
		f, rest, ok := CutPoll(in)
		if !ok || !bytes.Equal(f, w) {
			t.Fatalf("poll %d: % x, %v; want % x", i, f, ok, w)
		}
		in = rest
	}
	if len(in) != 0 {
		t.Fatalf("left % x", in)
	}
	// A long poll cut short waits for the rest, its bytes kept.
	if f, rest, ok := CutPoll(long[:len(long)-1]); ok || f != nil || !bytes.Equal(rest, long[:len(long)-1]) {
		t.Fatalf("a partial poll: % x, % x, %v", f, rest, ok)
	}
	if _, rest, ok := CutPoll(vb[:2]); ok || len(rest) != 2 {
		t.Fatalf("a variable poll without its length byte: % x, %v", rest, ok)
	}
}
