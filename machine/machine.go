package machine

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

// Config is what the operator sets (only with no credits and no game).
type Config struct {
	MachineID    string // shown on every screen (regulation rule 10)
	MachineNum   int    // 0-9999, the first digits of ticket validation numbers
	Denom        int64  // cents per credit
	HandpayLimit int64  // cents: a game win or a cash-out at or above it is paid by hand
	SpinTime     time.Duration
	// PresentTimeout is how long the game waits for the screen to say it
	// presented a step (a win, a feature trigger, the feature's total) or,
	// unless the paytable asks for the player's press, for the feature to
	// start (0: twice SpinTime). See present.go.
	PresentTimeout time.Duration
	// Linked are the progressive levels the link controller awards (SAS
	// progressives). The top bet level, the only one where a progressive
	// combination wins a level, is offered only when every level the
	// paytable names is local, or linked with the link up.
	Linked []int
	// LinkSecondHit is the link controller's rule for near-simultaneous
	// hits on the linked levels ("wins-reset" or "split"), shown to players.
	LinkSecondHit string
	// LinkAward is how a linked hit is paid: LinkAwardBroadcast (the
	// default, "" too) or LinkAwardAddressed (see link.go).
	LinkAward string
	// LocalJackpot are the levels of the cabinet's own jackpot (regulation
	// rule 3), as the operator configured them (At, Who and Target are
	// filled in when a level is opened). A level is opened once, at the
	// first power-up that finds it configured; from then on the ledger is its
	// truth and a changed configuration does not alter it.
	LocalJackpot []meters.JackpotLevel
	// BetLimit is the operator's bet limit: how many bet levels may be
	// offered, from the lowest (a limit of 2 offers the levels the PAR
	// sheet numbers 1 and 2, indexes 0 and 1); 0 = no limit. Recorded
	// under the setting key SettingBetLimit.
	BetLimit int
	// PINHashes are the service roles' argon2id PIN hashes, by role (kept
	// by the owner outside the ledger); a role without one still has
	// DefaultPIN.
	PINHashes map[string]string
	// Load returns an embedded certified paytable by ID (for a paytable
	// change and for recalling games played on another paytable).
	Load func(id string) (*reels.Certified, error)
	// Table is the certified Makccarat definition the operator enabled
	// (nil: the cabinet offers the reel game only); LoadTable returns an
	// embedded one by ID, to recall hands dealt on another. CardTime is
	// how long each card takes to turn (0: DefaultCardTime).
	Table     *baccarat.Certified
	LoadTable func(id string) (*baccarat.Certified, error)
	CardTime  time.Duration
	// HandpayConfirm: the attendant key does not reset a handpay at once;
	// the screen asks the attendant to confirm the amount paid
	// (HandpayPaid) and a receipt is printed. Without it (a cabinet
	// without a screen) the key turn is the confirmation.
	HandpayConfirm bool
	// Lab: a lab build (never a production one) that may choose the next
	// test game's outcome in test mode (TestOutcome, testmode.go).
	Lab bool
	// Validation is how cash-out tickets are numbered: ValidationSecureEnhanced
	// ("" too: from the ID the host sets with 0x4C) or ValidationSystem (the
	// host's number, 0x57/0x58). DevTickets: a development build without a
	// host configuration prints its own (predictable) numbers rather than
	// paying by hand. TicketTimeout is how long the host has to answer a
	// ticket in escrow or a cash-out waiting for its number (at least
	// MinTicketTimeout). See ticketin.go.
	Validation    string
	DevTickets    bool
	TicketTimeout time.Duration
	// PokerTables: the cabinet is configured with a casino's table server;
	// the game menu offers a seat at its poker tables (GamePoker,
	// pokerseat.go).
	PokerTables bool
}

// SettingProgram is the settings key holding the hash of the program that
// last powered up.
const SettingProgram = "program"

// SettingBetLimit is the settings key of the bet limit (Config.BetLimit):
// a count of bet levels, as ledgers have always recorded it.
const SettingBetLimit = "max_level"

// Tilt names. How each clears is in tiltClear.
const (
	TiltProgram  = "program"
	TiltPaytable = "paytable"
	TiltRNG      = "rng"
	TiltBillJam  = "bill_jam"
	TiltPrinter  = "printer"
	// TiltBillValidator: the validator stacked a note the ledger did not
	// order (the cashbox and the meters disagree until someone looks).
	TiltBillValidator = "bill_validator"
	// TiltMeter: a meter fault happened before this start (the ledger or a
	// hard meter could not be written); the technician clears it.
	TiltMeter = "meter"
	// Evidence of tampering (Tamper), each cleared by a technician once
	// dealt with; the records that raised them stay in the ledger.
	TiltLedger   = "ledger_forged" // a snapshot the log does not vouch for
	TiltRollback = "rollback"      // the data is older than what the board or the hard meters witnessed
	TiltWitness  = "witness"       // the board's witness is empty or far behind (a board replaced)
)

// tiltClear says how a tilt is cleared: "restart" (a self-test failure stays
// until a power-up whose test passes) or "key" (the device reports it is
// fine again and an attendant turns the key).
var tiltClear = map[string]string{
	TiltProgram: "restart", TiltPaytable: "restart", TiltRNG: "restart",
	TiltBillJam: "key", TiltPrinter: "key", TiltBillValidator: "key",
	TiltMeter: "technician", TiltLedger: "technician", TiltRollback: "technician", TiltWitness: "technician",
}

// phase of the game cycle.
type phase int

const (
	idle     phase = iota
	spinning       // a committed spin is being shown until `until`
)

// Machine is the cabinet state machine. Not safe for concurrent use: one
// owner goroutine steps it.
type Machine struct {
	cfg   Config
	pt    *reels.Certified // nil when no paytable passed the checks
	src   rng.Source
	st    *meters.State // the ledger's fold, advanced with every record emitted
	now   time.Time
	level int

	phase phase
	until time.Time
	shown *reels.Spin // the spin on screen (base or free)

	// The open reel game's step on screen (present.go): which step, what
	// the view asks the screen to present, whether the screen said it did,
	// whether the player pressed spin to start the feature, and the last
	// presentation ID taken.
	stage        stage
	pres         Presentation
	presented    bool
	startPressed bool
	presSeq      uint64

	game    string        // the game the player chose (meters.GameReels or GameMakccarat)
	bets    baccarat.Bets // chips on the table for the next hand: not money until dealt
	shoe    *cards.Shoe   // the table's shoe, shuffled afresh for every hand
	dealtAt time.Time     // when the hand on screen started to turn

	poweredUp       bool
	hostDisabled    bool
	hostNoBills     bool            // the host turned the bill acceptor off
	hostBills       []int64         // the notes the host allows (SAS 0x08); nil: every note
	hostBillOnce    bool            // the host turns the acceptor off after each bill (0x08)
	fault           string          // meter fault: nothing more can be recorded
	devFault        map[string]bool // device conditions behind key-cleared tilts
	reprint         bool            // the ticket being printed is a reprint
	lang            string          // the language on screen: the player's choice
	opLang          string          // the operator's language: every new player's
	playerAt        time.Time       // the player's last press or note
	cashedOut       bool            // the player cashed out: the next one starts afresh
	restrictedNext  bool            // the cash-out's restricted ticket follows the cashable one (ticketin.go)
	message         Message         // the player's screen's
	svcMessage      Message         // the service screens'
	keyOn           bool
	handpayKey      bool // the key is on for a handpay: its confirmation is awaited
	loginPad        bool // the key's turn offers the service login (View.LoginPad)
	help            bool // the player asked for the help and paytable pages (View.Help)
	keyWho          string
	programHash     string
	programApproval string
	programApproved *Approval
	soundOff        bool     // the host turned the sound off (SAS 0x03); the screen mutes
	aftLocked       bool     // the AFT host holds the game lock (SAS 0x74)
	session         *session // the service menu's logged-in user
	pinJobs         uint64   // PIN changes handed out to be hashed (HashPIN.ID)

	test *testMode // what test mode set aside (testmode.go)

	receipts receiptJob // the AFT receipt at the printer (aftreceipt.go)

	// The link controller's latest values of the linked levels (cents) and
	// when each arrived; the link is down after 5 s without one.
	link     map[int]int64
	linkAt   map[int]time.Time
	linkDown bool
	pay      linkPay

	// When the ticket in escrow, and the cash-out waiting for its number,
	// started to wait for the host (ticketin.go).
	escrowSince  time.Time
	requestSince time.Time

	// The table server's tables and the seat's table as it last saw them
	// (pokerseat.go): shown, never recorded.
	pokerTables []seatmsg.TableInfo
	pokerState  *seatmsg.StateMsg
	// The player's replay and his ended session's summary: shown until he
	// closes them, never recorded (a power loss forgets them).
	pokerReplay    *seatmsg.ReplayMsg
	pokerReplaySeq uint64
	pokerEnded     *PokerSessionEnd
}

// LinkTimeout is how long the machine waits for progressive information
// before it reports the link down (SAS exception 0x53).
const LinkTimeout = 5 * time.Second

// New builds the machine from the ledger's state after start-up. pt may be
// nil when the paytable failed its checks (the PowerUp self-test says why).
func New(cfg Config, pt *reels.Certified, st *meters.State, src rng.Source) *Machine {
	m := &Machine{cfg: cfg, pt: pt, src: src, st: st.Clone(), devFault: map[string]bool{}, lang: "pt", opLang: "pt",
		link: map[int]int64{}, linkAt: map[int]time.Time{}, game: meters.GameReels}
	m.cfg.PINHashes = maps.Clone(cfg.PINHashes)
	// Settings made in the service menu are in the ledger; they win over the
	// defaults the program was started with. The paytable setting is chosen
	// by the owner before it loads and checks the paytable.
	for k, v := range m.st.Settings {
		if settable[k] {
			m.setConfig(k, v)
		}
	}
	return m
}

// Effects are what a Step asks the owner to do, in this order: commit the
// records, then perform the device commands, then show the View.
type Effects struct {
	Records []meters.Record
	Devices []Device
	// Refused says why a player action was not carried out (a message key).
	Refused string
	// AFTRefused is the transfer status (a failure) of an AFTTransfer the
	// machine did not record; 0 when it recorded it or the event was
	// another.
	AFTRefused aft.Status
}

// Step feeds one event and returns its effects.
func (m *Machine) Step(ev Event) Effects {
	var eff Effects
	if t := ev.at(); t.After(m.now) {
		m.now = t
	}
	if m.fault != "" {
		// Nothing can be recorded, so nothing may happen, and no money is
		// taken: a note offered anyway goes back.
		switch e := ev.(type) {
		case Button:
			eff.Refused = "refused_meter_fault"
		case AFTTransfer:
			eff.AFTRefused = aft.StatusUnable
		case BillEscrowed:
			eff.Devices = append(eff.Devices, ReturnBill{Reason: "meter fault"})
			m.say("msg_bill_rejected", e.Cents)
		case TicketInserted:
			eff.Devices = append(eff.Devices, ReturnTicket{Digits: e.Digits, Reason: "meter fault"})
		}
		return eff
	}
	m.expirePromo(&eff)
	wasIdle, wasService := m.phase == idle, m.session != nil
	defer func() {
		// The help pages give way to a game that starts and to the
		// service menu, on every screen (the view says so).
		if (wasIdle && m.phase != idle) || (!wasService && m.session != nil) {
			m.help = false
		}
	}()
	switch e := ev.(type) {
	case PowerUp:
		m.powerUp(e, &eff)
	case PowerDown:
		m.record(&eff, meters.Event{At: m.ns(), Code: meters.EventPowerDown})
		m.poweredUp = false
	case Tick:
		m.testTick()
		m.tick(&eff)
	case Presented:
		m.presentedBy(e, &eff)
	case Button:
		m.playerAt = m.now
		m.button(e, &eff)
	case SelectGame:
		m.playerAt = m.now
		m.selectGame(e, &eff)
	case PlaceBet:
		m.playerAt = m.now
		m.placeBet(e, &eff)
	case Key:
		m.key(e, &eff)
	case Door:
		m.door(e, &eff)
	case BillEscrowed:
		m.playerAt = m.now
		m.billEscrowed(e, &eff)
	case BillStacked:
		m.billStacked(e, &eff)
	case BillRejected:
		if p := m.st.PendingBill; p != nil && e.Order == p.Ref {
			m.record(&eff, meters.BillReturned{At: m.ns(), Ref: p.Ref, Cents: p.Cents, Why: "validator returned it: " + e.Reason})
		}
		m.say("msg_bill_rejected", e.Cents)
	case BillJam:
		m.devFault[TiltBillJam] = true
		m.tilt(&eff, TiltBillJam, "bill validator jammed")
	case BillJamCleared:
		delete(m.devFault, TiltBillJam)
	case TicketPrinted:
		if t := m.st.PendingTicket; t != nil && t.Ticket == e.Validation {
			if m.record(&eff, meters.TicketPrinted{At: m.ns(), Ticket: t.Ticket, Cents: t.Cents, Reprint: m.reprint}) {
				m.reprint = false
				m.say("msg_ticket_printed", t.Cents)
				m.restrictedAfter(&eff)
			}
		} else {
			m.receiptPrinted(e.Validation, &eff)
		}
	case PrinterFault:
		m.devFault[TiltPrinter] = true
		m.receiptStopped()
		m.tilt(&eff, TiltPrinter, e.Reason)
		if m.st.PendingTicket != nil {
			m.ticketToHandpay(&eff, "printer fault: "+e.Reason)
		}
	case PrinterOK:
		delete(m.devFault, TiltPrinter)
	case HostCommand:
		switch e.Cmd {
		case HostDisable:
			m.hostDisabled = true
		case HostEnable:
			m.hostDisabled = false
		case HostBillsDisable:
			m.hostNoBills = true
		case HostBillsEnable:
			m.hostNoBills = false
		case HostSoundOff:
			m.soundOff = true
		case HostSoundOn:
			m.soundOff = false
		}
	case HostHandpayReset:
		m.hostHandpayReset(e, &eff)
	case AFTTransfer:
		m.aftTransfer(e, &eff)
	case AFTRegistration:
		m.record(&eff, meters.AFTRegistration{At: m.ns(), Registration: e.Registration})
	case AFTLock:
		m.aftLock(e)
	case AFTReceiptText:
		m.aftReceiptText(e, &eff)
	case HostBillDenominations:
		m.hostBills, m.hostBillOnce = slices.Clone(e.Accept), e.DisableAfterAccept
	case LedgerFault:
		m.ledgerFault(e, &eff)
		return eff
	case Tamper:
		m.tilt(&eff, e.Tilt, e.Detail)
	case LinkBroadcast:
		m.linkBroadcast(e, &eff)
	case LinkConfirm:
		m.linkConfirm(e, &eff)
	case LinkWinsRead:
		m.linkWinsRead(e, &eff)
	case LedgerVerdict:
		if m.session != nil {
			v := e.Verdict
			m.session.verdict = &v
		}
	case PINEntry:
		m.pinEntry(e, &eff)
	case PINChecked:
		m.pinChecked(e, &eff)
	case PINHashed:
		m.pinHashed(e, &eff)
	case ServiceAction:
		m.serviceAction(e, &eff)
	case HandpayPaid:
		m.handpayPaid(e, &eff)
	case TestOutcome:
		m.testOutcome(e, &eff)
	default:
		if !m.ticketEvent(ev, &eff) {
			m.pokerEvent(ev, &eff)
		}
	}
	m.printReceipts(&eff)
	if m.fault == "" {
		eff.Devices = append(eff.Devices, EnableBills{On: m.acceptsBills(), Accept: m.hostBills})
	}
	m.nextPlayer()
	return eff
}

// LangIdle is how long a machine without credit waits before it takes the
// operator's language back from the last player.
const LangIdle = 2 * time.Minute

// nextPlayer gives the next player the operator's language: once the last
// one has cashed out and been paid, or left the machine without credit.
func (m *Machine) nextPlayer() {
	if m.lang == m.opLang || m.st.Get(meters.Credits) != 0 || m.st.PendingTicket != nil || m.st.Handpay != nil ||
		m.st.OwedHandpay != 0 || m.st.Open != nil || m.phase != idle || m.session != nil || m.st.Poker.Busy() != "" {
		return
	}
	if m.cashedOut || !m.now.Before(m.playerAt.Add(LangIdle)) {
		m.lang, m.cashedOut = m.opLang, false
	}
}

func (m *Machine) ns() int64 { return m.now.UnixNano() }

// record advances the machine's fold with r and queues r for the ledger. A
// record the fold refuses is a defect of the machine; it is treated as a
// meter fault rather than letting the machine and the ledger part ways.
func (m *Machine) record(eff *Effects, r meters.Record) bool {
	next, err := m.st.Next(r)
	if err != nil {
		m.fault = fmt.Sprintf("internal: %v refused: %v", r.Type(), err)
		return false
	}
	m.st = next
	eff.Records = append(eff.Records, r)
	return true
}

func (m *Machine) tilt(eff *Effects, name, detail string) {
	if !slices.Contains(m.st.Tilts, name) {
		m.record(eff, meters.Event{At: m.ns(), Code: meters.EventTilt, Tilt: name, Detail: detail})
	}
}

func (m *Machine) clearTilt(eff *Effects, name string) {
	if slices.Contains(m.st.Tilts, name) {
		m.record(eff, meters.Event{At: m.ns(), Code: meters.EventTiltClear, Tilt: name})
	}
}

func (m *Machine) powerUp(e PowerUp, eff *Effects) {
	m.poweredUp = true
	// Presentation IDs go on from the power-up's time, so a screen's word
	// about a presentation from before the power loss is stale.
	m.presSeq = max(m.presSeq, uint64(max(m.now.UnixMilli(), 0)))
	// The link gets LinkTimeout from now to speak before it is down.
	for _, lv := range m.cfg.Linked {
		if _, ok := m.linkAt[lv]; !ok {
			m.linkAt[lv] = m.now
		}
	}
	m.record(eff, meters.Event{At: m.ns(), Code: meters.EventPowerUp})
	m.leaveTestAtPowerUp(eff)
	for name, failure := range map[string]string{TiltProgram: e.Tests.Program, TiltPaytable: e.Tests.Paytable, TiltRNG: e.Tests.RNG} {
		if failure != "" {
			m.tilt(eff, name, failure)
		} else {
			m.clearTilt(eff, name)
		}
	}
	if e.Tests.Paytable != "" {
		m.pt = nil
	}
	if e.PriorFault != "" {
		m.tilt(eff, TiltMeter, e.PriorFault)
	}
	for _, t := range e.Evidence {
		m.tilt(eff, t.Tilt, t.Detail)
	}
	m.startSettings(e.Settings, eff)
	m.recordPaytable(eff, "self-test")
	// A program other than the one that ran before is reported in the log
	// (and to the host as options changed), with its hash for the inspector.
	m.programHash, m.programApproval, m.programApproved = e.Tests.ProgramHash, e.Tests.ProgramApproval, e.Tests.Approved
	if h := e.Tests.ProgramHash; h != "" && m.st.Settings[SettingProgram] != h {
		m.record(eff, meters.Config{At: m.ns(), Who: "self-test", Key: SettingProgram, Value: h})
	}
	m.recordLinkSettings(eff)
	m.openLocalLevels(eff)
	m.settleDevices(e.Devices, eff)
	m.receiptsAtPowerUp(e.Devices)
	m.expirePromo(eff)
	m.ticketPowerUp()
	m.pokerPowerUp(eff)
	m.showCommitted()
	// Resume, never redraw (DESIGN rule 2).
	switch {
	case m.st.Open != nil && m.st.Open.Start.Hand != nil:
		gs := m.st.Open.Start
		if t := m.cfg.Table; t == nil || gs.Paytable != t.ID || gs.Digest != t.Digest {
			m.tilt(eff, TiltPaytable, fmt.Sprintf("hand %d in progress was dealt on table definition %s, which is not loaded", gs.Game, gs.Paytable))
			return
		}
		m.game = meters.GameMakccarat
		m.turnCards(len(gs.Hand.Cards)) // the same cards, turned again from the first
	case m.st.Open != nil:
		if m.pt == nil || m.st.Open.Start.Paytable != m.pt.ID || m.st.Open.Start.Digest != m.pt.Digest {
			m.tilt(eff, TiltPaytable, fmt.Sprintf("game %d in progress was played on paytable %s, which is not loaded", m.st.Open.Start.Game, m.st.Open.Start.Paytable))
			return
		}
		m.level = m.st.Open.Start.Level
		// The spin on screen is shown again and its steps follow from the
		// ledger (present.go): a trigger's announcement is shown again, a
		// free game committed is not drawn again.
		m.showSpin()
	case m.st.OwedHandpay > 0 && m.st.Handpay == nil:
		// A win was committed, its handpay lockout was not.
		m.resumeOwed(eff)
	}
}

// showCommitted puts the last committed spin back on screen: that of the
// open game, else the last game's, if it was played on the loaded paytable.
func (m *Machine) showCommitted() {
	g := m.st.Open
	if g == nil && len(m.st.Games) > 0 {
		g = &m.st.Games[len(m.st.Games)-1]
	}
	if g == nil || m.pt == nil || g.Start.Paytable != m.pt.ID || g.Start.Digest != m.pt.Digest {
		return
	}
	stops, free := g.Start.Stops, false
	if n := len(g.Free); n > 0 {
		stops, free = g.Free[n-1].Stops, true
	}
	if sp, err := m.pt.Evaluate(stops, g.Start.Level, free); err == nil {
		m.shown = sp
	}
}

// ledgerFault stops the machine on a failed commit. It goes back to what
// the ledger holds (a step's state was advanced before its records were
// written), turns the bill acceptor off and gives back a note in escrow.
func (m *Machine) ledgerFault(e LedgerFault, eff *Effects) {
	m.fault = e.Err
	if e.Committed != nil {
		m.st = e.Committed.Clone()
		m.phase, m.shown, m.reprint, m.restrictedNext = idle, nil, false, false
		m.showCommitted()
	}
	m.message = Message{Key: "refused_meter_fault", Detail: e.Err}
	eff.Devices = append(eff.Devices, EnableBills{On: false}, ReturnBill{Reason: "meter fault"})
}

// canStart says why a game cannot start now ("" when it can), a seat at a
// poker table apart (canPlay adds it).
func (m *Machine) canStart() string {
	switch {
	case !m.poweredUp:
		return "refused_starting"
	case m.pt == nil:
		return "refused_no_paytable"
	case len(m.st.Tilts) > 0:
		return "refused_tilt"
	case len(m.st.DoorsOpen) > 0:
		return "refused_door_open"
	case m.hostDisabled:
		return "refused_disabled"
	case m.st.Handpay != nil || m.st.OwedHandpay > 0:
		return "refused_handpay"
	case m.phase != idle || m.st.Open != nil:
		return "refused_game_in_progress"
	case len(m.st.PendingHits) > 0:
		return "refused_jackpot_pending"
	case m.st.PendingTicket != nil || m.st.TITO.Requested != nil || m.printingReceipt():
		return "refused_printing"
	case m.session != nil:
		return "refused_service"
	case m.aftLocked:
		return "refused_aft_locked"
	}
	return ""
}

func (m *Machine) acceptsBills() bool {
	return m.poweredUp && m.pt != nil && len(m.st.Tilts) == 0 && len(m.st.DoorsOpen) == 0 &&
		!m.hostDisabled && !m.hostNoBills && m.st.Handpay == nil && m.st.OwedHandpay == 0 && !m.aftLocked && !m.inTest()
}

// topOffered is the highest bet level offered, an index like m.level: the
// operator's bet limit, and without a jackpot system never the progressive
// top level.
func (m *Machine) topOffered() int {
	top := m.pt.TopLevel()
	if top > 0 {
		for _, lp := range m.pt.LinePays {
			if lp.Progressive > 0 && !m.awards(lp.Progressive) {
				top--
				break
			}
		}
	}
	if m.cfg.BetLimit > 0 {
		top = min(top, m.cfg.BetLimit-1)
	}
	return top
}

// betRefused says why no bet at all can be offered: a paytable whose only
// bet level can win a jackpot level no jackpot system awards now (a hit
// would wait for an award that never comes).
func (m *Machine) betRefused() string {
	if m.pt.TopLevel() > 0 {
		return ""
	}
	for _, lp := range m.pt.LinePays {
		if lp.Progressive > 0 && !m.awards(lp.Progressive) {
			return "refused_no_jackpot"
		}
	}
	return ""
}

func (m *Machine) betCents() int64 { return m.pt.Bet(m.level) * m.cfg.Denom }

func (m *Machine) button(e Button, eff *Effects) {
	switch e.Name {
	case BtnLanguage:
		if m.lang == "pt" {
			m.lang = "en"
		} else {
			m.lang = "pt"
		}
		return
	case BtnHelp:
		// The physical button and the screen's both come here: the view
		// says the pages are up, and every screen shows them.
		m.help = !m.help
		return
	}
	if e.Name == BtnSpin && m.awaitingStart() {
		// The player starts the feature his trigger announced.
		m.startPressed = true
		m.advanceGame(eff)
		return
	}
	if e.Name == BtnSpin && m.phase == spinning && m.stage == stageWin && m.pres.Skippable && m.st.Open != nil {
		// The spin button cuts a win's celebration short, as the
		// screen's touch does (the win is the same).
		m.presented = true
		m.advanceGame(eff)
		return
	}
	if why := m.canPlay(); why != "" {
		eff.Refused = why
		m.say(why)
		return
	}
	if m.game == GamePoker {
		// The table's decisions are PokerAct; the buttons here are the
		// cabinet's (canPlay kept the cash-out while at a table).
		if e.Name == BtnCashOut {
			m.cashOut(eff)
		} else {
			eff.Refused = "refused_not_in_game"
		}
		return
	}
	if m.game == meters.GameMakccarat {
		switch e.Name {
		case BtnDeal, BtnSpin:
			m.deal(eff)
		case BtnClearBets:
			m.bets = baccarat.Bets{}
		case BtnCashOut:
			m.cashOut(eff)
		default:
			eff.Refused = "refused_not_in_game"
		}
		return
	}
	switch e.Name {
	case BtnBetUp:
		if m.level < m.topOffered() {
			m.level++
		}
	case BtnBetDown:
		if m.level > 0 {
			m.level--
		}
	case BtnMaxBet, BtnSpin:
		if why := m.betRefused(); why != "" {
			eff.Refused = why
			m.say(why)
			return
		}
		if e.Name == BtnMaxBet {
			m.level = m.topOffered()
		}
		if m.level > m.topOffered() {
			// The bet could win a linked level and the link is down.
			m.level = m.topOffered()
			eff.Refused = "refused_link_down"
			m.say(eff.Refused)
			return
		}
		m.spin(eff)
	case BtnCashOut:
		m.cashOut(eff)
	}
}

// spin is the game cycle's start (DESIGN "Game cycle" 2-4): draw the stops,
// evaluate, and emit one record with everything; the reels start on screen
// only after the owner committed it.
func (m *Machine) spin(eff *Effects) {
	if m.inTest() {
		m.testSpin(eff)
		return
	}
	bet := m.pt.Bet(m.level)
	if m.st.Get(meters.Credits) < bet*m.cfg.Denom {
		eff.Refused = "refused_insufficient_credit"
		m.say(eff.Refused)
		return
	}
	stops := m.pt.DrawStops(m.src, false, nil)
	sp, err := m.pt.Evaluate(stops, m.level, false)
	if err != nil {
		m.fault = "internal: " + err.Error()
		return
	}
	gs := meters.GameStart{
		At: m.ns(), Game: m.st.LastGame + 1, Paytable: m.pt.ID, Digest: m.pt.Digest, Denom: m.cfg.Denom,
		Level: m.level, BetCredits: bet, BetCents: bet * m.cfg.Denom, Stops: stops,
		WinCents: sp.Win * m.cfg.Denom, FreeAwarded: sp.FreeAwarded, Progressives: m.newHits(sp, 0), Linked: m.linkedBet(m.level),
	}
	gs.Contributions, gs.Mystery, err = m.st.JackpotContribution(m.qualifying(m.level), gs.BetCents, gs.Game, gs.At)
	if err != nil {
		m.fault = "internal: " + err.Error()
		return
	}
	if !m.record(eff, gs) {
		return
	}
	m.shown = sp
	m.showSpin()
	m.message = Message{}
}

// tick moves the game on: the step on screen gives way to the next when
// the screen said it presented it or its time is up (present.go).
func (m *Machine) tick(eff *Effects) {
	m.watchLink(eff)
	m.ticketTick(eff)
	if m.phase != spinning || m.st.Open == nil {
		m.awardHits(eff)
		return
	}
	if !m.stepDone() {
		m.awardHits(eff)
		return
	}
	m.advanceGame(eff)
}

// playFree commits the next free game and shows it.
func (m *Machine) playFree(eff *Effects) {
	g := m.st.Open
	stops := m.pt.DrawStops(m.src, true, nil)
	sp, err := m.pt.Evaluate(stops, g.Start.Level, true)
	if err != nil {
		m.fault = "internal: " + err.Error()
		return
	}
	if !m.record(eff, meters.FreeGame{At: m.ns(), Game: g.Start.Game, Index: len(g.Free) + 1, Stops: stops,
		WinCents: sp.Win * g.Start.Denom, Awarded: sp.FreeAwarded, Progressives: m.newHits(sp, g.Start.Game)}) {
		return
	}
	m.shown = sp
	m.showSpin()
}

// endGame ends the open game: its win to the credit meter, or a handpay.
func (m *Machine) endGame(eff *Effects) {
	g := m.st.Open
	total := gameWin(g)
	game := g.Start.Game
	handpay := total > 0 && total >= m.cfg.HandpayLimit
	if !m.record(eff, meters.GameEnd{At: m.ns(), Game: game, WinCents: total, Handpay: handpay}) {
		return
	}
	m.phase, m.stage, m.pres = idle, stageSpin, Presentation{}
	if handpay {
		m.record(eff, meters.HandpayPending{At: m.ns(), Kind: meters.HandpayWin, Cents: total, Game: game})
		m.say("msg_handpay", total)
	} else if total > 0 {
		m.say("msg_win", total)
	}
	m.awardHits(eff)
}

// cashOut pays the credit meter: a ticket, or a handpay at or above the limit
// or when the printer cannot print.
func (m *Machine) cashOut(eff *Effects) {
	if m.inTest() {
		eff.Refused = "refused_test_mode"
		m.say(eff.Refused)
		return
	}
	eff.Devices = append(eff.Devices, CashOutPressed{})
	credits := m.st.Redeemable() // restricted promotional credits stay (promo.go), or leave on their own ticket
	if credits == 0 && m.printsRestricted() {
		m.cashedOut = true
		m.restrictedCashOut(eff)
		return
	}
	if credits == 0 {
		eff.Refused = m.nothingToCashOut()
		m.say(eff.Refused)
		return
	}
	if credits >= m.cfg.HandpayLimit || m.devFault[TiltPrinter] {
		m.cashedOut = true
		m.record(eff, meters.HandpayPending{At: m.ns(), Kind: meters.HandpayCancelled, Cents: credits})
		if credits < m.cfg.HandpayLimit {
			// Below the limit only the printer sends it to a handpay: say so.
			m.say("msg_handpay_printer", credits)
		} else {
			m.say("msg_handpay", credits)
		}
		return
	}
	m.cashedOut = true
	m.bets = baccarat.Bets{}
	m.ticketCashOut(credits, eff)
	m.restrictedNext = m.st.PendingTicket != nil && m.printsRestricted()
}

// printTicket is the order to print the ticket the ledger owes.
func (m *Machine) printTicket(reprint bool) PrintTicket {
	t := m.st.PendingTicket
	p := PrintTicket{Validation: t.Ticket, Cents: t.Cents, MachineID: m.cfg.MachineID, At: time.Unix(0, t.At), Reprint: reprint}
	m.ticketPrintData(&p)
	return p
}

// validation numbers of a development build without a host
// configuration are 18 digits: the machine number and the ledger's
// sequence of tickets issued, which only grows (a RAM clear included).
// Anyone can predict them: a production build never prints them
// (ticketCashOut).
func (m *Machine) validation() string {
	return fmt.Sprintf("%04d%014d", m.cfg.MachineNum%10000, m.st.TicketSeq+1)
}

func (m *Machine) key(e Key, eff *Effects) {
	if e.Key != KeyAttendant {
		return
	}
	who := e.Who
	if who == "" {
		who = "attendant key"
	}
	m.keyOn, m.keyWho = e.On, who
	m.handpayKey = false
	m.loginPad = e.On
	if !e.On {
		if s := m.session; s != nil {
			m.record(eff, meters.Service{At: m.ns(), Who: s.who, Role: s.role, Action: SvcLogout, Detail: "key off"})
			m.session, m.svcMessage = nil, Message{}
		}
		return
	}
	if m.st.Handpay != nil {
		if m.cfg.HandpayConfirm {
			m.handpayKey = true // the screen asks for the amount paid
			m.loginPad = false  // the confirmation, not the login, is on screen
			return
		}
		m.resetHandpay(eff, who, false)
		return
	}
	for _, t := range slices.Clone(m.st.Tilts) {
		if tiltClear[t] == "key" && !m.devFault[t] {
			m.clearTilt(eff, t)
		}
	}
}

func (m *Machine) door(e Door, eff *Effects) {
	open := slices.Contains(m.st.DoorsOpen, e.Door)
	switch {
	case e.Open && !open:
		m.record(eff, meters.Event{At: m.ns(), Code: meters.EventDoorOpen, Door: e.Door})
	case !e.Open && open:
		m.record(eff, meters.Event{At: m.ns(), Code: meters.EventDoorClose, Door: e.Door})
	}
}

// Message is a text for the screen that raised it, as a catalogue key and
// its arguments (amounts in cents); ui/ translates it.
type Message struct {
	Key    string  `json:"key,omitempty"`
	Args   []int64 `json:"args,omitempty"`
	Detail string  `json:"detail,omitempty"` // a technical detail for the service screens
	// At is when it was said (unix ns); a message said at a time expires
	// MessageTTL later. One without (a meter fault) stays while it holds.
	At int64 `json:"at,omitempty"`
}

// MessageTTL is how long a message stays on screen: long enough to read,
// short enough not to describe a machine that has moved on.
const MessageTTL = 10 * time.Second

// say raises a message on the player's screen.
func (m *Machine) say(key string, args ...int64) {
	m.message = Message{Key: key, Args: args, At: m.ns()}
}

// sayService raises a message on the service screens (the menu and its
// PIN pad); it never reaches the player's screen.
func (m *Machine) sayService(key string, args ...int64) {
	m.svcMessage = Message{Key: key, Args: args, At: m.ns()}
}

// current is msg unless it has expired.
func (m *Machine) current(msg Message) Message {
	if msg.At != 0 && !m.now.Before(time.Unix(0, msg.At).Add(MessageTTL)) {
		return Message{}
	}
	return msg
}
