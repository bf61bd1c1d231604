package ticketsys

import (
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito"
)

// restrictedTicket is a restricted promotional ticket of pool 7 whose
// credits expire on 31 October 2026.
func restrictedTicket(t testing.TB, seq uint32, cents int64) tito.Ticket {
	tk := printed(t, "m1", seq, cents)
	tk.Kind, tk.Pool, tk.Expiry, tk.Until = tito.KindRestricted, 7, 0, time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC)
	return tk
}

// A restricted promotional ticket is never paid by the cashier; a cabinet
// redeems it once, told its pool and expiration date (0x71 code 01), above
// the auto-redemption limit too (it is not money); after its day it is
// expired.
func TestRestrictedTicketOnlyAtACabinetAndOnce(t *testing.T) {
	s := newStore(t, sharedCluster(t), AutoRedeemLimit(100))
	tk := restrictedTicket(t, 1, 2500)
	rec, _, err := s.Issue(ctx(t), tk)
	if err != nil || rec.Kind != tito.KindRestricted || rec.Pool != 7 || rec.Until != 10312026 ||
		rec.Expires != time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).UnixNano() {
		t.Fatalf("issue: %+v %v", rec, err)
	}
	at := t0.Add(time.Hour)
	c, err := s.Redeem(ctx(t), req(tk, "cashier:ana", "c1", at))
	if err != nil || c.Code.Accepts() || c.Phase != Refused || c.Cents != 0 || !strings.Contains(c.Detail, "never paid by the cashier") {
		t.Fatalf("the cashier: %+v %v", c, err)
	}
	if got, _ := s.Get(ctx(t), tk.Validation.Digits()); got.State != Issued {
		t.Fatalf("after the cashier's refusal: %+v", got)
	}
	a, err := s.Authorize(ctx(t), req(tk, "m2", "r1", at))
	if err != nil || a.Code != sas.TransferRestricted || a.Phase != Authorised || a.Cents != 2500 || a.Pool != 7 || a.Until != 10312026 {
		t.Fatalf("at a cabinet: %+v %v", a, err)
	}
	if _, err := s.Commit(ctx(t), "r1", at); err != nil {
		t.Fatal(err)
	}
	for _, r := range []Request{req(tk, "m3", "r2", at), req(tk, "cashier:ana", "c2", at)} {
		again, err := s.Authorize(ctx(t), r)
		if err != nil || again.Code != sas.TransferAlreadyRedeemed {
			t.Fatalf("redeemed again by %s: %+v %v", r.By, again, err)
		}
	}
	late := restrictedTicket(t, 2, 300)
	issue(t, s, late)
	if a, err := s.Authorize(ctx(t), req(late, "m2", "r3", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))); err != nil || a.Code != sas.TransferExpired {
		t.Fatalf("after its day: %+v %v", a, err)
	}
	if a, err := s.Authorize(ctx(t), req(late, "m2", "r4", time.Date(2026, 10, 31, 23, 0, 0, 0, time.UTC))); err != nil || a.Code != sas.TransferRestricted {
		t.Fatalf("on its last day: %+v %v", a, err)
	}
}

// A restricted ticket printed in days gets the date the days end on, for
// the machine that takes it; a restricted record differing in pool is
// another ticket.
func TestRestrictedTicketInDays(t *testing.T) {
	s := newStore(t, sharedCluster(t))
	tk := restrictedTicket(t, 1, 500)
	tk.Until, tk.Expiry = time.Time{}, 30
	rec, _, err := s.Issue(ctx(t), tk)
	if err != nil || rec.Until != 3312026 {
		t.Fatalf("issue: %+v %v", rec, err)
	}
	other := tk
	other.Pool = 8
	if _, _, err := s.Issue(ctx(t), other); err == nil {
		t.Fatal("the same number with another pool recorded as a replay")
	}
}
