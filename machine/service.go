package machine

import (
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"golang.org/x/crypto/argon2"
)

// Roles of the service menu. The attendant needs only the key (handpay
// reset, tilt clear); the others need the key and their PIN.
const (
	RoleTechnician = "technician"
	RoleOperator   = "operator"
	RoleInspector  = "inspector" // reads everything, changes nothing
)

// DefaultPIN is what a role's PIN is until it is changed; logging in with it
// allows one thing only: choosing a new PIN.
const DefaultPIN = "0000"

// Lock-out: after MaxPINFailures wrong PINs in a row a role is locked for
// PINLockout from the last failure. The count is in the ledger, so a power
// cycle does not reset it.
const (
	MaxPINFailures = 5
	PINLockout     = 15 * time.Minute
)

// argon2id parameters (OWASP's minimum for argon2id: 19 MiB, 2 passes).
const (
	argonTime    = 2
	argonMemory  = 19 * 1024
	argonThreads = 1
	argonKeyLen  = 32
)

// PINEntry is a PIN typed on the service keypad while the attendant key is on.
type PINEntry struct {
	At   time.Time
	Role string
	PIN  string
}

// Service menu actions.
const (
	SvcLogout          = "logout"
	SvcPage            = "page" // Value: meters, recall, events, bills, handpays
	SvcSetPIN          = "set_pin"
	SvcConfig          = "config" // Key, Value
	SvcRAMClear        = "ram_clear"
	SvcRAMClearConfirm = "ram_clear_confirm"
	SvcIOOutput        = "io_output" // Key: an output (lamp) name, Value: on or off
	// SvcVerifyLedger checks the ledger as meterread verify does; with
	// SvcExportReport the signed report is also written to a file.
	SvcVerifyLedger = "verify_ledger"
	SvcExportReport = "export_report"
	// SvcClearTilt clears the tilts only a technician may clear (a meter
	// fault from before the last start), once the cause is dealt with.
	SvcClearTilt = "clear_tilt"
)

// ServicePages are the service menu's pages, in the order of its tabs
// (SvcPage's values); the I/O test ("io") is the technician's to drive.
var ServicePages = []string{"meters", "recall", "events", "bills", "handpays", "settings", "io", "identity"}

// UnknownPage is the error of a page the service menu does not have,
// naming those it has; nil for a page it has.
func UnknownPage(page string) error {
	if slices.Contains(ServicePages, page) {
		return nil
	}
	return fmt.Errorf("unknown service page %q (the pages are %s)", page, strings.Join(ServicePages, ", "))
}

// ServiceAction is a choice in the service menu.
type ServiceAction struct {
	At     time.Time
	Action string
	Key    string
	Value  string
}

func (e PINEntry) at() time.Time      { return e.At }
func (e ServiceAction) at() time.Time { return e.At }

// HandpayPaid is the attendant's confirmation, on the screen with the key
// on, that the handpay of Cents was paid to the player (Config.
// HandpayConfirm). The amount must be the one the machine owes.
type HandpayPaid struct {
	At    time.Time
	Cents int64
}

func (e HandpayPaid) at() time.Time { return e.At }

// PrintReceipt asks the printer for a handpay receipt (regulation rule
// 13: a prize paid by the cashier on a voucher): what was paid, to whom it
// was owed, and by whom.
type PrintReceipt struct {
	Kind      string    `json:"kind"` // a handpay's kind: win, cancelled, progressive, aft_bonus
	Cents     int64     `json:"cents"`
	Game      uint64    `json:"game,omitempty"`
	Ref       string    `json:"ref,omitempty"` // the AFT transaction of a bonus jackpot
	MachineID string    `json:"machine_id"`
	Who       string    `json:"who"`
	At        time.Time `json:"at"`
	ReceiptValidation
}

func (PrintReceipt) device() {}

// handpayPaid resets the handpay the attendant confirmed and prints its
// receipt.
func (m *Machine) handpayPaid(e HandpayPaid, eff *Effects) {
	h := m.st.Handpay
	switch {
	case !m.keyOn:
		eff.Refused = "refused_key_off"
	case h == nil:
		eff.Refused = "refused_no_handpay"
	case e.Cents != h.Cents:
		eff.Refused = "refused_handpay_amount"
	}
	if eff.Refused != "" {
		m.sayService(eff.Refused)
		return
	}
	m.handpayKey = false
	receipt := m.receiptsOn()
	rv := m.resetHandpay(eff, m.keyWho, receipt)
	if receipt {
		eff.Devices = append(eff.Devices, PrintReceipt{Kind: h.Kind, Cents: h.Cents, Game: h.Game, Ref: h.Ref, MachineID: m.cfg.MachineID, Who: m.keyWho, At: m.now,
			ReceiptValidation: rv})
	}
}

// TestOutput drives an output from the service menu's I/O test.
type TestOutput struct {
	Name string
	On   bool
}

func (TestOutput) device() {}

// StorePIN asks the owner to keep a role's new PIN hash (outside the ledger,
// which is handed to inspectors).
type StorePIN struct {
	Role string
	Hash string
}

func (StorePIN) device() {}

// session is a logged-in service menu user.
type session struct {
	role, who  string
	mustChange bool
	page       string
	armed      bool // RAM clear asked, waiting for its confirmation
	verdict    *Verdict
	pinJob     uint64 // the PIN change being hashed (HashPIN.ID; 0: none)
	pinChanges int    // PINs changed in this session (ServiceView.PINChanges)
}

// allowed says which actions each role may take.
var allowed = map[string][]string{
	RoleInspector:  {SvcLogout, SvcPage, SvcSetPIN, SvcVerifyLedger, SvcExportReport},
	RoleOperator:   {SvcLogout, SvcPage, SvcSetPIN, SvcConfig, SvcVerifyLedger},
	RoleTechnician: {SvcLogout, SvcPage, SvcSetPIN, SvcConfig, SvcRAMClear, SvcRAMClearConfirm, SvcIOOutput, SvcVerifyLedger, SvcClearTilt},
}

// Config keys an operator or technician may change, and who may.
var configKeys = map[string][]string{
	"denom":         {RoleTechnician, RoleOperator},
	"handpay_limit": {RoleTechnician, RoleOperator},
	"language":      {RoleTechnician, RoleOperator},
	SettingBetLimit: {RoleTechnician, RoleOperator},
	"paytable":      {RoleTechnician},
}

var denominations = []int64{1, 2, 5, 10, 20, 50, 100}

// settable are the settings the machine applies from the ledger when it
// starts (the paytable is chosen by the owner before it is loaded).
var settable = map[string]bool{"denom": true, "handpay_limit": true, SettingBetLimit: true, "language": true}

// MinHandpayLimit is the lowest handpay limit an operator may set, in cents.
const MinHandpayLimit = 1000

// CheckSetting validates a setting's value on its own (the paytable's
// bounds on max_level are checked when it is applied): one definition for
// the service menu and the start-up configuration.
func CheckSetting(key, value string) error {
	switch key {
	case "denom":
		d, err := strconv.ParseInt(value, 10, 64)
		if err != nil || !slices.Contains(denominations, d) {
			return fmt.Errorf("denomination %q must be one of %v cents", value, denominations)
		}
	case "handpay_limit":
		l, err := strconv.ParseInt(value, 10, 64)
		if err != nil || l < MinHandpayLimit {
			return fmt.Errorf("handpay limit %q must be a number of cents, at least %d", value, MinHandpayLimit)
		}
	case SettingBetLimit:
		if l, err := strconv.Atoi(value); err != nil || l < 1 {
			return fmt.Errorf("bet limit %q must be a bet level from 1 to the paytable's top", value)
		}
	case "language":
		if value != "pt" && value != "en" {
			return fmt.Errorf("language %q must be pt or en", value)
		}
	}
	return nil
}

// setting is a setting's value now, as the settings page shows it.
func (m *Machine) setting(key string) string {
	switch key {
	case "denom":
		return strconv.FormatInt(m.cfg.Denom, 10)
	case "handpay_limit":
		return strconv.FormatInt(m.cfg.HandpayLimit, 10)
	case SettingBetLimit:
		return strconv.Itoa(m.cfg.BetLimit)
	case "language":
		return m.opLang
	case "paytable":
		if m.pt != nil {
			return m.pt.ID
		}
	}
	return ""
}

// setConfig validates and applies one setting; "" means done.
func (m *Machine) setConfig(key, value string) string {
	if err := CheckSetting(key, value); err != nil {
		return err.Error()
	}
	switch key {
	case "denom":
		m.cfg.Denom, _ = strconv.ParseInt(value, 10, 64)
	case "handpay_limit":
		m.cfg.HandpayLimit, _ = strconv.ParseInt(value, 10, 64)
	case SettingBetLimit:
		l, _ := strconv.Atoi(value)
		if m.pt != nil && l > len(m.pt.CreditsPerLine) {
			return fmt.Sprintf("bet limit %q must be a bet level from 1 to the paytable's top", value)
		}
		m.cfg.BetLimit = l
		if m.pt != nil && m.level > m.topOffered() {
			m.level = m.topOffered()
		}
	case "language":
		m.lang, m.opLang = value, value
	case "paytable":
		if m.cfg.Load == nil {
			return "no paytable loader"
		}
		pt, err := m.cfg.Load(value)
		if err != nil {
			return err.Error()
		}
		m.pt, m.level = pt, 0
	default:
		return fmt.Sprintf("unknown setting %q", key)
	}
	return ""
}

func (m *Machine) pinEntry(e PINEntry, eff *Effects) {
	if m.pinRefused(e.Role, eff) {
		return
	}
	hash, set := m.cfg.PINHashes[e.Role]
	if set {
		eff.Devices = append(eff.Devices, CheckPIN{Role: e.Role, PIN: e.PIN, Hash: hash})
		return
	}
	m.pinVerdict(e.Role, subtle.ConstantTimeCompare([]byte(e.PIN), []byte(DefaultPIN)) == 1, false, eff)
}

// pinRefused says (in eff) why no PIN of role is taken now.
func (m *Machine) pinRefused(role string, eff *Effects) bool {
	if !m.keyOn {
		eff.Refused = "refused_key_off"
		return true
	}
	if _, ok := allowed[role]; !ok {
		eff.Refused = "refused_unknown_role"
		return true
	}
	if f := m.st.PINFailures[role]; f.Count >= MaxPINFailures && m.now.Before(time.Unix(0, f.Last).Add(PINLockout)) {
		eff.Refused = "refused_pin_locked"
		m.sayService(eff.Refused)
		return true
	}
	return false
}

// pinVerdict logs role in, or records the failure; set says the role has
// its own PIN (not the default, which must be changed first).
func (m *Machine) pinVerdict(role string, ok, set bool, eff *Effects) {
	if !ok {
		m.record(eff, meters.Service{At: m.ns(), Who: m.keyWho, Role: role, Action: meters.ActionPINFailed})
		eff.Refused = "refused_wrong_pin"
		m.sayService(eff.Refused)
		return
	}
	m.record(eff, meters.Service{At: m.ns(), Who: m.keyWho, Role: role, Action: meters.ActionLogin})
	if m.svcMessage.At != 0 {
		m.svcMessage = Message{} // the pad's answer; a start-up notice stays
	}
	m.session = &session{role: role, who: m.keyWho, mustChange: !set, page: "meters"}
}

func (m *Machine) serviceAction(e ServiceAction, eff *Effects) {
	s := m.session
	if s == nil {
		eff.Refused = "refused_not_logged_in"
		return
	}
	if !slices.Contains(allowed[s.role], e.Action) {
		eff.Refused = "refused_role"
		m.sayService(eff.Refused)
		return
	}
	if s.mustChange && e.Action != SvcSetPIN && e.Action != SvcLogout {
		eff.Refused = "refused_change_default_pin"
		m.sayService(eff.Refused)
		return
	}
	if e.Action != SvcRAMClearConfirm {
		s.armed = false
	}
	svc := func(action, detail string) {
		m.record(eff, meters.Service{At: m.ns(), Who: s.who, Role: s.role, Action: action, Detail: detail})
	}
	switch e.Action {
	case SvcTestEnter, SvcTestLeave:
		m.testAction(e, s, eff)
	case SvcLogout:
		svc(SvcLogout, "")
		m.session, m.svcMessage = nil, Message{}
		m.loginPad = m.keyOn // the key is still on: the login is offered again
	case SvcPage:
		if !slices.Contains(ServicePages, e.Value) {
			eff.Refused = "refused_unknown_page"
			m.sayService(eff.Refused)
			m.svcMessage.Detail = UnknownPage(e.Value).Error()
			return
		}
		s.page = e.Value
		svc(meters.ActionView, e.Value)
	case SvcVerifyLedger, SvcExportReport:
		// The owner verifies (I/O) and answers with a LedgerVerdict.
		svc(e.Action, "")
		s.verdict = &Verdict{Running: true}
		eff.Devices = append(eff.Devices, InspectLedger{Export: e.Action == SvcExportReport, Who: s.who})
	case SvcClearTilt:
		cleared := 0
		for _, t := range slices.Clone(m.st.Tilts) {
			if tiltClear[t] == "technician" && (e.Key == "" || e.Key == t) {
				svc(SvcClearTilt, t)
				m.clearTilt(eff, t)
				cleared++
			}
		}
		if cleared == 0 {
			eff.Refused = "refused_no_tilt"
			m.sayService(eff.Refused)
		}
	case SvcSetPIN:
		if why := weakPIN(e.Value); why != "" {
			eff.Refused = "refused_weak_pin"
			m.sayService(eff.Refused)
			return
		}
		if m.src == nil {
			// No certified RNG (its self-test failed): no salt to hash with.
			eff.Refused = "refused_no_rng"
			m.sayService(eff.Refused)
			return
		}
		// The hash comes back as PINHashed; until then the PIN is the old one.
		salt := make([]byte, 16)
		for i := range salt {
			salt[i] = byte(m.src.Uint64n(256))
		}
		m.pinJobs++
		s.pinJob = m.pinJobs
		eff.Devices = append(eff.Devices, HashPIN{ID: s.pinJob, PIN: e.Value, Salt: salt})
	case SvcConfig:
		if !slices.Contains(configKeys[e.Key], s.role) {
			eff.Refused = "refused_role"
			m.sayService(eff.Refused)
			return
		}
		if why := m.idleForService(); why != "" {
			eff.Refused = why
			m.sayService(why)
			return
		}
		before := m.setting(e.Key)
		if why := m.setConfig(e.Key, e.Value); why != "" {
			eff.Refused = "refused_bad_setting"
			m.sayService(eff.Refused)
			m.svcMessage.Detail = why
			return
		}
		if !m.record(eff, meters.Config{At: m.ns(), Who: s.who + " (" + s.role + ")", Key: e.Key, Value: e.Value}) {
			return
		}
		if e.Key == "paytable" {
			m.recordPaytable(eff, s.who+" ("+s.role+")")
		}
		// Say what changed: amounts from and to, the others saved.
		switch from, _ := strconv.ParseInt(before, 10, 64); e.Key {
		case "denom":
			m.sayService("msg_set_denom", from, m.cfg.Denom)
		case "handpay_limit":
			m.sayService("msg_set_handpay_limit", from, m.cfg.HandpayLimit)
		default:
			m.sayService("msg_setting_saved")
		}
	case SvcIOOutput:
		if why := m.idleForService(); why != "" {
			eff.Refused = why
			m.sayService(why)
			return
		}
		on := e.Value == "on"
		svc(SvcIOOutput, e.Key+" "+e.Value)
		eff.Devices = append(eff.Devices, TestOutput{Name: e.Key, On: on})
	case SvcRAMClear:
		if why := m.idleForService(); why != "" {
			eff.Refused = why
			m.sayService(why)
			return
		}
		s.armed = true
		m.sayService("msg_ram_clear_confirm")
	case SvcRAMClearConfirm:
		if !s.armed {
			eff.Refused = "refused_not_armed"
			m.sayService(eff.Refused)
			return
		}
		s.armed = false
		if why := m.idleForService(); why != "" {
			eff.Refused = why
			m.sayService(why)
			return
		}
		m.record(eff, meters.RAMClear{At: m.ns(), Who: s.who + " (" + s.role + ")", Why: e.Value + " (service menu)"})
	}
}

// idleForService: settings and RAM clear need no credits, no game and no
// handpay, so no player's money or game is affected.
func (m *Machine) idleForService() string {
	switch {
	case m.st.Get(meters.Credits) != 0:
		return "refused_credits_on_machine"
	case m.st.Open != nil || m.phase != idle:
		return "refused_game_in_progress"
	case m.st.Handpay != nil || m.st.OwedHandpay != 0:
		return "refused_handpay"
	case m.inTest():
		return "refused_test_mode"
	case m.st.Poker.Busy() != "":
		return "refused_poker_seated" // his credits are at a poker table
	}
	return ""
}

// weakPIN refuses PINs that are short, the default, one repeated digit or a
// run (123456, 654321).
func weakPIN(pin string) string {
	if len(pin) < 6 || len(pin) > 8 {
		return "6 to 8 digits"
	}
	up, down, same := true, true, true
	for i := range pin {
		if pin[i] < '0' || pin[i] > '9' {
			return "digits only"
		}
		if i > 0 {
			up = up && pin[i] == pin[i-1]+1
			down = down && pin[i] == pin[i-1]-1
			same = same && pin[i] == pin[i-1]
		}
	}
	if up || down || same {
		return "too easy to guess"
	}
	return ""
}

// pinHash is a parsed argon2id PHC string.
type pinHash struct {
	memory, time uint32
	threads      uint8
	salt, key    []byte
}

// Bounds on a stored PIN hash's parameters: the file they come from is
// outside the ledger, and a zero pass count panics in argon2 while a huge
// memory cost takes the machine's memory.
const (
	maxArgonMemory = 256 * 1024 // KiB
	maxArgonTime   = 16
)

// ParsePINHash checks a stored PIN hash (as the PIN file holds it) and says
// what is wrong with it.
func ParsePINHash(encoded string) (pinHash, error) {
	var h pinHash
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return h, fmt.Errorf("not an argon2id (v=%d) hash", argon2.Version)
	}
	var mem, t, p uint64
	if n, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &t, &p); err != nil || n != 3 || fmt.Sprintf("m=%d,t=%d,p=%d", mem, t, p) != parts[3] {
		return h, fmt.Errorf("parameters %q are not m=…,t=…,p=…", parts[3])
	}
	switch {
	case mem < 8*p || mem > maxArgonMemory:
		return h, fmt.Errorf("memory cost %d KiB outside %d-%d", mem, 8*p, maxArgonMemory)
	case t < 1 || t > maxArgonTime:
		return h, fmt.Errorf("time cost %d outside 1-%d", t, maxArgonTime)
	case p < 1 || p > 16:
		return h, fmt.Errorf("parallelism %d outside 1-16", p)
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	key, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(salt) < 8 || len(salt) > 64 || len(key) < 16 || len(key) > 64 {
		return h, fmt.Errorf("salt or key malformed (salt 8-64 bytes, key 16-64 bytes, base64)")
	}
	return pinHash{memory: uint32(mem), time: uint32(t), threads: uint8(p), salt: salt, key: key}, nil
}

// Recall is one game of the service menu's recall: the record and its
// re-evaluation from the stops, which must reproduce the recorded win.
type Recall struct {
	Game       uint64     `json:"game"`
	At         int64      `json:"at"`
	Paytable   string     `json:"paytable"`
	BetCents   int64      `json:"bet_cents"`
	Stops      []int      `json:"stops"`
	Window     [][]string `json:"window,omitempty"`
	FreeStops  [][]int    `json:"free_stops,omitempty"`
	Lines      []ViewLine `json:"lines,omitempty"` // paying lines of the base spin
	WinCents   int64      `json:"win_cents"`       // recorded
	Recomputed int64      `json:"recomputed"`      // from the stops
	Match      bool       `json:"match"`
	Problem    string     `json:"problem,omitempty"`
	// Spins are the game's spins re-evaluated: the base spin, then each
	// free game, each with its window, lines and scatters.
	Spins []RecallSpin `json:"spins,omitempty"`
	// Kind is the game (meters.GameReels or GameMakccarat); a Makccarat
	// hand is re-evaluated from its recorded cards and stakes into Hand.
	Kind string    `json:"kind"`
	Hand *HandView `json:"hand,omitempty"`
}

// RecallSpin is one spin of a recalled game.
type RecallSpin struct {
	Free        bool          `json:"free,omitempty"`
	Stops       []int         `json:"stops"`
	Window      [][]string    `json:"window"`
	Lines       []ViewLine    `json:"lines,omitempty"`
	Scatters    []ViewScatter `json:"scatters,omitempty"`
	FreeAwarded int           `json:"free_awarded,omitempty"`
	WinCents    int64         `json:"win_cents"`
}

// recallSpin is a spin as the recall page shows it.
func recallSpin(pt *reels.Certified, sp *reels.Spin, denom int64) RecallSpin {
	rs := RecallSpin{Free: sp.Free, Stops: slices.Clone(sp.Stops), FreeAwarded: sp.FreeAwarded, WinCents: sp.Win * denom,
		Scatters: scatters(pt, sp, denom)}
	for _, l := range sp.Lines {
		rs.Lines = append(rs.Lines, ViewLine{Line: l.Line, Symbol: pt.Symbols[l.Symbol].ID, Count: l.Count,
			Cents: l.Credits * denom, Progressive: l.Progressive})
	}
	for _, reel := range pt.Window(sp.Stops, sp.Free) {
		col := make([]string, len(reel))
		for k, s := range reel {
			col[k] = pt.Symbols[s].ID
		}
		rs.Window = append(rs.Window, col)
	}
	return rs
}

// recall re-evaluates the last n games, newest first.
func (m *Machine) recall(n int) []Recall {
	var out []Recall
	games := m.st.Games
	for i := len(games) - 1; i >= 0 && len(out) < n; i-- {
		g := games[i]
		r := Recall{Game: g.Start.Game, At: g.Start.At, Paytable: g.Start.Paytable, BetCents: g.Start.BetCents, Stops: g.Start.Stops, Kind: meters.GameReels}
		if g.End != nil {
			r.WinCents = g.End.WinCents
		}
		if g.Start.Hand != nil {
			r.Kind = meters.GameMakccarat
			hv, err := handViewFor(m, g.Start, len(g.Start.Hand.Cards), true)
			if err != nil {
				r.Problem = err.Error()
			} else {
				r.Hand, r.Recomputed = hv, hv.PaidCents
				r.Match = r.Recomputed == r.WinCents && hv.Commission == g.Start.Hand.Commission
			}
			out = append(out, r)
			continue
		}
		for _, f := range g.Free {
			r.FreeStops = append(r.FreeStops, f.Stops)
		}
		pt, problem := m.paytableFor(g.Start)
		if pt == nil {
			r.Problem = problem
			out = append(out, r)
			continue
		}
		sp, err := pt.Evaluate(g.Start.Stops, g.Start.Level, false)
		if err != nil {
			r.Problem = err.Error()
			out = append(out, r)
			continue
		}
		total := sp.Win
		base := recallSpin(pt, sp, g.Start.Denom)
		r.Lines, r.Window, r.Spins = base.Lines, base.Window, []RecallSpin{base}
		for _, f := range g.Free {
			fs, err := pt.Evaluate(f.Stops, g.Start.Level, true)
			if err != nil {
				r.Problem = err.Error()
				break
			}
			total += fs.Win
			r.Spins = append(r.Spins, recallSpin(pt, fs, g.Start.Denom))
		}
		r.Recomputed = total * g.Start.Denom
		r.Match = r.Problem == "" && r.Recomputed == r.WinCents
		out = append(out, r)
	}
	return out
}

func (m *Machine) paytableFor(gs meters.GameStart) (*reels.Certified, string) {
	pt := m.pt
	if pt == nil || pt.ID != gs.Paytable {
		if m.cfg.Load == nil {
			return nil, "paytable " + gs.Paytable + " not available"
		}
		var err error
		if pt, err = m.cfg.Load(gs.Paytable); err != nil {
			return nil, err.Error()
		}
	}
	if pt.Digest != gs.Digest {
		return nil, fmt.Sprintf("paytable %s has changed since game %d (digest %s, recorded %s)", gs.Paytable, gs.Game, pt.Digest, gs.Digest)
	}
	return pt, ""
}
