package model

import (
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/machine"
)

// The identification and I/O test pages of the service menu, as content:
// package ui lays them out and draws them.

// HexWidth is how many hex digits a line of a hash or digest shows.
const HexWidth = 32

// HexLines cuts a long hex string (a 64-digit hash) into lines of n digits.
func HexLines(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// RTPRow is the certified return of one bet level.
type RTPRow struct {
	Level    string // "1 crédito(s) por linha" or "nível 1"
	Fraction string // exact, as certified
	Percent  string
}

// Identity is the identification page: what the inspector checks against
// the certificate.
type Identity struct {
	Machine     string   // machine ID line
	Games       string   // games played line
	ProgramHead string   // "Program hash (BLAKE2b-256):"
	ProgramHash []string // the hash, HexWidth digits a line; or a "not reported" text
	Paytable    string   // ID (with its version and key when the loaded paytable is the one named)
	DigestHead  string
	Digest      []string
	RTPHead     string
	RTPCols     [3]string // column heads: bet, exact fraction, percentage
	RTP         []RTPRow
	ActualHead  string // "Actual RTP (meters):"
	Actual      string // "87,12 %" or "no bets yet"
	Approval    string // how the program was approved, or that it was not checked
	// Verdict is the last ledger verification of the session: a headline
	// (verified or not), then the technical summary, problems and the
	// exported report's file.
	Verdict []string
	Valid   bool // the verdict says verified
}

// Identity builds the identification page from the service view.
func (g *Screen) Identity() Identity {
	s := g.Svc()
	t := g.T
	id := Identity{
		Machine:     t("id_machine", g.V.MachineID),
		Games:       t("id_games", Credits(g.Lang, g.V.GamesPlayed)),
		ProgramHead: t("id_program"),
		ProgramHash: HexLines(s.ProgramHash, HexWidth),
		DigestHead:  t("id_digest_head"),
		Digest:      HexLines(s.PaytableDigest, HexWidth),
		RTPHead:     t("id_rtp_head"),
		RTPCols:     [3]string{t("id_col_bet"), t("id_col_exact"), t("id_col_pct")},
		ActualHead:  t("id_actual_rtp"),
		Actual:      money.Percent(g.Lang, s.TotalWonCents, s.TotalBetCents),
	}
	if len(id.ProgramHash) == 0 {
		id.ProgramHash = []string{t("id_not_reported")}
	}
	if len(id.Digest) == 0 {
		id.Digest = []string{t("id_not_reported")}
	}
	if id.Actual == "" {
		id.Actual = t("id_no_bets")
	}
	switch a := s.ProgramApproved; {
	case a != nil:
		id.Approval = t("id_approved", a.Name, a.KeyID)
	case s.ProgramApproval != "":
		id.Approval = t("id_approval_unchecked")
	}
	if v := s.Verdict; v != nil {
		id.Verdict, id.Valid = g.VerdictLines(*v)
	}
	pt := g.PT
	switch {
	case s.PaytableID == "":
		id.Paytable = t("pt_none")
	case pt != nil && pt.ID == s.PaytableID && pt.Digest == s.PaytableDigest:
		id.Paytable = t("id_paytable_full", pt.ID, Itoa(pt.Version), pt.KeyID)
	default:
		id.Paytable = t("id_paytable_id", s.PaytableID)
	}
	for l, frac := range s.CertifiedRTP {
		row := RTPRow{Level: t("id_level", Itoa(l+1)), Fraction: frac}
		if r, ok := new(big.Rat).SetString(frac); ok {
			row.Percent = money.RatPercent(g.Lang, r, 4)
		}
		if pt != nil && pt.ID == s.PaytableID && l < len(pt.CreditsPerLine) {
			row.Level = Tn(g.Lang, "id_level_credits", pt.CreditsPerLine[l], Credits(g.Lang, pt.CreditsPerLine[l]))
		}
		id.RTP = append(id.RTP, row)
	}
	return id
}

// Text is the page's text, for tests and logs.
func (id Identity) Text() string {
	parts := []string{id.Machine, id.Games, id.ProgramHead}
	parts = append(parts, id.ProgramHash...)
	parts = append(parts, id.Paytable, id.DigestHead)
	parts = append(parts, id.Digest...)
	parts = append(parts, id.RTPHead, strings.Join(id.RTPCols[:], "  "))
	for _, r := range id.RTP {
		parts = append(parts, r.Level+"  "+r.Fraction+"  "+r.Percent)
	}
	parts = append(parts, id.ActualHead+" "+id.Actual)
	if id.Approval != "" {
		parts = append(parts, id.Approval)
	}
	parts = append(parts, id.Verdict...)
	return strings.Join(parts, "\n")
}

// IOOutputs are the outputs the I/O test drives (hw.LampNames, in order).
var IOOutputs = []string{"lamp_spin", "lamp_cash_out", "lamp_bet", "tower_top", "tower_bottom"}

// ioInputOrder is the order of the cabinet's inputs (hw.InputNames); inputs
// the view reports beyond these follow in alphabetical order.
var ioInputOrder = []string{"spin", "bet_up", "bet_down", "max_bet", "cash_out", "help", "language",
	"attendant_key", "jackpot_reset_key",
	"door_main", "door_logic", "door_cashbox", "door_belly", "door_drop"}

// IOInput is one input's live level on the I/O test page.
type IOInput struct {
	Name  string
	Label string // translated name
	On    bool
	State string // "on" / "off", translated
}

// IOName is an input's or output's name in the language (the name itself
// when the catalogue has none).
func IOName(lang, name string) string {
	if k := "io_" + name; hasText(k) {
		return T(lang, k)
	}
	return name
}

// IOInputs lists the inputs the view reports with their live levels.
func (g *Screen) IOInputs() []IOInput {
	in := g.Svc().Inputs
	var names []string
	for _, n := range ioInputOrder {
		if _, ok := in[n]; ok {
			names = append(names, n)
		}
	}
	var extra []string
	for n := range in {
		if !slices.Contains(ioInputOrder, n) {
			extra = append(extra, n)
		}
	}
	slices.Sort(extra)
	var out []IOInput
	for _, n := range append(names, extra...) {
		st := "io_off"
		if in[n] {
			st = "io_on"
		}
		out = append(out, IOInput{Name: n, Label: IOName(g.Lang, n), On: in[n], State: g.T(st)})
	}
	return out
}

// OutputOn is the level last asked for an output on the I/O test page.
func (g *Screen) OutputOn(name string) bool { return g.outputs[name] }

// RectIOOutputs is where the output toggles are, on the right of the page.
var RectIOOutputs = Rect{RectSvcContent.X + 760, RectSvcContent.Y + 50, 460, 5 * 64}

// IOButtons are the I/O test page's output toggles: each sends the level
// opposite to the one last asked for (technician only; the machine refuses
// others).
func (g *Screen) IOButtons() []Button {
	var bs []Button
	r := RectIOOutputs
	for i, name := range IOOutputs {
		on := g.outputs[name]
		st, style := "io_off", StyleNormal
		if on {
			st, style = "io_on", StyleSelected
		}
		bs = append(bs, Button{ID: "io:" + name, Label: IOName(g.Lang, name) + ": " + g.T(st),
			R: Rect{r.X, r.Y + float64(i)*64, r.W, 54}, Enabled: true, Style: style,
			Act: func(g *Screen) { g.setOutput(name, !on) }})
	}
	return bs
}

func (g *Screen) setOutput(name string, on bool) {
	if g.outputs == nil {
		g.outputs = map[string]bool{}
	}
	g.outputs[name] = on
	v := "off"
	if on {
		v = "on"
	}
	g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcIOOutput, Key: name, Value: v})
}

// VerdictLines say what the ledger verification found, in the screen's
// language: a headline that claims signatures intact only when signed
// checkpoints were checked, what exactly was checked, the problems, and
// where the report went.
func (g *Screen) VerdictLines(v machine.Verdict) (lines []string, ok bool) {
	t := g.T
	last := v.LastHash
	if len(last) > 16 {
		last = last[:16] + "…"
	}
	switch {
	case v.Running:
		lines = []string{t("id_verdict_running")}
	case v.OK && v.Checkpoints > 0:
		lines, ok = []string{t("id_verdict_ok"), t("id_verdict_signed", Credits(g.Lang, int64(v.Records)), last, Credits(g.Lang, int64(v.Checkpoints)), v.KeyID)}, true
	case v.OK:
		lines, ok = []string{t("id_verdict_ok_unsigned"), t("id_verdict_unsigned", Credits(g.Lang, int64(v.Records)), last)}, true
	default:
		lines = append([]string{t("id_verdict_bad", Itoa(len(v.Problems)))}, v.Problems...)
	}
	if v.Report != "" {
		lines = append(lines, t("id_report", v.Report))
	}
	return lines, ok
}
