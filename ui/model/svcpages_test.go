package model

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/hw"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/ui/demo"
)

const testHash = "0123456789abcdef0123456789abcdef fedcba9876543210fedcba9876543210"

func identityView() machine.View {
	return machine.View{MachineID: "EGM-0042", Lang: "pt", Mode: "service", Denom: 5, GamesPlayed: 1234,
		Service: &machine.ServiceView{Role: machine.RoleInspector, Page: "identity",
			ProgramHash:    strings.ReplaceAll(testHash, " ", ""),
			PaytableID:     "other-game",
			PaytableDigest: "aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44ee55ff66aa11bb22cc33dd44",
			CertifiedRTP:   []string{"923020/1000000", "46161/50000", "1154473/1250000"},
			TotalWonCents:  8712_00, TotalBetCents: 10000_00}}
}

// The identification page shows the program hash wrapped (every digit, in
// order), the paytable and its digest, every certified RTP as a fraction and
// a percentage, and the actual RTP, in both languages.
func TestIdentityPageListsEveryRTP(t *testing.T) {
	for _, lang := range Langs {
		v := identityView()
		v.Lang = lang
		s, _ := newTestScreen(t, v)
		id := s.Identity()
		text := id.Text()
		sv := v.Service
		if got := strings.Join(id.ProgramHash, ""); got != sv.ProgramHash {
			t.Errorf("%s: program hash lines %q do not join to the hash", lang, id.ProgramHash)
		}
		if len(id.ProgramHash) != 2 || len(id.Digest) != 2 {
			t.Errorf("%s: 64 digits must wrap onto 2 lines: hash %q, digest %q", lang, id.ProgramHash, id.Digest)
		}
		if strings.Join(id.Digest, "") != sv.PaytableDigest || !strings.Contains(id.Paytable, sv.PaytableID) {
			t.Errorf("%s: paytable %q digest %q", lang, id.Paytable, id.Digest)
		}
		if len(id.RTP) != len(sv.CertifiedRTP) {
			t.Fatalf("%s: %d RTP rows for %d levels", lang, len(id.RTP), len(sv.CertifiedRTP))
		}
		for l, frac := range sv.CertifiedRTP {
			pct := map[string][]string{"pt": {"92,3020 %", "92,3220 %", "92,3578 %"}, "en": {"92.3020%", "92.3220%", "92.3578%"}}[lang][l]
			if id.RTP[l].Fraction != frac || id.RTP[l].Percent != pct || !strings.Contains(text, frac) || !strings.Contains(text, pct) {
				t.Errorf("%s: level %d shows %+v, want %s = %s", lang, l+1, id.RTP[l], frac, pct)
			}
			// Not the loaded paytable: levels are numbered, not given in credits.
			if id.RTP[l].Level != T(lang, "id_level", Itoa(l+1)) {
				t.Errorf("%s: level %d is labelled %q", lang, l+1, id.RTP[l].Level)
			}
		}
		wantActual := map[string]string{"pt": "87,12 %", "en": "87.12%"}[lang]
		if id.Actual != wantActual || !strings.Contains(text, T(lang, "id_actual_rtp")+" "+wantActual) {
			t.Errorf("%s: actual RTP %q, want %q", lang, id.Actual, wantActual)
		}
		for _, k := range []string{"id_program", "id_digest_head", "id_rtp_head", "id_col_exact", "id_col_pct"} {
			if !strings.Contains(text, T(lang, k)) {
				t.Errorf("%s: the page lacks %s", lang, k)
			}
		}
	}
}

// Before any bet and without a reported hash the page says so rather than
// showing blanks.
func TestIdentityPageEmpty(t *testing.T) {
	v := identityView()
	v.Service.TotalWonCents, v.Service.TotalBetCents, v.Service.ProgramHash = 0, 0, ""
	s, _ := newTestScreen(t, v)
	id := s.Identity()
	if id.Actual != T("pt", "id_no_bets") || !slices.Equal(id.ProgramHash, []string{T("pt", "id_not_reported")}) {
		t.Errorf("actual %q, hash %q", id.Actual, id.ProgramHash)
	}
}

// On the real machine core: what the machine reports for the loaded
// paytable reaches the page, with bets in credits per line, and the actual
// RTP appears once games are played.
func TestIdentityPageFromMachine(t *testing.T) {
	pt := defaultPaytable(t)
	hash := strings.ReplaceAll(testHash, " ", "")
	d := demo.New(pt, demo.Config{MachineID: "EGM-0042", Denom: 5, Seed: 7, ProgramHash: hash})
	d.InsertBill(2000)
	for range 3 {
		d.Press(machine.BtnSpin)
		d.Advance(3 * time.Second)
	}
	d.SetSwitch(SwitchKey, true)
	d.Service(machine.PINEntry{Role: machine.RoleInspector, PIN: "0000"})
	s := NewScreen(d, true)
	s.Update()
	if s.V.Mode != "service" {
		t.Fatalf("not logged in: mode %s, refused %s", s.V.Mode, d.Refused)
	}
	id := s.Identity()
	text := id.Text()
	if strings.Join(id.ProgramHash, "") != hash {
		t.Errorf("program hash %q", id.ProgramHash)
	}
	if !strings.Contains(id.Paytable, pt.ID) || !strings.Contains(id.Paytable, pt.KeyID) || strings.Join(id.Digest, "") != pt.Digest {
		t.Errorf("paytable %q digest %q, want %s %s", id.Paytable, id.Digest, pt.ID, pt.Digest)
	}
	if len(id.RTP) != len(pt.RTP) {
		t.Fatalf("%d RTP rows, the paytable has %d levels", len(id.RTP), len(pt.RTP))
	}
	for l, r := range pt.RTP {
		if !strings.Contains(text, r.RatString()) {
			t.Errorf("level %d: exact RTP %s missing", l+1, r.RatString())
		}
		if want := Tn("pt", "id_level_credits", pt.CreditsPerLine[l], Credits("pt", pt.CreditsPerLine[l])); id.RTP[l].Level != want {
			t.Errorf("level %d labelled %q, want %q", l+1, id.RTP[l].Level, want)
		}
		if !strings.HasSuffix(id.RTP[l].Percent, " %") || !strings.Contains(id.RTP[l].Percent, ",") {
			t.Errorf("level %d percentage %q is not in Portuguese form", l+1, id.RTP[l].Percent)
		}
	}
	if id.Actual == T("pt", "id_no_bets") || !strings.HasSuffix(id.Actual, " %") {
		t.Errorf("actual RTP after 3 games: %q", id.Actual)
	}
}

func ioView(role string) machine.View {
	return machine.View{MachineID: "EGM-0042", Lang: "en", Mode: "service", Denom: 1,
		Service: &machine.ServiceView{Role: role, Page: "io",
			Inputs: map[string]bool{"door_main": true, "spin": false, "attendant_key": true, "extra_pin": false}}}
}

// The I/O page lists every input the view reports with its level, in the
// cabinet's order, and each output's toggle sends the level opposite to the
// one last asked for.
func TestIOPage(t *testing.T) {
	s, c := newTestScreen(t, ioView(machine.RoleTechnician))
	var got []string
	for _, in := range s.IOInputs() {
		got = append(got, in.Name+"="+in.State)
		if in.Label == "" || in.Name != "extra_pin" && in.Label == in.Name {
			t.Errorf("input %s has no name of its own: %q", in.Name, in.Label)
		}
	}
	want := []string{"spin=OFF", "attendant_key=ON", "door_main=ON", "extra_pin=OFF"}
	if !slices.Equal(got, want) {
		t.Errorf("inputs %v, want %v", got, want)
	}
	for _, name := range IOOutputs {
		b := button(t, s, "io:"+name)
		if b.Style != StyleNormal || !strings.HasSuffix(b.Label, ": OFF") {
			t.Errorf("%s starts as %q (style %d)", name, b.Label, b.Style)
		}
		clickOn(t, s, "io:"+name)
		if calls := c.take(); !slices.Equal(calls, []string{"service io_output " + name + " on"}) {
			t.Errorf("%s: first touch sent %v", name, calls)
		}
		if b := button(t, s, "io:"+name); b.Style != StyleSelected || !strings.HasSuffix(b.Label, ": ON") || !s.OutputOn(name) {
			t.Errorf("%s after on: %q (style %d)", name, b.Label, b.Style)
		}
		clickOn(t, s, "io:"+name)
		if calls := c.take(); !slices.Equal(calls, []string{"service io_output " + name + " off"}) {
			t.Errorf("%s: second touch sent %v", name, calls)
		}
	}
	// The tabs fit the content width without overlapping.
	tabs := 0
	prev := Rect{}
	for _, b := range s.Buttons() {
		if strings.HasPrefix(b.ID, "page:") {
			tabs++
			if b.R.X < prev.X+prev.W || b.R.X+b.R.W > RectSvcContent.X+RectSvcContent.W {
				t.Errorf("tab %s at %+v overlaps or overflows", b.ID, b.R)
			}
			prev = b.R
		}
	}
	if tabs != len(ServicePages) {
		t.Errorf("technician sees %d tabs, want %d", tabs, len(ServicePages))
	}
	clickOn(t, s, "page:io")
	if calls := c.take(); !slices.Equal(calls, []string{"service page  io"}) {
		t.Errorf("the I/O tab sent %v", calls)
	}
}

// Only the technician gets the I/O tab and the toggles.
func TestIOPageTechnicianOnly(t *testing.T) {
	for _, role := range []string{machine.RoleInspector, machine.RoleOperator} {
		s, _ := newTestScreen(t, ioView(role))
		for _, b := range s.Buttons() {
			if b.ID == "page:io" || strings.HasPrefix(b.ID, "io:") {
				t.Errorf("%s has button %s", role, b.ID)
			}
		}
		if len(s.IOInputs()) != 4 {
			t.Errorf("%s: the inputs are still listed read only", role)
		}
	}
}

// Through the real machine core: the technician's toggle reaches the
// output, and the page shows the simulated switches.
func TestIOPageOnMachine(t *testing.T) {
	d := demo.New(defaultPaytable(t), demo.Config{MachineID: "EGM-0042"})
	d.SetSwitch(SwitchKey, true)
	s := NewScreen(d, true)
	s.Update()
	clickOn(t, s, "role:technician")
	for range 4 {
		clickOn(t, s, "pad:0")
	}
	clickOn(t, s, "pad:ok")
	s.Update()
	for range 2 { // the new PIN, then again
		for _, k := range []string{"3", "1", "4", "1", "5", "9"} {
			clickOn(t, s, "pad:"+k)
		}
		clickOn(t, s, "pad:ok")
	}
	s.Update()
	if s.V.Mode != "service" || s.Svc().MustChangePIN {
		t.Fatalf("not logged in: %s, refused %s", s.V.Mode, d.Refused)
	}
	clickOn(t, s, "page:io")
	s.Update()
	if s.Svc().Page != "io" {
		t.Fatalf("page %q", s.Svc().Page)
	}
	var key IOInput
	for _, in := range s.IOInputs() {
		if in.Name == SwitchKey {
			key = in
		}
	}
	if !key.On {
		t.Errorf("the attendant key is on but the page shows %+v", key)
	}
	clickOn(t, s, "io:tower_top")
	s.Update()
	if !d.Outputs["tower_top"] || d.Refused != "" {
		t.Errorf("tower_top not switched on: outputs %v, refused %q", d.Outputs, d.Refused)
	}
	clickOn(t, s, "io:tower_top")
	if d.Outputs["tower_top"] {
		t.Error("tower_top not switched off")
	}
}

// The page's names are the cabinet's: every input and output the hardware
// maps has a text in both languages.
func TestIONamesMatchHardware(t *testing.T) {
	if !slices.Equal(IOOutputs, hw.LampNames()) {
		t.Errorf("IOOutputs %v, hw has %v", IOOutputs, hw.LampNames())
	}
	if !slices.Equal(ioInputOrder, hw.InputNames()) {
		t.Errorf("input order %v, hw has %v", ioInputOrder, hw.InputNames())
	}
	for _, n := range append(hw.InputNames(), hw.LampNames()...) {
		checkBoth(t, "io_"+n)
	}
}

// The rules page states the handpay limit as an amount, in both languages,
// and follows a change of the limit.
func TestRulesStateHandpayLimit(t *testing.T) {
	pt := defaultPaytable(t)
	for _, lang := range Langs {
		v := idleViewForRules()
		v.HandpayLimit = 120000
		text := ""
		for _, p := range PaytablePages(pt, v, lang) {
			text += PageText(p)
		}
		if !strings.Contains(text, Euro(lang, 120000)) {
			t.Errorf("%s: the rules do not state the limit %s", lang, Euro(lang, 120000))
		}
	}
	v := idleViewForRules()
	v.HandpayLimit = 120000
	s, c := newTestScreen(t, v)
	if !strings.Contains(PageText(s.PaytablePages()[len(s.PaytablePages())-1]), "1.200,00 €") {
		t.Error("the payment page lacks 1.200,00 €")
	}
	c.view.HandpayLimit = 300000
	s.Update()
	if !strings.Contains(PageText(s.PaytablePages()[len(s.PaytablePages())-1]), "3.000,00 €") {
		t.Error("the payment page did not follow the new limit")
	}
}

func idleViewForRules() machine.View {
	return machine.View{MachineID: "EGM-0042", Lang: "pt", Mode: "idle", Denom: 1, TopOffered: 3}
}

// The identification page carries the program's approval and the ledger
// verification the inspector asked for; the inspector has a button to
// verify and one to export, the other roles only the first.
func TestIdentityPageVerdictAndButtons(t *testing.T) {
	for _, lang := range Langs {
		v := identityView()
		v.Lang = lang
		v.Service.ProgramApproval = `approved as "cabinet 2.0" in approved-programs.json, signed by key 1234`
		v.Service.ProgramApproved = &machine.Approval{Name: "cabinet 2.0", List: "approved-programs.json", KeyID: "1234"}
		v.Service.Verdict = &machine.Verdict{OK: true, Summary: "VERIFIED: 40 records", Report: "/data/reports/report-1.txt",
			Records: 40, Checkpoints: 3, KeyID: "k9", LastHash: "0123456789abcdef0123"}
		s, _ := newTestScreen(t, v)
		text := s.Identity().Text()
		for _, want := range []string{"cabinet 2.0", s.T("id_verdict_ok"), "40", "k9", "0123456789abcdef…", "/data/reports/report-1.txt"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: page lacks %q:\n%s", lang, want, text)
			}
		}
		// Everything on the page is in the page's language: no English
		// summary from the verifier, no English approval text.
		if lang == "pt" {
			for _, bad := range []string{"VERIFIED", "signed checkpoints", "approved as", "not checked", "records"} {
				if strings.Contains(text, bad) {
					t.Errorf("pt: the page says %q:\n%s", bad, text)
				}
			}
		}
		// Without signed checkpoints the headline does not claim
		// signatures intact.
		v.Service.Verdict = &machine.Verdict{OK: true, Records: 5, LastHash: "ab"}
		s, _ = newTestScreen(t, v)
		if id := s.Identity(); !id.Valid || id.Verdict[0] == s.T("id_verdict_ok") || !strings.Contains(id.Verdict[0], s.T("id_verdict_ok_unsigned")) {
			t.Errorf("%s: unsigned verdict reads %q", lang, id.Verdict)
		}
		v.Service.ProgramApproved, v.Service.ProgramApproval = nil, "not checked: no approved-program list (development build)"
		s, _ = newTestScreen(t, v)
		if a := s.Identity().Approval; a != s.T("id_approval_unchecked") {
			t.Errorf("%s: unchecked approval reads %q", lang, a)
		}
		v.Service.Verdict = &machine.Verdict{OK: false, Problems: []string{"record 12: checksum"}}
		s, _ = newTestScreen(t, v)
		id := s.Identity()
		if id.Valid || !strings.Contains(id.Text(), "record 12: checksum") || !strings.Contains(id.Verdict[0], "1") {
			t.Errorf("%s: failed verdict shown as %q", lang, id.Verdict)
		}
	}
	ids := func(role string) []string {
		v := identityView()
		v.Service.Role = role
		s, _ := newTestScreen(t, v)
		var out []string
		for _, b := range s.ServiceButtons() {
			out = append(out, b.ID)
		}
		return out
	}
	if in := ids(machine.RoleInspector); !slices.Contains(in, "svc:verify") || !slices.Contains(in, "svc:export") {
		t.Errorf("inspector buttons %v", in)
	}
	if tech := ids(machine.RoleTechnician); !slices.Contains(tech, "svc:verify") || slices.Contains(tech, "svc:export") {
		t.Errorf("technician buttons %v", tech)
	}
}

// Every meter of the ledger is on the meters page, inside the page: none
// under the message bar (the promotional meters made the page's rows run
// past it), none over another, the text no smaller than can be read (the
// ledger's meters outgrowing one page fail here: the page would need a
// second).
func TestMetersGridFitsThePage(t *testing.T) {
	for _, n := range []int{1, 34, len(meters.Defs)} {
		g := MetersGrid(n)
		bottom := RectSvcContent.Y + RectSvcContent.H
		seen := map[[2]int]bool{}
		for i := range n {
			c, y := g.Row(i)
			if c < 0 || c > 1 {
				t.Fatalf("%d meters: meter %d in column %d", n, i, c)
			}
			if y-g.Pitch/2 < g.Head+8 || y+g.Pitch/2 > bottom {
				t.Errorf("%d meters: meter %d's row (middle %.1f, %.1f tall) is outside the page (%.0f–%.0f)", n, i, y, g.Pitch, g.Head, bottom)
			}
			k := [2]int{c, int(y * 10)}
			if seen[k] {
				t.Errorf("%d meters: meter %d on another's row", n, i)
			}
			seen[k] = true
		}
		if g.Size < 12 || g.Size > g.Pitch {
			t.Errorf("%d meters: text of %.1f in rows of %.1f", n, g.Size, g.Pitch)
		}
	}
	if g := MetersGrid(34); g.Pitch != 24.5 || g.Size != 15 {
		t.Errorf("34 meters (the page before the promotional meters) laid out anew: %+v", g)
	}
}
