// Command cabinet is the slot machine firmware: it runs the machine core
// (machine/) on the ledger (meters/) with the certified RNG and paytable, on
// real or simulated hardware. One owner goroutine steps the machine; every
// record is committed before anything it causes is done or shown.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/openegm/cabinet/baccarat"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/hw"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
	"golang.org/x/crypto/blake2b"
)

type options struct {
	table          string
	cardTime       time.Duration
	data           string
	board          string
	machineID      string
	machineNum     int
	denom          int64
	handpayLimit   int64
	handpayConfirm bool
	reportDir      string
	paytable       string
	paytableVer    int
	paytableDir    string
	control        string
	hwMapping      string
	realHW         bool
	printDelay     time.Duration // the simulated printer's time to print
	sas            sasOptions
	spinTime       time.Duration
	presentTimeout time.Duration // how long a step of a game waits for the screen (0: twice spinTime)
	jackpot        string
	linked         string
	linkRule       string
	linkAward      string
	approved       string
	validation     string        // how cash-out tickets are numbered (tickets.go)
	ticketTimeout  time.Duration // the host's time to answer a ticket
	tablesrv       string        // the casino's poker table server (pokerseat.go)
	tablesrvToken  string        // the file of its API token
}

func main() {
	var o options
	flag.StringVar(&o.data, "data", "cabinet-data", "data directory (the ledger; back it up, never edit it)")
	flag.StringVar(&o.board, "board", "", "what the board keeps apart from the data: the machine key and the witness of the ledger's head (default DATA.board; on a cabinet, the secure element and critical memory)")
	flag.StringVar(&o.machineID, "machine-id", "EGM-0001", "machine identification shown to players (regulation rule 10)")
	flag.IntVar(&o.machineNum, "machine-num", 1, "machine number, 0-9999, first digits of ticket validation numbers")
	flag.Int64Var(&o.denom, "denom", 1, "denomination: cents per credit")
	flag.Int64Var(&o.handpayLimit, "handpay-limit", 120000, "cents: a win or cash-out at or above it is paid by an attendant")
	flag.StringVar(&o.paytable, "paytable", assets.DefaultGame, "certified paytable to play (embedded: "+fmt.Sprint(assets.Paytables())+")")
	flag.IntVar(&o.paytableVer, "paytable-version", 0, "version of the paytable to play (0: the version recorded in the ledger when it was installed); a table with another version is refused")
	flag.StringVar(&o.paytableDir, "paytable-dir", "", "load paytables from this directory (ID.json with ID.json.sig, verified against the built-in keys) instead of the embedded ones")
	flag.StringVar(&o.hwMapping, "hw", "", "hardware mapping file (default: the embedded simulator mapping)")
	flag.IntVar(&o.sas.addr, "sas-addr", 0, "SAS address 1-127 (0: no SAS)")
	flag.StringVar(&o.sas.serial, "sas-serial", "", "SAS on this serial device (19200 baud, wakeup bit by space/mark parity)")
	flag.BoolVar(&o.sas.pty, "sas-pty", false, "SAS on a pseudo-terminal; its host end is written to DATA/sas-pty")
	flag.StringVar(&o.sas.tcp, "sas-tcp", "", "SAS over TCP on this address (a serial server)")
	flag.StringVar(&o.sas.framing, "sas-framing", "content", "framing on a pseudo-terminal: content, or parmrk when the host writes wakeup escapes")
	flag.Func("aft-asset", "SAS AFT asset number, 1-4294967295: the cabinet answers AFT (72, 73, 74) for in-house transfers of cashable, restricted and non-restricted credits and bonus wins (0: AFT off)", func(v string) error {
		n, err := strconv.ParseUint(v, 10, 32)
		o.sas.aftAsset = uint32(n)
		return err
	})
	flag.Int64Var(&o.sas.aftLimit, "aft-limit", 100000, "cents: the most one AFT transfer may put on the credit meter")
	flag.BoolVar(&o.sas.aftDebit, "aft-debit", false, "accept AFT debit transfers (money a host took from a player's bank account) to the credit meter, from a host registered with a key and a POS ID (needs --aft-asset)")
	flag.BoolVar(&o.realHW, "real-hw", false, "drive real GPIO pins through periph.io instead of simulated ones")
	flag.DurationVar(&o.printDelay, "sim-print-delay", 300*time.Millisecond, "how long the simulated printer takes to print a ticket (not used with --real-hw)")
	flag.StringVar(&o.control, "control", "", "control socket path (default DATA/control.sock)")
	flag.DurationVar(&o.spinTime, "spin-time", 2*time.Second, "how long one spin is shown before the game goes on, when the screen does not say its reels landed sooner")
	flag.DurationVar(&o.presentTimeout, "present-timeout", 0, "how long a win's celebration, a free-game trigger's announcement and a feature's total wait for the screen's word that it showed them, and how long an announced feature waits for the player's spin before it starts on its own (0: twice --spin-time)")
	flag.StringVar(&o.linked, "link-levels", "", "progressive levels awarded by the link controller, e.g. 2 or 2,3 (needs --sas-addr and --link-group)")
	flag.IntVar(&o.sas.group, "link-group", 0, "SAS progressive group of the linked levels, 1-255")
	flag.StringVar(&o.linkRule, "link-second-hit", "wins-reset", "the link controller's rule for near-simultaneous hits, shown to players: wins-reset or split")
	flag.StringVar(&o.linkAward, "link-award", machine.LinkAwardBroadcast, "how a linked hit is paid: broadcast (standard SAS: the value shown, once the host has read the hit) or addressed (the amount the controller confirms by an addressed 0x80, at most the value shown)")
	flag.StringVar(&o.approved, "approved", "", "signed list of approved program hashes (default DATA/approved-programs.json, with its .sig)")
	flag.StringVar(&o.jackpot, "jackpot", "embedded", "local jackpot levels: embedded (the default configuration), off, or a JSON file")
	flag.StringVar(&o.reportDir, "report-dir", "", "where the inspector's signed reports are written: removable media the operator mounts (default DATA/reports)")
	flag.StringVar(&o.table, "table", "makccarat-alt1-5pct", "certified Makccarat table definition the game menu offers beside the reels (embedded: "+fmt.Sprint(assets.Tables())+"), or off")
	flag.DurationVar(&o.cardTime, "card-time", machine.DefaultCardTime, "how long each Makccarat card takes to turn")
	flag.StringVar(&o.validation, "validation", machine.ValidationSecureEnhanced, "how cash-out tickets are numbered: secure-enhanced (from the validation ID the host sets with SAS 0x4C) or system (the host's number, 0x57/0x58); without the host's configuration a production build pays by hand")
	flag.DurationVar(&o.ticketTimeout, "ticket-timeout", machine.MinTicketTimeout, "how long a ticket in escrow, or a cash-out waiting for its number, waits for the host (at least 10s)")
	flag.StringVar(&o.tablesrv, "tablesrv", "", "the casino's poker table server (http://host:port): the game menu offers a seat at its tables, the player's credits move to a table and back through its API (needs --tablesrv-token)")
	flag.StringVar(&o.tablesrvToken, "tablesrv-token", "", "file holding the table server's API token (the server's board/api.token)")
	flag.BoolVar(&o.handpayConfirm, "handpay-confirm", true, "the attendant confirms a handpay's amount on the screen and a receipt is printed; false: the key turn alone resets it (a cabinet without a screen)")
	flag.Parse()
	if o.control == "" {
		o.control = filepath.Join(o.data, "control.sock")
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := o.validate(); err != nil {
		log.Error("configuration refused", "err", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o, log, os.Stdout); err != nil {
		log.Error("cabinet stopped", "err", err)
		os.Exit(1)
	}
}

// selfTests runs the start-up checks (before any play or host talk) and
// returns their verdicts with what they produced.
type started struct {
	tests   machine.SelfTest
	program string // BLAKE2b-256 of the running executable
	image   []byte // its bytes, read once: what the ROM signature (SAS 0x21) covers
	rng     *rng.RNG
}

func selfTests(o options) started {
	if o.approved == "" {
		o.approved = filepath.Join(o.data, "approved-programs.json")
	}
	var s started
	data, err := runningProgram()
	if err == nil {
		sum := blake2b.Sum256(data)
		s.program, s.image = fmt.Sprintf("%x", sum), data
		s.tests.ProgramHash = s.program
	}
	if err != nil {
		s.tests.Program = "cannot read the program image: " + err.Error()
	} else {
		s.tests.Program, s.tests.ProgramApproval, s.tests.Approved = checkApproved(o, s.program)
	}
	if r, err := rng.New(); err != nil {
		s.tests.RNG = err.Error()
	} else {
		s.rng = r
	}
	return s
}

func run(ctx context.Context, o options, log *slog.Logger, out io.Writer) error {
	if o.board == "" {
		o.board = filepath.Clean(o.data) + ".board"
	}
	if err := os.MkdirAll(o.data, 0o700); err != nil {
		return err
	}
	// The self-tests (the program's hash, most of a cold start) run on
	// the other core while the ledger opens: the machine is made, and
	// plays or talks to a host, only once both are done.
	selfTested := make(chan started, 1)
	go func() { selfTested <- selfTests(o) }()
	witness, err := book.OpenFileWitness(filepath.Join(o.board, "witness"))
	if err != nil {
		return fmt.Errorf("the board's witness: %w", err)
	}
	defer witness.Close()
	ledger, info, lerr := meters.Open(filepath.Join(o.data, "ledger"), meters.Options{Keys: book.FileKeys{Dir: o.board}, Witness: witness})
	state := meters.NewState()
	var evidence []machine.Tamper
	if lerr != nil {
		log.Error("meter fault: the ledger cannot be opened; no play until a technician acts", "err", lerr)
	} else {
		state = ledger.State()
		log.Info("ledger open", "last_seq", info.LastSeq, "snapshot", info.SnapshotSeq, "read_from", info.ReadFrom, "whole_log", info.WholeLog, "replayed", info.Replayed,
			"repaired", info.Repaired, "machine_key", info.MachineKeyID, "witness", info.Witness.Status.String())
		if info.KeyAdopted {
			log.Warn("the machine key was in the data directory (an earlier version kept it there); it is now in the board's key store", "board", o.board)
		}
		evidence = ledgerEvidence(info)
		defer ledger.Close()
	}
	st := <-selfTested
	mark, err := openFaultMark(filepath.Join(o.data, "meter-fault"))
	if err != nil {
		log.Error("meter faults cannot be kept outside the ledger", "err", err)
	}
	var prior string
	if mark != nil {
		defer mark.close()
		if prior, err = mark.read(); err != nil {
			prior = "the meter fault marker cannot be read: " + err.Error()
		}
	}
	id, version := configuredPaytable(o, state)
	load := assets.LoadPaytable
	if o.paytableDir != "" {
		load = func(id string) (*reels.Certified, error) { return loadFromDir(o.paytableDir, id) }
	}
	pt, err := load(id)
	if err == nil {
		err = checkIdentity(pt, id, version)
	}
	if err != nil {
		pt = nil
		st.tests.Paytable = err.Error()
		log.Error("paytable refused", "paytable", id, "version", version, "err", err)
	}
	// The table definition is checked like the paytable (signature, strict
	// parse, every bet's return recomputed): one that fails stops the
	// machine with the paytable tilt, never plays without its game.
	var table *baccarat.Certified
	if o.table != "off" {
		if table, err = assets.LoadTable(o.table); err != nil {
			table = nil
			st.tests.Paytable = strings.TrimPrefix(st.tests.Paytable+"; ", "; ") + "table definition " + o.table + ": " + err.Error()
			log.Error("table definition refused", "table", o.table, "err", err)
		}
	}
	pinHashes, err := loadPINHashes(o.data)
	if err != nil {
		return err
	}
	log.Info("self-tests", "program", st.program, "program_err", st.tests.Program, "rng_err", st.tests.RNG, "paytable_err", st.tests.Paytable)

	local, err := loadJackpot(o.jackpot, pt)
	if err != nil {
		return fmt.Errorf("jackpot: %w", err)
	}
	linked, err := parseLinked(o.linked, local, o.sas)
	if err != nil {
		return fmt.Errorf("link: %w", err)
	}

	var src rng.Source
	if st.rng != nil {
		src = st.rng
		st.rng.StartCycling(ctx, time.Millisecond)
	}
	m := machine.New(machine.Config{
		MachineID: o.machineID, MachineNum: o.machineNum, Denom: o.denom, HandpayLimit: o.handpayLimit, SpinTime: o.spinTime, PresentTimeout: o.presentTimeout,
		PINHashes: pinHashes, Load: load, LocalJackpot: local, Linked: linked, LinkSecondHit: o.linkRule, LinkAward: o.linkAward,
		HandpayConfirm: o.handpayConfirm, Table: table, LoadTable: assets.LoadTable, CardTime: o.cardTime,
		Lab: labBuild,
		// A development build (the simulator's) may print its own numbers
		// without a host; a production one never does.
		Validation: o.validation, TicketTimeout: o.ticketTimeout, DevTickets: simulatorSocket,
		PokerTables: o.tablesrv != "",
	}, pt, state, src)

	own := newOwner(m, ledger, log)
	own.data, own.mark, own.reportDir, own.approval = o.data, mark, o.reportDir, st.tests.ProgramApproval
	if o.tablesrv != "" {
		token, err := readToken(o.tablesrvToken)
		if err != nil {
			return err
		}
		// Started before the power-up, which asks again what the ledger
		// holds open.
		own.poker = newPokerEdge(own, o.tablesrv, token, log)
		own.poker.start(ctx)
	} else if why := state.Poker.Busy(); why != "" {
		log.Error("the ledger holds a seat at a poker table, and no table server is configured (--tablesrv): the player's money stays there until it is", "seat", why)
	}
	if lerr != nil {
		own.meterFault(fmt.Errorf("the ledger cannot be opened: %w", lerr))
	}
	mapping := hw.DefaultMapping()
	if o.hwMapping != "" {
		if mapping, err = hw.LoadMapping(o.hwMapping); err != nil {
			return err
		}
	}
	dev, err := openHardware(ctx, mapping, !o.realHW, o.printDelay, own, ledger, o.data, log)
	if err != nil {
		return err
	}
	defer dev.close()
	own.devices = dev
	if dev.meterErr != nil {
		own.meterFault(dev.meterErr)
	}

	// SAS starts after the self-tests (it is opened here, before the machine
	// powers up, so exceptions from the power-up records are queued).
	if o.sas.addr != 0 {
		o.sas.validation, o.sas.receipts = o.validation, o.handpayConfirm
		rom, err := romImage(st.image, o.paytableDir, o.jackpot)
		if err != nil {
			log.Error("SAS: no ROM signature (0x21) without the image it covers", "err", err)
		}
		if _, err := openSAS(ctx, o.sas, own, ledger, pt, o.data, o.machineID, rom, log); err != nil {
			return fmt.Errorf("SAS: %w", err)
		}
	}

	ctl, err := listenControl(o.control, own, dev, log)
	if err != nil {
		return err
	}
	defer ctl.Close()

	own.step(machine.PowerUp{At: time.Now(), Tests: st.tests, Devices: dev.status(), PriorFault: prior, Settings: o.settings(), Evidence: evidence})
	if prior != "" && ledger != nil && ledger.Fault() == nil && slices.Contains(ledger.State().Tilts, machine.TiltMeter) {
		// The ledger holds the fault now, as a tilt for the technician.
		if err := mark.clear(); err != nil {
			log.Error("meter fault marker not cleared", "err", err)
		}
	}
	fmt.Fprintf(out, guide, o.machineID, id, o.control)
	own.loop(ctx)
	if ledger != nil {
		if f := ledger.Fault(); f != nil {
			return errors.New("stopped with a meter fault: " + f.Error())
		}
	}
	return nil
}

// ledgerEvidence turns what opening the ledger found behind the machine's
// back into tilts for a technician: a forged snapshot, a data directory
// older than (or other than) what the board witnessed, a witness that is
// empty or far behind (a board replaced).
func ledgerEvidence(info meters.OpenInfo) []machine.Tamper {
	var out []machine.Tamper
	now := time.Now()
	for _, t := range info.Tampered {
		out = append(out, machine.Tamper{At: now, Tilt: machine.TiltLedger, Detail: t})
	}
	switch w := info.Witness; {
	case w.Tampered():
		out = append(out, machine.Tamper{At: now, Tilt: machine.TiltRollback, Detail: w.Detail})
	case w.Status == book.WitnessEmpty || w.Status == book.WitnessBehind:
		out = append(out, machine.Tamper{At: now, Tilt: machine.TiltWitness, Detail: w.Detail})
	}
	return out
}

// loadFromDir loads a paytable file and its signature from a directory, with
// the same checks as an embedded one: a built-in key, strict parse, RTP.
func loadFromDir(dir, id string) (*reels.Certified, error) {
	if !validID(id) {
		return nil, fmt.Errorf("paytable ID %q is not a file name", id)
	}
	name := filepath.Join(dir, id+".json")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	sig, _ := os.ReadFile(name + ".sig")
	return reels.LoadCertified(name, data, sig, assets.TrustedKeys())
}

// configuredPaytable is the paytable the operator configured: the one given
// at start-up if it changed since the previous start, else the one the
// ledger has in play (a change made in the service menu stands); and its
// version (0: not configured yet, the first one loaded is recorded).
func configuredPaytable(o options, st *meters.State) (string, int) {
	id := o.paytable
	if prev, ok := st.CommandLine["paytable"]; !ok || prev == o.paytable {
		if s := st.Settings["paytable"]; s != "" {
			id = s
		}
	}
	if o.paytableVer != 0 {
		return id, o.paytableVer
	}
	if st.Settings["paytable"] == id {
		v, _ := strconv.Atoi(st.Settings[machine.SettingPaytableVersion])
		return id, v
	}
	return id, 0
}

// checkIdentity refuses a paytable other than the one configured: a signed
// table copied under the configured name is still another table (rule 8).
func checkIdentity(pt *reels.Certified, id string, version int) error {
	if pt.ID != id {
		return fmt.Errorf("the file for paytable %q holds paytable %q version %d: not the configured paytable", id, pt.ID, pt.Version)
	}
	if version != 0 && pt.Version != version {
		return fmt.Errorf("paytable %q version %d loaded, but version %d is configured (a new version is installed with --paytable-version or the service menu)", id, pt.Version, version)
	}
	return nil
}

// validate refuses a start-up configuration the machine cannot run with,
// naming the flag and the rule.
func (o options) validate() error {
	var errs []error
	bad := func(flag string, err error) { errs = append(errs, fmt.Errorf("--%s: %w", flag, err)) }
	if o.machineID == "" || len(o.machineID) > 40 {
		bad("machine-id", fmt.Errorf("%q must be 1 to 40 characters", o.machineID))
	}
	if o.machineNum < 0 || o.machineNum > 9999 {
		bad("machine-num", fmt.Errorf("%d outside 0-9999", o.machineNum))
	}
	if err := machine.CheckSetting("denom", strconv.FormatInt(o.denom, 10)); err != nil {
		bad("denom", err)
	}
	if err := machine.CheckSetting("handpay_limit", strconv.FormatInt(o.handpayLimit, 10)); err != nil {
		bad("handpay-limit", err)
	}
	if !validID(o.paytable) {
		bad("paytable", fmt.Errorf("%q is not a paytable ID (a-z, 0-9, -)", o.paytable))
	}
	if o.paytableVer < 0 {
		bad("paytable-version", fmt.Errorf("%d is negative", o.paytableVer))
	}
	if o.spinTime <= 0 || o.spinTime > time.Minute {
		bad("spin-time", fmt.Errorf("%v outside (0, 1m]", o.spinTime))
	}
	if o.presentTimeout < 0 || o.presentTimeout > time.Minute {
		bad("present-timeout", fmt.Errorf("%v outside [0, 1m]", o.presentTimeout))
	}
	if o.table != "off" && !validID(o.table) {
		bad("table", fmt.Errorf("%q is not a table definition ID (a-z, 0-9, -) nor off", o.table))
	}
	if o.cardTime <= 0 || o.cardTime > 10*time.Second {
		bad("card-time", fmt.Errorf("%v outside (0, 10s]", o.cardTime))
	}
	if o.sas.addr < 0 || o.sas.addr > 127 {
		bad("sas-addr", fmt.Errorf("%d outside 0-127", o.sas.addr))
	}
	if o.sas.group < 0 || o.sas.group > 255 {
		bad("link-group", fmt.Errorf("%d outside 0-255", o.sas.group))
	}
	if o.sas.aftAsset != 0 && o.sas.addr == 0 {
		bad("aft-asset", fmt.Errorf("%d given without SAS (--sas-addr)", o.sas.aftAsset))
	}
	if o.sas.aftDebit && o.sas.aftAsset == 0 {
		bad("aft-debit", errors.New("given without AFT (--aft-asset)"))
	}
	if o.sas.aftAsset != 0 && (o.sas.aftLimit <= 0 || o.sas.aftLimit > aft.MaxAmount) {
		bad("aft-limit", fmt.Errorf("%d cents outside 1-%d", o.sas.aftLimit, aft.MaxAmount))
	}
	if err := checkLinkAward(o.linkAward, o.linkRule); err != nil {
		errs = append(errs, err)
	}
	if err := checkValidation(o.validation, o.ticketTimeout); err != nil {
		errs = append(errs, err)
	}
	if err := checkTableServer(o.tablesrv, o.tablesrvToken); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// settings are the start-up configuration as the ledger records it when it
// changes (machine.PowerUp.Settings).
func (o options) settings() map[string]string {
	s := map[string]string{
		"machine_id": o.machineID, "machine_num": strconv.Itoa(o.machineNum),
		"denom": strconv.FormatInt(o.denom, 10), "handpay_limit": strconv.FormatInt(o.handpayLimit, 10),
		"paytable": o.paytable, "spin_time": o.spinTime.String(), "jackpot": o.jackpot, "table": o.table,
		"link_levels": o.linked, "link_group": strconv.Itoa(o.sas.group), "link_second_hit": o.linkRule,
		"sas_address": strconv.Itoa(o.sas.addr),
	}
	if o.presentTimeout > 0 {
		// Only when set: the default (twice the spin time) follows spin_time.
		s["present_timeout"] = o.presentTimeout.String()
	}
	if o.paytableDir != "" {
		s["paytable_dir"] = o.paytableDir
	}
	if o.sas.aftAsset != 0 {
		s["aft_asset"] = strconv.FormatUint(uint64(o.sas.aftAsset), 10)
		s["aft_limit"] = strconv.FormatInt(o.sas.aftLimit, 10)
		if o.sas.aftDebit {
			s["aft_debit"] = "on"
		}
	}
	if o.paytableVer != 0 {
		s[machine.SettingPaytableVersion] = strconv.Itoa(o.paytableVer)
	}
	if o.tablesrv != "" {
		s["tablesrv"] = o.tablesrv
	}
	return s
}

func validID(id string) bool {
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return id != ""
}

const guide = `cabinet %s running, paytable %s. Its screen is cmd/screen (make run starts both).
Drive it through the control socket %s, one JSON command a line, e.g.
  {"cmd":"bill","cents":5000}   {"cmd":"press","button":"spin"}   {"cmd":"state"}
  {"cmd":"door","door":"main","open":true}   {"cmd":"key","key":"attendant_key","on":true,"who":"att-1"}
with: socat - UNIX-CONNECT:%[3]s
`

// checkApproved looks the program's hash up in the signed list of approved
// programs. It returns a failure (the program tilt) and, for the inspector,
// what the approval is. Without a list a development build only reports
// its hash; a production build refuses to play.
func checkApproved(o options, hash string) (failure, approval string, approved *machine.Approval) {
	data, err := os.ReadFile(o.approved)
	if errors.Is(err, os.ErrNotExist) {
		if assets.RequireApprovedProgram {
			return fmt.Sprintf("no approved-program list (%s): a production build plays only an approved program", o.approved), "", nil
		}
		return "", "not checked: no approved-program list (development build)", nil
	}
	if err != nil {
		return err.Error(), "", nil
	}
	sig, _ := os.ReadFile(o.approved + ".sig")
	list, err := assets.ParseApproved(o.approved, data, sig)
	if err != nil {
		return err.Error(), "", nil
	}
	p, ok := list.Approves(hash)
	if !ok {
		return fmt.Sprintf("program %s is not in the approved list %s (signed by key %s)", hash, o.approved, list.KeyID), "", nil
	}
	return "", fmt.Sprintf("approved as %q in %s, signed by key %s", p.Name, o.approved, list.KeyID),
		&machine.Approval{Name: p.Name, List: o.approved, KeyID: list.KeyID}
}
