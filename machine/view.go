package machine

import (
	"cmp"
	"slices"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/reels"

	"github.com/openegm/cabinet/meters"
)

// View is everything a screen shows, read-only: ui/ draws it and the control
// socket reports it. Amounts are cents and credits as the machine counts them;
// ui/ only formats.
type View struct {
	MachineID string `json:"machine_id"`
	Lang      string `json:"lang"`
	// Mode is what the screen is about: starting, idle, spinning, handpay,
	// tilt, door_open, disabled, meter_fault, no_paytable.
	Mode string `json:"mode"`
	// TicketEscrow is the barcode of the ticket the validator holds while
	// the host decides ("" none).
	TicketEscrow string `json:"ticket_escrow,omitempty"`
	// TicketValidation is how a cash-out ticket would be numbered now:
	// "secure-enhanced" once the host set the validation ID, "system",
	// or "" (no host configuration: a handpay, or a dev build's own number).
	TicketValidation string `json:"ticket_validation,omitempty"`
	Paytable         string `json:"paytable,omitempty"`
	Denom            int64  `json:"denom"`
	CreditsCents     int64  `json:"credits_cents"`
	Credits          int64  `json:"credits"`
	// RestrictedCents and NonRestrictedCents are the promotional parts of
	// CreditsCents (SAS AFT, meters/promo.go): restricted credits are
	// played, never cashed out; RestrictedExpires is their last day.
	RestrictedCents    int64          `json:"restricted_cents,omitempty"`
	NonRestrictedCents int64          `json:"non_restricted_cents,omitempty"`
	RestrictedExpires  aft.Expiration `json:"restricted_expires,omitempty"`
	Level              int            `json:"level"`
	// TopOffered is the highest bet level offered now, an index like
	// Level (the operator's bet limit is a count: Config.BetLimit).
	TopOffered  int        `json:"top_offered"`
	CreditsLine int64      `json:"credits_per_line"`
	BetCredits  int64      `json:"bet_credits"`
	BetCents    int64      `json:"bet_cents"`
	Game        uint64     `json:"game"` // the game on screen (open or last)
	Stops       []int      `json:"stops,omitempty"`
	Window      [][]string `json:"window,omitempty"` // symbol IDs, [reel][row]
	Free        bool       `json:"free"`
	FreeLeft    int        `json:"free_left"`
	FreePlayed  int        `json:"free_played"`
	// FreeTotal is the free games the game on screen has awarded so far,
	// retriggers included: the feature's count ("1 of 10") from its first
	// free game on.
	FreeTotal int `json:"free_total,omitempty"`
	// Present is the step of the game the screen is asked to present
	// (present.go); the machine waits for its Presented, or its timeout,
	// before the next. nil outside a reel game.
	Present *Presentation `json:"present,omitempty"`
	Lines   []ViewLine    `json:"lines,omitempty"`
	// Scatters are the spin on screen's scatter symbols that pay or award
	// free games, with where they stand in the window.
	Scatters []ViewScatter `json:"scatters,omitempty"`
	// FreeAwarded is the free games the spin on screen awards.
	FreeAwarded  int   `json:"free_awarded,omitempty"`
	SpinWinCents int64 `json:"spin_win_cents"`
	GameWinCents int64 `json:"game_win_cents"`
	// GameOpen: the game on screen is not over (a spin or free games to
	// come); its win is not yet on the credit meter.
	GameOpen bool `json:"game_open,omitempty"`
	// CreditedCents is the part of the game on screen's win that went to
	// the credit meter when it ended (0 while open, or paid by hand), so a
	// screen can count the credit meter up with the win.
	CreditedCents int64    `json:"credited_cents,omitempty"`
	Tilts         []string `json:"tilts,omitempty"`
	DoorsOpen     []string `json:"doors_open,omitempty"`
	Handpay       int64    `json:"handpay_cents,omitempty"`
	HandpayKind   string   `json:"handpay_kind,omitempty"`
	// HandpayConfirm: the attendant key is on for the handpay; the screen
	// asks the attendant to confirm the amount paid.
	HandpayConfirm bool `json:"handpay_confirm,omitempty"`
	// HandpayVoucher: the attendant's confirmation prints a receipt with a
	// validation number, which the cashier pays (rule 13's voucher): the
	// attendant pays nothing at the machine.
	HandpayVoucher bool   `json:"handpay_voucher,omitempty"`
	Printing       string `json:"printing,omitempty"` // validation number of a ticket being printed
	// PrintingCents is the amount of the ticket being printed.
	PrintingCents int64 `json:"printing_cents,omitempty"`
	// Message is the player's screen's; ServiceMessage the service
	// menu's and its PIN pad's. Expired messages are not in the view.
	Message        Message `json:"message"`
	ServiceMessage Message `json:"service_message"`
	Fault          string  `json:"fault,omitempty"`
	LastGame       uint64  `json:"last_game"`
	HandpayLimit   int64   `json:"handpay_limit_cents"`
	GamesPlayed    int64   `json:"games_played"`
	// Jackpots are the local jackpot levels' values (never a mystery
	// level's hidden hit value).
	Jackpots []JackpotView `json:"jackpots,omitempty"`
	// LinkDown: no progressive information from the link controller for
	// 5 s; bets that could win a linked level are refused.
	LinkDown bool `json:"link_down,omitempty"`
	// SoundOff: the casino host turned the sound off (SAS 0x03).
	SoundOff bool `json:"sound_off,omitempty"`
	// GameKind is the game the player is at (meters.GameReels or
	// GameMakccarat); Games are those the menu offers; Table is the
	// Makccarat table when the operator enabled one.
	GameKind string     `json:"game_kind"`
	Games    []string   `json:"games"`
	Table    *TableView `json:"table,omitempty"`
	// Poker is the seat at a poker table (GamePoker) when the cabinet is
	// configured with a table server.
	Poker   *PokerSeatView `json:"poker,omitempty"`
	Service *ServiceView   `json:"service,omitempty"`
	// AFTLocked: the casino host holds the AFT game lock (SAS 0x74); no
	// game starts and no note is taken until it ends.
	AFTLocked bool `json:"aft_locked,omitempty"`
	// AFT is what the SAS port's AFT core decides transfers from (the
	// machine rechecks each with its own when it records it).
	AFT aft.Conditions `json:"-"`
	// Test is test mode (nil: not in it): the screen says so on every frame.
	Test *TestView `json:"test,omitempty"`
	// KeyOn is the attendant key's position as the machine last saw it,
	// whichever way it came (the key switch's pin, the simulator's key):
	// screens draw it from here and keep no copy of their own.
	KeyOn bool `json:"key_on,omitempty"`
	// LoginPad: the key's turn offers the service login (the PIN pad):
	// the key is on, nobody is logged in, no handpay waits for its
	// confirmation, and the turn was not used up (by a handpay paid, or
	// by entering test mode, whose game the technician then plays: a new
	// turn of the key brings the pad back).
	LoginPad bool `json:"login_pad,omitempty"`
	// Help: the player asked for the help and paytable pages (the help
	// button, physical or on screen); a game that starts closes them.
	Help bool `json:"help,omitempty"`
}

// JackpotView is one jackpot level on screen.
type JackpotView struct {
	Level   int   `json:"level"`
	Cents   int64 `json:"cents"`
	Mystery bool  `json:"mystery,omitempty"`
	Pending bool  `json:"pending,omitempty"` // hit, being awarded
	Linked  bool  `json:"linked,omitempty"`  // a link controller's level (superjackpot)
	// SecondHit is a linked level's rule for near-simultaneous hits, as the
	// operator configured it to match the controller: wins-reset or split.
	SecondHit string `json:"second_hit,omitempty"`
	// For the rules page: the value after a win, the cap a mystery level
	// hits by, and the share of each qualifying bet that feeds the value.
	ResetCents int64 `json:"reset_cents"`
	CapCents   int64 `json:"cap_cents,omitempty"`
	RatePPM    int64 `json:"rate_ppm"`
}

// ServiceView is the service menu's screen.
type ServiceView struct {
	Role          string `json:"role"`
	Who           string `json:"who"`
	MustChangePIN bool   `json:"must_change_pin"`
	// PINHashing: a new PIN is being hashed (the change is not done yet);
	// PINChanges counts the PINs this session changed, so a screen whose
	// new-PIN pad is open closes it when the count moves.
	PINHashing    bool                    `json:"pin_hashing,omitempty"`
	PINChanges    int                     `json:"pin_changes,omitempty"`
	Page          string                  `json:"page"`
	RAMClearArmed bool                    `json:"ram_clear_armed,omitempty"`
	Meters        []MeterLine             `json:"meters,omitempty"`
	Recall        []Recall                `json:"recall,omitempty"`
	Events        []ViewEvent             `json:"events,omitempty"`
	Bills         []meters.MoneyIn        `json:"bills,omitempty"`
	Handpays      []meters.HandpayHistory `json:"handpays,omitempty"`
	Settings      map[string]string       `json:"settings,omitempty"`
	// Inputs are the live input levels for the I/O test page; the owner
	// fills them from the hardware (the machine core does not see pins).
	Inputs map[string]bool `json:"inputs,omitempty"`
	// Identification, for the inspector: the running program's hash and the
	// certified paytable with its exact RTP per bet level.
	ProgramHash     string    `json:"program_hash,omitempty"`
	ProgramApproval string    `json:"program_approval,omitempty"`
	ProgramApproved *Approval `json:"program_approved,omitempty"`
	PaytableID      string    `json:"paytable_id,omitempty"`
	PaytableDigest  string    `json:"paytable_digest,omitempty"`
	CertifiedRTP    []string  `json:"certified_rtp,omitempty"` // exact fractions, per level
	// TotalWonCents and TotalBetCents are the meters of the actual
	// return (total won ÷ total bet), which the screen shows as a
	// percentage.
	TotalWonCents int64 `json:"total_won_cents"`
	TotalBetCents int64 `json:"total_bet_cents"`
	// Verdict is the last ledger verification asked in this session.
	Verdict *Verdict `json:"verdict,omitempty"`
}

// MeterLine is one meter on the service screen.
type MeterLine struct {
	Name  string `json:"name"`
	SAS   int    `json:"sas"` // -1 when SAS has no code for it
	Cents bool   `json:"cents"`
	Value int64  `json:"value"`
}

// ViewEvent is a line of the technician's event log: an event of the
// history, or a money event (a note or ticket in, a handpay and its reset,
// a game's free games) from the ledger's histories.
type ViewEvent struct {
	meters.Event
	Kind  string `json:"kind,omitempty"` // a note's source, a handpay's kind
	Game  uint64 `json:"game,omitempty"`
	Count int    `json:"count,omitempty"` // free games played
}

// Codes of the money events the event log adds to the history's.
const (
	EventMoneyIn      = "money_in"
	EventHandpay      = "handpay"
	EventHandpayReset = "handpay_reset"
	EventFreeGames    = "free_games"
)

// EventLines is how many events the event log shows, newest last.
const EventLines = 100

// events is the event log: the history's events and the money events,
// in time order, the last n.
func (m *Machine) events(n int) []ViewEvent {
	var out []ViewEvent
	for _, e := range m.st.Events {
		out = append(out, ViewEvent{Event: e})
	}
	for _, b := range m.st.Bills {
		out = append(out, ViewEvent{Event: meters.Event{At: b.At, Code: EventMoneyIn, Cents: b.Cents, Ref: b.Ref}, Kind: b.Source})
	}
	for _, h := range m.st.Handpays {
		p := h.Pending
		out = append(out, ViewEvent{Event: meters.Event{At: p.At, Code: EventHandpay, Cents: p.Cents, Ref: p.Ref}, Kind: p.Kind, Game: p.Game})
		if r := h.Reset; r != nil {
			out = append(out, ViewEvent{Event: meters.Event{At: r.At, Code: EventHandpayReset, Cents: r.Cents, Who: r.Who}, Kind: p.Kind, Game: p.Game})
		}
	}
	for _, g := range m.st.Games {
		if len(g.Free) == 0 {
			continue
		}
		var won int64
		for _, f := range g.Free {
			won += f.WinCents
		}
		last := g.Free[len(g.Free)-1]
		out = append(out, ViewEvent{Event: meters.Event{At: last.At, Code: EventFreeGames, Cents: won}, Game: g.Start.Game, Count: len(g.Free)})
	}
	slices.SortStableFunc(out, func(a, b ViewEvent) int { return cmp.Compare(a.At, b.At) })
	return lastOf(out, n)
}

// RecallGames is how many games the recall page shows.
const RecallGames = 100

// ViewLine is a paying line of the spin on screen.
type ViewLine struct {
	Line        int    `json:"line"`
	Symbol      string `json:"symbol"`
	Count       int    `json:"count"`
	Cents       int64  `json:"cents"`
	Progressive int    `json:"progressive,omitempty"`
}

// ViewScatter is a scatter symbol of the spin on screen: what it pays (at
// the bet, multiplier included), the free games it awards, and its cells.
type ViewScatter struct {
	Symbol    string   `json:"symbol"`
	Count     int      `json:"count"`
	Cents     int64    `json:"cents,omitempty"`
	FreeGames int      `json:"free_games,omitempty"`
	Cells     [][2]int `json:"cells"` // [reel, row] in the window
}

// View returns what to show now.
func (m *Machine) View() View {
	v := View{
		MachineID: m.cfg.MachineID, Lang: m.lang, Denom: m.cfg.Denom, Message: m.current(m.message),
		ServiceMessage: m.current(m.svcMessage),
		CreditsCents:   m.st.Get(meters.Credits), Credits: m.st.Get(meters.Credits) / m.cfg.Denom,
		Tilts: slices.Clone(m.st.Tilts), DoorsOpen: slices.Clone(m.st.DoorsOpen), Fault: m.fault,
		LastGame: m.st.LastGame, GamesPlayed: m.st.Get(meters.GamesPlayed), Level: m.level,
		HandpayLimit: m.cfg.HandpayLimit, AFTLocked: m.aftLocked, AFT: m.AFTConditions(),
	}
	v.RestrictedCents, v.NonRestrictedCents, v.RestrictedExpires = v.AFT.Credits.Restricted, v.AFT.Credits.NonRestricted, v.AFT.Credits.RestrictedExpiration
	if e := m.st.TITO.Escrow; e != nil {
		v.TicketEscrow = e.Digits
	}
	v.TicketValidation = m.ticketValidation()
	if m.pt != nil {
		v.Paytable = m.pt.ID
		v.TopOffered = m.topOffered()
		v.CreditsLine = m.pt.CreditsPerLine[m.level]
		v.BetCredits = m.pt.Bet(m.level)
		v.BetCents = v.BetCredits * m.cfg.Denom
	}
	if h := m.st.Handpay; h != nil {
		v.Handpay, v.HandpayKind, v.HandpayConfirm = h.Cents, h.Kind, m.handpayKey
		v.HandpayVoucher = m.handpayVoucher()
	}
	for _, l := range m.st.LocalLevels() {
		v.Jackpots = append(v.Jackpots, JackpotView{Level: l.Level, Cents: l.Cents, Mystery: l.Mystery, Pending: l.Pending,
			ResetCents: l.Reset, CapCents: l.Cap, RatePPM: l.RatePPM})
	}
	for _, lv := range m.cfg.Linked {
		pending := slices.ContainsFunc(m.st.PendingHits, func(h meters.ProgressiveHit) bool { return h.Level == lv })
		rule := m.cfg.LinkSecondHit
		if m.linkAward() == LinkAwardBroadcast {
			rule = "shown" // each hit is paid the value the machine showed
		}
		v.Jackpots = append(v.Jackpots, JackpotView{Level: lv, Cents: m.link[lv], Linked: true, Pending: pending, SecondHit: rule})
	}
	v.LinkDown, v.SoundOff = m.linkDown, m.soundOff
	if t := m.st.PendingTicket; t != nil {
		v.Printing, v.PrintingCents = t.Ticket, t.Cents
	}
	if sp := m.shown; sp != nil && m.pt != nil {
		v.Stops = sp.Stops
		v.Free = sp.Free
		for _, reel := range m.pt.Window(sp.Stops, sp.Free) {
			col := make([]string, len(reel))
			for r, s := range reel {
				col[r] = m.pt.Symbols[s].ID
			}
			v.Window = append(v.Window, col)
		}
		v.SpinWinCents = sp.Win * m.cfg.Denom
		for _, l := range sp.Lines {
			v.Lines = append(v.Lines, ViewLine{Line: l.Line, Symbol: m.pt.Symbols[l.Symbol].ID, Count: l.Count,
				Cents: l.Credits * m.cfg.Denom, Progressive: l.Progressive})
		}
		v.FreeAwarded = sp.FreeAwarded
		v.Scatters = scatters(m.pt, sp, m.cfg.Denom)
	}
	if g := m.st.Open; g != nil {
		v.GameOpen = true
		v.Game = g.Start.Game
		v.FreeLeft, v.FreePlayed = m.st.FreeLeft, len(g.Free)
		v.FreeTotal = len(g.Free) + m.st.FreeLeft
		if m.phase == spinning && g.Start.Hand == nil && m.pres.ID != 0 {
			p := m.pres
			v.Present = &p
		}
		v.GameWinCents = g.Start.WinCents
		for _, f := range g.Free {
			v.GameWinCents += f.WinCents
		}
	} else if n := len(m.st.Games); n > 0 {
		last := m.st.Games[n-1]
		v.Game = last.Start.Game
		if last.End != nil {
			v.GameWinCents = last.End.WinCents
			if !last.End.Handpay {
				v.CreditedCents = last.End.WinCents
			}
		}
		v.FreePlayed, v.FreeTotal = len(last.Free), len(last.Free)
	}
	v.GameKind, v.Table = m.game, m.tableView()
	for _, g := range append(meters.GameKinds[:len(meters.GameKinds):len(meters.GameKinds)], GamePoker) {
		if m.offers(g) {
			v.Games = append(v.Games, g)
		}
	}
	v.Poker = m.pokerView()
	v.Mode = m.mode()
	if s := m.session; s != nil {
		v.Mode = "service"
		sv := &ServiceView{Role: s.role, Who: s.who, MustChangePIN: s.mustChange, Page: s.page, RAMClearArmed: s.armed,
			PINHashing: s.pinJob != 0, PINChanges: s.pinChanges, Settings: map[string]string{}}
		for _, k := range []string{"denom", "handpay_limit", "language", SettingBetLimit, "paytable"} {
			if v := m.setting(k); v != "" {
				sv.Settings[k] = v
			}
		}
		if m.pt != nil {
			sv.PaytableID, sv.PaytableDigest = m.pt.ID, m.pt.Digest
			for _, r := range m.pt.RTP {
				sv.CertifiedRTP = append(sv.CertifiedRTP, r.RatString())
			}
		}
		sv.ProgramHash, sv.ProgramApproval, sv.ProgramApproved = m.programHash, m.programApproval, m.programApproved
		if s.verdict != nil {
			v := *s.verdict
			sv.Verdict = &v
		}
		sv.TotalWonCents, sv.TotalBetCents = m.st.Get(meters.TotalWon), m.st.Get(meters.CoinIn)
		switch s.page {
		case "meters":
			for i, d := range meters.Defs {
				sv.Meters = append(sv.Meters, MeterLine{Name: d.Name, SAS: d.SAS, Cents: d.Cents, Value: m.st.Meters[i]})
			}
		case "recall":
			sv.Recall = m.recall(RecallGames)
		case "events":
			sv.Events = m.events(EventLines)
		case "bills":
			sv.Bills = lastOf(m.st.Bills, 100)
		case "handpays":
			sv.Handpays = lastOf(m.st.Handpays, 100)
		}
		v.Service = sv
	}
	m.testView(&v)
	v.KeyOn, v.Help = m.keyOn, m.help && m.session == nil
	v.LoginPad = m.keyOn && m.loginPad && m.session == nil && !m.handpayKey
	return v
}

// scatters lists a spin's paying scatters and its free-game trigger with
// the cells they stand on.
func scatters(pt *reels.Certified, sp *reels.Spin, denom int64) []ViewScatter {
	window := pt.Window(sp.Stops, sp.Free)
	cells := func(sym int) [][2]int {
		var out [][2]int
		for i, reel := range window {
			for r, s := range reel {
				if int(s) == sym {
					out = append(out, [2]int{i, r})
				}
			}
		}
		return out
	}
	var out []ViewScatter
	for _, sw := range sp.Scatters {
		out = append(out, ViewScatter{Symbol: pt.Symbols[sw.Symbol].ID, Count: sw.Count, Cents: sw.Credits * denom, Cells: cells(sw.Symbol)})
	}
	if sp.FreeAwarded > 0 && pt.Free != nil {
		id := pt.Symbols[pt.Free.Symbol].ID
		i := slices.IndexFunc(out, func(s ViewScatter) bool { return s.Symbol == id })
		if i < 0 {
			c := cells(pt.Free.Symbol)
			out = append(out, ViewScatter{Symbol: id, Count: len(c), Cells: c})
			i = len(out) - 1
		}
		out[i].FreeGames = sp.FreeAwarded
	}
	return out
}

func lastOf[T any](s []T, n int) []T {
	if len(s) > n {
		s = s[len(s)-n:]
	}
	return slices.Clone(s)
}

func (m *Machine) mode() string {
	switch {
	case m.fault != "":
		return "meter_fault"
	case !m.poweredUp:
		return "starting"
	case m.st.Handpay != nil || m.st.OwedHandpay > 0:
		return "handpay"
	case len(m.st.Tilts) > 0:
		return "tilt"
	case len(m.st.DoorsOpen) > 0:
		return "door_open"
	case m.phase == spinning && m.st.Open != nil && m.st.Open.Start.Hand != nil:
		return "dealing"
	case m.phase == spinning:
		return "spinning"
	case m.pt == nil:
		return "no_paytable"
	case m.hostDisabled:
		return "disabled"
	}
	return "idle"
}
