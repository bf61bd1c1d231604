package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/openegm/cabinet/tito/titopeer"
)

// Issue 23: the ticket system is the witness of a cabinet's ticket numbers.
// A cabinet restored from a copy (here a new machine under the same name,
// its numbers starting again) prints a ticket number, and a validation
// number, it printed before: "ticketsys run" records the alarm and
// "ticketsys alarms" names the cabinet, the old and the new number and
// validation, exit status 3.
func TestTicketNumbersGoingBackAreAnAlarm(t *testing.T) {
	t.Parallel()
	c := newCasino(t)
	a := c.peer(titopeer.Config{Name: "egm-r"})
	c.run("egm-r")
	waitFor(t, "egm-r configured with 4C", func() bool { return a.Enhanced().Configured() })
	for _, cents := range []int64{100, 200, 300} {
		c.cashout(a, cents)
	}
	last := a.Printed()[2]
	if out, _, code := c.cli("alarms"); code != 0 || out != "" {
		t.Fatalf("alarms before the restore: exit %d %q", code, out)
	}
	// The service stops (the cabinet goes away), the restored cabinet comes.
	s := c.service[0]
	s.Process.Kill()
	s.Wait()
	c.service = c.service[1:]
	r := c.peer(titopeer.Config{Name: "egm-r"})
	c.run("egm-r")
	waitFor(t, "the restored egm-r configured with 4C", func() bool { return r.Enhanced().Configured() })
	r.AddCredits(700)
	if err := r.Cashout(700); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the ticket printed", func() bool { return len(r.Printed()) == 1 })
	again := r.Printed()[0]
	if again.Number >= last.Number {
		t.Fatalf("the restored machine printed %d after %d: the test needs it lower", again.Number, last.Number)
	}
	want := fmt.Sprintf("ALARM: cabinet egm-r ticket number went back from %04d (%s) to %04d (%s)",
		last.Number, last.Validation.Digits(), again.Number, again.Validation.Digits())
	var out string
	var code int
	waitFor(t, "the alarm", func() bool { out, _, code = c.cli("alarms"); return code != 0 })
	if code != 3 || !strings.Contains(out, want) {
		t.Fatalf("alarms: exit %d, want 3 and %q:\n%s", code, want, out)
	}
}
