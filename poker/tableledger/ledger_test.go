package tableledger

import (
	"crypto/ed25519"
	"crypto/rand"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/synthetic"
	"github.com/openegm/cabinet/poker/tabledef"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

const holdemDef = `{"id": "t-nl", "version": 1, "game": "holdem", "title": {"pt": "T", "en": "T"},
  "table": "1", "seats": 6, "min_bet_cents": 100, "initial_cave_cents": 5000, "min_rebuy_cents": 1000,
  "structure": "no_limit", "rake_bps": 500, "decision_seconds": 10}`

const feeDef = `{"id": "t-fee", "version": 1, "game": "holdem", "title": {"pt": "T", "en": "T"},
  "table": "2", "seats": 6, "min_bet_cents": 100, "initial_cave_cents": 5000, "min_rebuy_cents": 1000,
  "structure": "pot_limit", "fee_bps": 1000, "decision_seconds": 10}`

// driver plays a table the way the server does: every step through a
// Session, committed to the ledger.
type driver struct {
	t    *testing.T
	dir  string
	keys book.KeyStore
	l    *Ledger
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
	s    *Session
	now  time.Time
	n    int
}

func newDriver(t *testing.T) *driver {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	d := &driver{t: t, dir: t.TempDir(), pub: pub, priv: priv, now: time.Date(2026, 5, 1, 20, 0, 0, 0, time.UTC)}
	d.keys = book.FileKeys{Dir: filepath.Join(t.TempDir(), "board")}
	d.reopen()
	return d
}

func (d *driver) reopen() {
	d.t.Helper()
	if d.l != nil {
		d.l.Close()
	}
	l, _, err := Open(d.dir, Options{Keys: d.keys, SealEvery: 7, CheckpointEvery: 5})
	if err != nil {
		d.t.Fatal(err)
	}
	d.l = l
}

func (d *driver) open(table, def string) {
	d.t.Helper()
	session := 1
	d.l.View(func(s *State) {
		if t := s.Tables[table]; t != nil {
			session = t.Session + 1
		}
	})
	data := []byte(def)
	o := SessionOpen{Table: table, Session: session, At: d.now, Definition: data, Signature: reels.Sign(d.priv, data),
		Digest: tabledef.Digest(data), KeyID: reels.KeyID(d.pub)}
	rec, err := d.l.Commit(o)
	if err != nil {
		d.t.Fatal(err)
	}
	if d.s, err = SessionOf(o, rec.Seq, rng.NewSeeded(11)); err != nil {
		d.t.Fatal(err)
	}
}

// step steps the engine and commits what it did; it fails the test on a
// refusal.
func (d *driver) step(ev poker.Event, tr *Transfer) []poker.Record {
	d.t.Helper()
	st, recs, err := d.s.Step(ev, tr)
	if err != nil {
		d.t.Fatalf("%T: %v", ev, err)
	}
	if st != nil {
		if _, err := d.l.Commit(*st); err != nil {
			d.t.Fatal(err)
		}
	}
	return recs
}

func (d *driver) later() time.Time {
	d.now = d.now.Add(time.Second)
	return d.now
}

func (d *driver) join(player string, seat int) {
	d.t.Helper()
	d.n++
	amount := d.s.Engine.RequiredCave()
	d.step(poker.Join{At: d.later(), Player: player, Seat: seat, Amount: amount},
		&Transfer{ID: player + "-in", Kind: BuyIn, Source: "cab:" + player, Player: player, Amount: amount})
}

func (d *driver) leave(player, id string) []poker.Record {
	d.t.Helper()
	return d.step(poker.Leave{At: d.later(), Player: player}, &Transfer{ID: id, Kind: CashOut, Source: "cab:" + player, Player: player})
}

// callDown plays the hand in play to its end, everyone checking or calling.
func (d *driver) callDown() {
	d.t.Helper()
	for {
		v := d.s.Engine.View("")
		if v.ToAct == 0 {
			return
		}
		var id string
		for _, sv := range v.Seats {
			if sv.Seat == v.ToAct {
				id = sv.Player
			}
		}
		kind := poker.Call
		if d.s.Engine.View(id).Options.Check {
			kind = poker.Check
		}
		d.step(poker.Act{At: d.later(), Player: id, Action: poker.Action{Kind: kind}}, nil)
	}
}

func TestLedgerFoldsAndVerifiesASession(t *testing.T) {
	d := newDriver(t)
	d.open("nl", holdemDef)
	for i, p := range []string{"ana", "bia", "caio"} {
		d.join(p, i+1)
	}
	for range 4 {
		d.step(poker.Deal{At: d.later()}, nil)
		d.callDown()
	}
	d.step(poker.Deal{At: d.later()}, nil)
	d.step(poker.Act{At: d.later(), Player: d.toAct(), Action: poker.Action{Kind: poker.Raise, To: 300}}, nil)
	// bia asks to leave during the hand: her cash-out waits for its end.
	d.leave("bia", "bia-out")
	d.l.View(func(s *State) {
		if tr := s.Transfers["bia-out"]; tr == nil || tr.Done {
			t.Fatalf("bia's cash-out during the hand: %+v", tr)
		}
	})
	d.callDown()
	var stack int64
	d.l.View(func(s *State) {
		tr := s.Transfers["bia-out"]
		if tr == nil || !tr.Done || s.Tables["nl"].Players["bia"] != nil {
			t.Fatalf("bia's cash-out after the hand: %+v", tr)
		}
		stack = tr.Amount
		if s.Sources["cab:bia"].Out != stack || s.Sources["cab:bia"].In != 5000 {
			t.Fatalf("bia's source %+v", s.Sources["cab:bia"])
		}
	})
	d.leave("ana", "ana-out")
	d.leave("caio", "caio-out")
	if _, err := d.l.Commit(SessionClose{Table: "nl", Session: 1, At: d.later(), Reason: "empty"}); err != nil {
		t.Fatal(err)
	}
	var want Meters
	d.l.View(func(s *State) { want = s.Tables["nl"].Meters })
	if want.Hands != 5 || want.Rake == 0 || want.PaidIn != 15000 || want.PaidIn != want.PaidOut+want.Rake {
		t.Fatalf("meters %+v", want)
	}
	d.reopen() // from the snapshot and the log
	d.l.View(func(s *State) {
		if s.Tables["nl"].Meters != want || s.Tables["nl"].Open {
			t.Fatalf("reopened: %+v", s.Tables["nl"])
		}
	})
	lpub := d.l.PublicKey()
	d.l.Close()
	v, err := Verify(d.dir, lpub, []ed25519.PublicKey{d.pub})
	if err != nil || !v.OK || v.Sessions != 1 || v.Steps == 0 || v.State.Tables["nl"].Meters != want {
		t.Fatalf("verify: %+v %v", v, err)
	}
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	if v, _ := Verify(d.dir, lpub, []ed25519.PublicKey{other}); v.OK || !strings.Contains(strings.Join(v.Problems, "\n"), "(signature)") {
		t.Fatalf("a definition signed by an untrusted key: %+v", v.Problems)
	}
}

func (d *driver) toAct() string {
	v := d.s.Engine.View("")
	for _, sv := range v.Seats {
		if sv.Seat == v.ToAct {
			return sv.Player
		}
	}
	return ""
}

// The fold recomputes the money of every record: a step whose money does
// not add up is refused, is not logged, and stops the ledger.
func TestFoldRefusesMoneyThatDoesNotAddUp(t *testing.T) {
	for _, c := range []struct {
		name string
		def  string
		edit func(st *Step) bool // false: not this step
		want string
	}{
		{"a cent more rake", holdemDef, func(st *Step) bool {
			for i, r := range st.Records {
				if r.Kind == poker.KindAward && len(r.Shares) > 0 {
					st.Records[i].Rake++
					st.Records[i].Shares[0].Amount--
					return true
				}
			}
			return false
		}, "raked"},
		{"a share that pays a cent more", holdemDef, func(st *Step) bool {
			for i, r := range st.Records {
				if r.Kind == poker.KindAward {
					st.Records[i].Shares[0].Amount++
					return true
				}
			}
			return false
		}, "pays"},
		{"a fee below the rate", feeDef, func(st *Step) bool {
			for i, r := range st.Records {
				if r.Kind == poker.KindJoin {
					st.Records[i].Fee--
					st.Records[i].Stack++
					return true
				}
			}
			return false
		}, "fee of 499"},
		{"a join without its transfer", holdemDef, func(st *Step) bool {
			if st.Transfer == nil || st.Transfer.Kind != BuyIn {
				return false
			}
			st.Transfer = nil
			return true
		}, "without a transfer"},
		{"a buy-in of another amount", holdemDef, func(st *Step) bool {
			if st.Transfer == nil || st.Transfer.Kind != BuyIn {
				return false
			}
			st.Transfer.Amount++
			return true
		}, "transfer"},
		{"a bet the stack does not cover", holdemDef, func(st *Step) bool {
			for i, r := range st.Records {
				if r.Kind == poker.KindPost {
					st.Records[i].Amount = 1_000_000
					return true
				}
			}
			return false
		}, "puts in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDriver(t)
			d.open("x", c.def)
			edited := false
			play := func(ev poker.Event, tr *Transfer) {
				st, _, err := d.s.Step(ev, tr)
				if err != nil {
					t.Fatal(err)
				}
				if st == nil {
					return
				}
				if !edited && c.edit(st) {
					edited = true
					_, err := d.l.Commit(*st)
					if err == nil || !strings.Contains(err.Error(), c.want) {
						t.Fatalf("%v, want %q", err, c.want)
					}
					if _, err := d.l.Commit(ServerEvent{At: d.now, Code: EventStop}); err == nil {
						t.Fatal("the ledger goes on after a refused record")
					}
					return
				}
				if _, err := d.l.Commit(*st); err != nil {
					t.Fatal(err)
				}
			}
			for i, p := range []string{"ana", "bia"} {
				amount := d.s.Engine.RequiredCave()
				play(poker.Join{At: d.later(), Player: p, Seat: i + 1, Amount: amount}, &Transfer{ID: p, Kind: BuyIn, Source: "s", Player: p, Amount: amount})
				if edited {
					return
				}
			}
			play(poker.Deal{At: d.later()}, nil)
			for !edited {
				id := d.toAct()
				if id == "" {
					t.Fatal("no record was edited")
				}
				kind := poker.Call
				if d.s.Engine.View(id).Options.Check {
					kind = poker.Check
				}
				play(poker.Act{At: d.later(), Player: id, Action: poker.Action{Kind: kind}}, nil)
			}
		})
	}
}

// A void gives back exactly what each player staked in the hand.
func TestFoldChecksAVoid(t *testing.T) {
	d := newDriver(t)
	d.open("nl", holdemDef)
	d.join("ana", 1)
	d.join("bia", 2)
	d.step(poker.Deal{At: d.later()}, nil)
	d.step(poker.Act{At: d.later(), Player: d.toAct(), Action: poker.Action{Kind: poker.Raise, To: 700}}, nil)
	st, _, err := d.s.Step(poker.Resume{At: d.later()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	bad := *st
	bad.Records = append([]poker.Record(nil), st.Records...)
	bad.Records[0].Shares = append([]poker.Share(nil), st.Records[0].Shares...)
	bad.Records[0].Shares[0].Amount++
	l2 := d.l
	if _, err := l2.Commit(bad); err == nil || !strings.Contains(err.Error(), "void of hand 1 gives seat") {
		t.Fatalf("a void that gives a cent more: %v", err)
	}
	d.reopen()
	if _, err := d.l.Commit(*st); err != nil {
		t.Fatal(err)
	}
	d.l.View(func(s *State) {
		tb := s.Tables["nl"]
		if tb.Meters.Voided != 1 || tb.Players["ana"].Stack != 5000 || tb.Players["bia"].Stack != 5000 || tb.Hand != 0 {
			t.Fatalf("after the void %+v", tb)
		}
	})
}

// The verifier re-runs the engines: a step whose draws were changed (other
// cards dealt than the records say) is named, though its money adds up.
func TestVerifyReplaysTheEngines(t *testing.T) {
	d := newDriver(t)
	d.open("nl", holdemDef)
	d.join("ana", 1)
	d.join("bia", 2)
	st, _, err := d.s.Step(poker.Deal{At: d.later()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Draws[0] = (st.Draws[0] + 1) % 52
	if _, err := d.l.Commit(*st); err != nil {
		t.Fatal(err)
	}
	lpub := d.l.PublicKey()
	d.l.Close()
	v, err := Verify(d.dir, lpub, []ed25519.PublicKey{d.pub})
	if err != nil || v.OK || !strings.Contains(strings.Join(v.Problems, "\n"), "the engine's records differ") {
		t.Fatalf("%+v %v", v, err)
	}
}

func TestTransferIDsAreUsedOnce(t *testing.T) {
	d := newDriver(t)
	d.open("nl", holdemDef)
	d.join("ana", 1)
	st, _, err := d.s.Step(poker.Join{At: d.later(), Player: "bia", Seat: 2, Amount: 5000},
		&Transfer{ID: "ana-in", Kind: BuyIn, Source: "cab:bia", Player: "bia", Amount: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.l.Commit(*st); err == nil || !strings.Contains(err.Error(), `transfer "ana-in" applied twice`) {
		t.Fatalf("%v", err)
	}
}

// A pó carried when the players leave goes to the last of them, less the
// house's 3%: the ledger checks every cent of it, the verifier re-runs it,
// and a forged payment of it is refused.
func TestLastPlayerTakesThePoInTheLedger(t *testing.T) {
	for _, forge := range []string{"", "rake", "share"} {
		t.Run("forge="+forge, func(t *testing.T) {
			d := newDriver(t)
			d.open("s", syntheticDef)
			four := []string{"ana", "bia", "caio", "duda"}
			for i, p := range four {
				d.join(p, i+1)
			}
			d.step(poker.Deal{At: d.later()}, nil)
			for _, p := range four {
				kind := synthetic.Ante
				if p == "duda" {
					kind = synthetic.NoAnte
				}
				d.step(poker.Act{At: d.later(), Player: p, Action: poker.Action{Kind: kind}}, nil)
			}
			d.callDown()
			d.l.View(func(s *State) {
				if s.Tables["s"].Carried != 300 {
					t.Fatalf("no pó of 300 carried: %+v", s.Tables["s"])
				}
			})
			for _, p := range four[:3] {
				d.step(poker.Leave{At: d.later(), Player: p, Authorized: true}, &Transfer{ID: p + "-out", Kind: CashOut, Source: "cab:" + p, Player: p})
			}
			st, _, err := d.s.Step(poker.Leave{At: d.later(), Player: "duda", Authorized: true}, &Transfer{ID: "duda-out", Kind: CashOut, Source: "cab:duda", Player: "duda"})
			if err != nil {
				t.Fatal(err)
			}
			if forge != "" {
				for i, r := range st.Records {
					if r.Kind == poker.KindPoAward {
						st.Records[i].Shares = []poker.Share{r.Shares[0]}
						if forge == "rake" {
							st.Records[i].Rake--
						}
						st.Records[i].Shares[0].Amount++
					}
				}
				if _, err := d.l.Commit(*st); err == nil || !strings.Contains(err.Error(), "a pó of 300") {
					t.Fatalf("a forged payment of the pó (%s): %v", forge, err)
				}
				return
			}
			if _, err := d.l.Commit(*st); err != nil {
				t.Fatal(err)
			}
			d.l.View(func(s *State) {
				tb := s.Tables["s"]
				if tb.Carried != 0 || len(tb.Players) != 0 || tb.Meters.Rake != 9 || s.Transfers["duda-out"].Amount != 20000+291 {
					t.Fatalf("after the last player left: carried %d, players %d, rake %d, duda took %d",
						tb.Carried, len(tb.Players), tb.Meters.Rake, s.Transfers["duda-out"].Amount)
				}
			})
			lpub := d.l.PublicKey()
			d.l.Close()
			if v, err := Verify(d.dir, lpub, []ed25519.PublicKey{d.pub}); err != nil || !v.OK {
				t.Fatalf("verify: %v %v", v.Problems, err)
			}
		})
	}
}
