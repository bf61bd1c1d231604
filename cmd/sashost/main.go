// Command sashost polls a SAS gaming machine as a casino host does: for
// technicians, inspectors and end-to-end tests.
//
// Usage:
//
//	sashost (--serial DEV | --pty PATH | --tcp HOST:PORT) [--addr N] [flags] COMMAND [args]
//
// Transports: --serial opens a UART in space parity with PARMRK (the
// address byte goes out with the wakeup bit); --pty opens the host's end of
// a pseudo-terminal (the cabinet prints its path); --tcp connects to a
// serial server or the cabinet's TCP port. --framing parmrk (the default
// on --serial) or content (the default elsewhere): with parmrk on a pty or
// TCP the host writes the PARMRK escapes the machine expects (FF 00 before
// the address byte, data FF doubled).
//
// Commands:
//
//	meters [--game N] [--via 6f|2f]   0x1C, then every known meter with 0x6F (or 0x2F)
//	events [--count N] [--for D] [--interval D]
//	                                  general polls; exceptions by name (JSON: one object a line)
//	credits                           0x1A
//	info                              0x1F and 0x54
//	romsig --seed HEX [--wait D]      0x21, then general polls until the signature comes
//	time get | time set [--at T]      0x7E / 0x7F (T: RFC 3339 or 2006-01-02T15:04:05, default now)
//	disable | enable                  0x01 / 0x02
//	handpay                           0x1B
//	handpay reset                     0x94: remote handpay reset (status 00 reset, 01 unable, 02 none)
//	progressive broadcast --group G --level L=CENTS [--level L=CENTS ...] [--global]
//	                                  0x80 (one level) or 0x86 (several); --global: to address 0,
//	                                  no reply awaited; otherwise to --addr, which must ACK
//	progressive wins                  0x87: the unread SAS progressive wins (acknowledged on exit)
//	progressive win                   0x85: the oldest unread SAS progressive win
//	progressive cumulative [--game N] 0x83: the cumulative progressive wins meter
//	bills set NOTES [--disable-after-bill]
//	                                  0x08: enable the notes of these face values (5,10,20 | all |
//	                                  none), disable the others; --disable-after-bill: the acceptor
//	                                  turns off after each bill until the host sends 0x06
//	realtime on | realtime off        0x0E: real-time event reporting
//	lastbill                          0x48: country, denomination code and count of the last bill
//	features [--game N]               0xA0: the enabled features
//	poll HEX [--no-crc | --crc]       any frame, address included; the CRC is appended to long
//	                                  polls other than type R unless --no-crc (--crc: always)
//	aft SUBCOMMAND [NAME=VALUE ...]   AFT (0x72-0x74): register, registration, unregister, status,
//	                                  lock, unlock, transfer TYPE, interrogate [index=N | id=ID],
//	                                  history (cmd/sashost/aft.go); a transfer waits until it is no
//	                                  longer pending, exit 1 when refused, lost or still pending
//
// Common flags: --json, --retries N, --timeout D (first reply byte), --sync N
// (send a general poll to address N before every new poll, as some hosts
// do), --trace (bytes to stderr), --realtime (the machine has real-time
// event reporting on, set by an earlier "realtime on": general polls get
// real-time event messages, silence is no activity).
package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/internal/money"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// errUsage marks a command line error (exit status 2).
var errUsage = errors.New("usage")

type config struct {
	history          string
	serial, pty, tcp string
	addr             uint
	framing          string
	json             bool
	retries          int
	timeout          time.Duration
	sync             uint
	trace            bool
	stderr           io.Writer

	// command flags
	game     uint
	via      string
	count    int
	dur      time.Duration
	interval time.Duration
	seed     string
	wait     time.Duration
	at       string
	noCRC    bool
	crc      bool
	group    uint
	levels   levelFlag
	global   bool

	realTime         bool
	disableAfterBill bool
}

func (c *config) flags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.serial, "serial", c.serial, "serial `device` (UART, space parity with PARMRK)")
	fs.StringVar(&c.pty, "pty", c.pty, "`path` of the host's end of a pseudo-terminal")
	fs.StringVar(&c.tcp, "tcp", c.tcp, "`host:port` of a serial server or the cabinet")
	fs.UintVar(&c.addr, "addr", c.addr, "machine address 1-127")
	fs.StringVar(&c.framing, "framing", c.framing, "parmrk or content (default: parmrk on --serial, content elsewhere)")
	fs.BoolVar(&c.json, "json", c.json, "JSON output")
	fs.IntVar(&c.retries, "retries", c.retries, "repeats of a poll after a lost or bad reply")
	fs.DurationVar(&c.timeout, "timeout", c.timeout, "wait for the first reply byte")
	fs.UintVar(&c.sync, "sync", c.sync, "send a general poll to this other `address` before each poll (0: no)")
	fs.BoolVar(&c.trace, "trace", c.trace, "print the bytes sent and received on stderr")
	fs.UintVar(&c.game, "game", c.game, "meters: game number (0: the machine)")
	fs.StringVar(&c.via, "via", c.via, "meters: 6f or 2f")
	fs.StringVar(&c.history, "history", c.history, "meters: a `file` keeping each machine's last meters: one that went back (not a rollover) is an ALARM, recorded in FILE.alarms, and exit status 3")
	fs.IntVar(&c.count, "count", c.count, "events: stop after N exceptions (0: no limit)")
	fs.DurationVar(&c.dur, "for", c.dur, "events: stop after this long (0: no limit)")
	fs.DurationVar(&c.interval, "interval", c.interval, "events, romsig: general poll period")
	fs.StringVar(&c.seed, "seed", c.seed, "romsig: the 2-byte seed in hex")
	fs.DurationVar(&c.wait, "wait", c.wait, "romsig: how long to wait for the signature")
	fs.StringVar(&c.at, "at", c.at, "time set: the time to set (default now)")
	fs.BoolVar(&c.noCRC, "no-crc", c.noCRC, "poll: never append a CRC")
	fs.BoolVar(&c.crc, "crc", c.crc, "poll: always append a CRC")
	fs.UintVar(&c.group, "group", c.group, "progressive broadcast: the progressive `group` 1-255")
	fs.Var(&c.levels, "level", "progressive broadcast: `L=CENTS`, level 1-32 and its amount in cents (repeat for several)")
	fs.BoolVar(&c.global, "global", c.global, "progressive broadcast: send to address 0 (every machine, no reply)")
	fs.BoolVar(&c.realTime, "realtime", c.realTime, "the machine has real-time event reporting on (0x0E): silence to a general poll is no activity")
	fs.BoolVar(&c.disableAfterBill, "disable-after-bill", c.disableAfterBill, "bills set: the acceptor turns off after each accepted bill")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sashost (--serial DEV | --pty PATH | --tcp HOST:PORT) [--addr N] [flags] COMMAND [args]")
		fmt.Fprintln(stderr, "commands: meters, events, credits, info, romsig, time get|set, disable, enable, handpay [reset],")
		fmt.Fprintln(stderr, "          progressive broadcast|wins|win|cumulative, bills set, realtime on|off, lastbill, features, poll HEX,")
		fmt.Fprintln(stderr, "          "+strings.ReplaceAll(aftUsage, "\n", "\n          "))
		fs.PrintDefaults()
	}
	return fs
}

// parse reads flags anywhere on the command line; the other arguments are
// returned in order (the command and its arguments).
func parse(args []string, stderr io.Writer) (*config, []string, error) {
	c := &config{addr: 1, retries: host.DefaultRetries, timeout: host.DefaultTimeout,
		via: "6f", interval: 40 * time.Millisecond, wait: time.Minute}
	var pos []string
	for {
		fs := c.flags("sashost", stderr)
		if err := fs.Parse(args); err != nil {
			return nil, nil, errUsage
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if c.addr < 1 || c.addr > sas.MaxAddr {
		return nil, nil, fmt.Errorf("%w: --addr %d: want 1-127", errUsage, c.addr)
	}
	if c.sync > sas.MaxAddr {
		return nil, nil, fmt.Errorf("%w: --sync %d: want 0-127", errUsage, c.sync)
	}
	return c, pos, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, pos, err := parse(args, stderr)
	if err == nil && len(pos) == 0 {
		err = fmt.Errorf("%w: no command", errUsage)
	}
	if err != nil {
		if err != errUsage { // bare errUsage: the flag package has said why
			fmt.Fprintln(stderr, "sashost:", err)
		}
		return 2
	}
	c.stderr = stderr
	cl, err := c.open(ctx, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "sashost:", err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	defer cl.Close()
	o := &out{w: stdout, json: c.json}
	if err := c.command(ctx, cl, o, pos); err != nil {
		fmt.Fprintln(stderr, "sashost:", err)
		if errors.Is(err, errUsage) {
			return 2
		}
		if errors.Is(err, errAlarm) {
			return 3
		}
		return 1
	}
	return 0
}

func (c *config) open(ctx context.Context, stderr io.Writer) (*host.Client, error) {
	n := 0
	for _, s := range []string{c.serial, c.pty, c.tcp} {
		if s != "" {
			n++
		}
	}
	if n != 1 {
		return nil, fmt.Errorf("%w: give one of --serial, --pty, --tcp", errUsage)
	}
	switch c.framing {
	case "", "parmrk", "content":
	default:
		return nil, fmt.Errorf("%w: --framing %q: want parmrk or content", errUsage, c.framing)
	}
	opt := host.Options{Addr: byte(c.addr), Retries: c.retries, Timeout: c.timeout, SyncAddr: byte(c.sync), RealTime: c.realTime}
	if c.retries == 0 {
		opt.Retries = -1
	}
	if c.trace {
		opt.Trace = func(tx bool, b []byte, at time.Time) {
			dir := "<"
			if tx {
				dir = ">"
			}
			fmt.Fprintf(stderr, "%s %s % X\n", at.Format("15:04:05.000000"), dir, b)
		}
	}
	var p sas.Port
	var err error
	switch {
	case c.serial != "":
		if c.framing == "content" {
			return nil, fmt.Errorf("%w: a serial port carries the wakeup bit: --framing parmrk", errUsage)
		}
		p, err = sas.OpenSerial(c.serial)
	case c.pty != "":
		p, err = sas.OpenTTY(c.pty)
		opt.Escape = c.framing == "parmrk"
	default:
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		p, err = sas.DialTCP(dctx, c.tcp)
		cancel()
		opt.Escape = c.framing == "parmrk"
	}
	if err != nil {
		return nil, err
	}
	return host.New(p, opt), nil
}

// out prints human text or JSON.
type out struct {
	w    io.Writer
	json bool
}

func (o *out) emit(v any, human func(w io.Writer)) error {
	if o.json {
		enc := json.NewEncoder(o.w)
		return enc.Encode(v)
	}
	human(o.w)
	return nil
}

func (c *config) command(ctx context.Context, cl *host.Client, o *out, pos []string) error {
	cmd, rest := pos[0], pos[1:]
	want := func(n int) error {
		if len(rest) != n {
			return fmt.Errorf("%w: %s takes %d argument(s), got %q", errUsage, cmd, n, rest)
		}
		return nil
	}
	switch cmd {
	case "meters":
		if err := want(0); err != nil {
			return err
		}
		return c.meters(cl, o)
	case "events":
		if err := want(0); err != nil {
			return err
		}
		return c.events(ctx, cl, o)
	case "credits":
		if err := want(0); err != nil {
			return err
		}
		v, err := cl.Credits()
		if err != nil {
			return err
		}
		return o.emit(map[string]any{"credits": v}, func(w io.Writer) { fmt.Fprintf(w, "current credits: %d\n", v) })
	case "info":
		if err := want(0); err != nil {
			return err
		}
		return info(cl, o)
	case "romsig":
		if err := want(0); err != nil {
			return err
		}
		return c.romsig(ctx, cl, o)
	case "time":
		if len(rest) != 1 || rest[0] != "get" && rest[0] != "set" {
			return fmt.Errorf("%w: time get | time set [--at T]", errUsage)
		}
		if rest[0] == "get" {
			t, err := cl.Time(time.Local)
			if err != nil {
				return err
			}
			s := t.Format("2006-01-02T15:04:05")
			return o.emit(map[string]any{"time": s}, func(w io.Writer) { fmt.Fprintf(w, "machine time: %s\n", s) })
		}
		t := time.Now()
		if c.at != "" && c.at != "now" {
			var err error
			if t, err = time.Parse(time.RFC3339, c.at); err != nil {
				if t, err = time.ParseInLocation("2006-01-02T15:04:05", c.at, time.Local); err != nil {
					return fmt.Errorf("%w: --at %q: %v", errUsage, c.at, err)
				}
			}
		}
		if err := cl.SetTime(t); err != nil {
			return err
		}
		s := t.Format("2006-01-02T15:04:05")
		return o.emit(map[string]any{"set": s, "ack": true}, func(w io.Writer) { fmt.Fprintf(w, "machine time set to %s\n", s) })
	case "disable", "enable":
		if err := want(0); err != nil {
			return err
		}
		f := cl.Disable
		if cmd == "enable" {
			f = cl.Enable
		}
		if err := f(); err != nil {
			return err
		}
		return o.emit(map[string]any{cmd: true, "ack": true}, func(w io.Writer) { fmt.Fprintf(w, "%s: acknowledged\n", cmd) })
	case "handpay":
		if len(rest) == 1 && rest[0] == "reset" {
			st, err := cl.RemoteHandpayReset()
			if err != nil {
				return err
			}
			return o.emit(map[string]any{"status": st, "meaning": host.HandpayResetMeaning(st)}, func(w io.Writer) {
				fmt.Fprintf(w, "remote handpay reset: %02X %s\n", st, host.HandpayResetMeaning(st))
			})
		}
		if err := want(0); err != nil {
			return err
		}
		h, err := cl.Handpay()
		if err != nil {
			return err
		}
		return o.emit(h, func(w io.Writer) {
			fmt.Fprintf(w, "handpay: %s (partial pay %s), progressive group %d, level 0x%02X, reset ID %d\n",
				euros(h.Amount), euros(h.PartialPay), h.ProgressiveGroup, h.Level, h.ResetID)
		})
	case "progressive":
		return c.progressive(cl, o, rest)
	case "bills":
		return c.bills(cl, o, rest)
	case "realtime":
		return c.realtime(cl, o, rest)
	case "lastbill":
		if err := want(0); err != nil {
			return err
		}
		return lastBill(cl, o)
	case "features":
		if err := want(0); err != nil {
			return err
		}
		return c.features(cl, o)
	case "poll":
		if err := want(1); err != nil {
			return err
		}
		return c.raw(cl, o, rest[0])
	case "aft":
		return c.aft(ctx, cl, o, rest)
	}
	return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
}

// euros writes an amount SAS gives in cents (credits at its accounting
// denomination of 0.01) as the cabinet's euros. SAS amounts are at most
// 10 BCD digits, far inside int64.
func euros(v uint64) string { return money.Euro("en", int64(v)) }

func printMeters(w io.Writer, title string, ms []host.Meter) {
	fmt.Fprintln(w, title)
	for _, m := range ms {
		fmt.Fprintf(w, "  %04X  %-40s %d\n", uint16(m.Code), m.Name, m.Value)
	}
}

func (c *config) meters(cl *host.Client, o *out) error {
	if c.via != "6f" && c.via != "2f" {
		return fmt.Errorf("%w: --via %q: want 6f or 2f", errUsage, c.via)
	}
	if c.game > 9999 {
		return fmt.Errorf("%w: --game %d: want 0-9999", errUsage, c.game)
	}
	basic, err := cl.Meters(0x1C)
	if err != nil {
		return fmt.Errorf("0x1C: %w", err)
	}
	all, err := cl.AllMeters(uint16(c.game), c.via == "6f")
	if err != nil {
		return fmt.Errorf("0x%s: %w", strings.ToUpper(c.via), err)
	}
	res := struct {
		Addr   byte         `json:"addr"`
		Game   uint         `json:"game"`
		Via    string       `json:"via"`
		Poll1C []host.Meter `json:"poll_1c"`
		Meters []host.Meter `json:"meters"`
	}{cl.Addr(), c.game, strings.ToUpper(c.via), basic, all}
	if err := o.emit(res, func(w io.Writer) {
		printMeters(w, "meters (0x1C):", basic)
		printMeters(w, fmt.Sprintf("meters of game %d (0x%s):", c.game, strings.ToUpper(c.via)), all)
	}); err != nil {
		return err
	}
	if c.history == "" {
		return nil
	}
	si, err := cl.SASInfo()
	if err != nil {
		return fmt.Errorf("0x54 (whose meters these are): %w", err)
	}
	alarms, err := checkHistory(c.history, time.Now(), si.Serial, all)
	for _, a := range alarms {
		fmt.Fprintln(o.w, "ALARM:", a)
	}
	if err != nil {
		return err
	}
	if len(alarms) > 0 {
		return errAlarm
	}
	return nil
}

// errAlarm is a meter that went back: exit status 3.
var errAlarm = errors.New("a meter went back since the last reading (see ALARM)")

// history is what --history keeps: each machine's last meters, by serial.
type history map[string]map[string]histMeter

type histMeter struct {
	Value uint64 `json:"value"`
	Size  int    `json:"size"`
}

// meterAlarm is a meter of a machine that read lower than the reading
// before it: the machine's data went back (restored from a copy, or a RAM
// clear, which the cabinet's ledger records; meterread shows it). The host
// is the witness the cabinet cannot roll back: a data directory restored
// together with its board (witness and keys) convinces the cabinet, not the
// host that read the newer meters.
type meterAlarm struct {
	At      string `json:"at"`
	Machine string `json:"machine"`
	Code    string `json:"code"`
	Name    string `json:"name"`
	Old     uint64 `json:"old"`
	New     uint64 `json:"new"`
}

func (a meterAlarm) String() string {
	return fmt.Sprintf("machine %s meter %s (%s) went back from %d to %d: a RAM clear, or the machine's data rolled back",
		a.Machine, a.Code, a.Name, a.Old, a.New)
}

// compareMeters compares a machine's meters with its last reading (nil:
// none) and returns the alarms and the reading to keep. A meter below its
// last value is an alarm unless it rolled over at its BCD width (its last
// value near the top, the new one near zero). Pure: the file is the
// caller's.
func compareMeters(serial string, last map[string]histMeter, ms []host.Meter) ([]meterAlarm, map[string]histMeter) {
	var alarms []meterAlarm
	now := map[string]histMeter{}
	for _, m := range ms {
		key := fmt.Sprintf("%04X", uint16(m.Code))
		now[key] = histMeter{Value: m.Value, Size: m.Size}
		prev, ok := last[key]
		if !ok || m.Value >= prev.Value {
			continue
		}
		if mod := bcdModulus(m.Size); mod > 0 && prev.Value > mod-mod/100 && m.Value < mod/100 {
			continue // rolled over at its width
		}
		alarms = append(alarms, meterAlarm{Machine: serial, Code: key, Name: m.Name, Old: prev.Value, New: m.Value})
	}
	return alarms, now
}

// AlarmsSuffix names the host's record of alarms beside the --history file:
// one JSON object a line, appended and synced before the history moves on,
// so an alarm is never lost to the reading that replaces the one it
// compared with.
const alarmsSuffix = ".alarms"

// checkHistory compares the meters with those last read from the same
// machine (compareMeters), records the alarms in file+".alarms", then keeps
// the new reading.
func checkHistory(file string, at time.Time, serial string, ms []host.Meter) ([]string, error) {
	h := history{}
	if b, err := os.ReadFile(file); err == nil {
		if err := json.Unmarshal(b, &h); err != nil {
			return nil, fmt.Errorf("--history %s: %w", file, err)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	alarms, now := compareMeters(serial, h[serial], ms)
	var lines []string
	if len(alarms) > 0 {
		var rec []byte
		for i := range alarms {
			alarms[i].At = at.UTC().Format(time.RFC3339Nano)
			b, _ := json.Marshal(alarms[i])
			rec = append(append(rec, b...), '\n')
			lines = append(lines, alarms[i].String())
		}
		if err := appendSynced(file+alarmsSuffix, rec); err != nil {
			return lines, fmt.Errorf("recording the alarms in %s: %w", file+alarmsSuffix, err)
		}
	}
	h[serial] = now
	b, _ := json.MarshalIndent(h, "", "  ")
	return lines, atomicfile.Write(file, b, 0o600)
}

// appendSynced appends data to file and syncs it.
func appendSynced(file string, data []byte) error {
	f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// bcdModulus is where a BCD field of size bytes rolls over.
func bcdModulus(size int) uint64 {
	if size <= 0 || size > 9 {
		return 0
	}
	m := uint64(1)
	for range 2 * size {
		m *= 10
	}
	return m
}

type eventLine struct {
	Time string `json:"time"`
	host.GeneralReply
}

func (c *config) events(ctx context.Context, cl *host.Client, o *out) error {
	if c.interval <= 0 {
		return fmt.Errorf("%w: --interval must be positive", errUsage)
	}
	if c.dur > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.dur)
		defer cancel()
	}
	n := 0
	var werr error
	err := cl.PollEvents(ctx, c.interval, func(g host.GeneralReply) bool {
		now := time.Now().Format("2006-01-02T15:04:05.000")
		werr = o.emit(eventLine{now, g}, func(w io.Writer) {
			switch {
			case g.Long != nil:
				fmt.Fprintf(w, "%s  deferred reply to %02X: % X\n", now, g.Long.Cmd, g.Long.Data)
			case g.RealTime:
				fmt.Fprintf(w, "%s  %02X %s (real-time%s)\n", now, byte(g.Exception), g.Name, eventText(g))
			default:
				fmt.Fprintf(w, "%s  %02X %s\n", now, byte(g.Exception), g.Name)
			}
		})
		n++
		return werr == nil && (c.count == 0 || n < c.count)
	}, func(err error) {
		fmt.Fprintln(c.stderr, "sashost: general poll:", err)
	})
	if err == nil {
		err = werr
	}
	return err
}

// eventText describes the data of a real-time event.
func eventText(g host.GeneralReply) string {
	switch e := g.Event.(type) {
	case *sas.GameStarted:
		return fmt.Sprintf(": %d credits wagered, coin in %s, wager type %02X, progressive group %d",
			e.CreditsWagered, euros(e.CoinIn), e.WagerType, e.Group)
	case *sas.GameEnded:
		return fmt.Sprintf(": win %s", euros(e.Win))
	case *sas.BillAccepted:
		face, _ := sas.BillCodeValue(e.Code)
		return fmt.Sprintf(": country %d, denomination code %d (%d), %d of that denomination", e.Country, e.Code, face, e.Count)
	}
	if len(g.EventData) > 0 {
		return fmt.Sprintf(", data % X", []byte(g.EventData))
	}
	return ""
}

func info(cl *host.Client, o *out) error {
	mi, err := cl.MachineInfo()
	if err != nil {
		return fmt.Errorf("0x1F: %w", err)
	}
	si, err := cl.SASInfo()
	if err != nil {
		return fmt.Errorf("0x54: %w", err)
	}
	res := struct {
		Machine host.MachineInfo `json:"machine"`
		SAS     host.SASInfo     `json:"sas"`
	}{mi, si}
	return o.emit(res, func(w io.Writer) {
		fmt.Fprintf(w, "game ID %s, additional ID %s, paytable %s, base RTP %s%%\n", mi.GameID, mi.AdditionalID, mi.PaytableID, mi.BasePercent)
		fmt.Fprintf(w, "denomination code 0x%02X, max bet %d, progressive group %d, game options 0x%04X\n", mi.Denomination, mi.MaxBet, mi.ProgressiveGroup, mi.GameOptions)
		fmt.Fprintf(w, "SAS version %s, serial number %s\n", si.Version, si.Serial)
	})
}

func (c *config) romsig(ctx context.Context, cl *host.Client, o *out) error {
	s := strings.TrimPrefix(strings.ToLower(c.seed), "0x")
	if s == "" {
		return fmt.Errorf("%w: romsig needs --seed HEX", errUsage)
	}
	seed, err := strconv.ParseUint(s, 16, 16)
	if err != nil {
		return fmt.Errorf("%w: --seed %q: %v", errUsage, c.seed, err)
	}
	ctx, cancel := context.WithTimeout(ctx, c.wait)
	defer cancel()
	var others []host.GeneralReply
	start := time.Now()
	sig, err := cl.ROMSignature(ctx, uint16(seed), c.interval, func(g host.GeneralReply) { others = append(others, g) })
	if err != nil {
		return err
	}
	res := struct {
		Seed       string              `json:"seed"`
		Signature  string              `json:"signature"`
		Seconds    float64             `json:"seconds"`
		Exceptions []host.GeneralReply `json:"exceptions_meanwhile,omitempty"`
	}{fmt.Sprintf("%04X", seed), fmt.Sprintf("%04X", sig), time.Since(start).Seconds(), others}
	return o.emit(res, func(w io.Writer) {
		for _, g := range others {
			fmt.Fprintf(w, "(meanwhile: %02X %s)\n", byte(g.Exception), g.Name)
		}
		fmt.Fprintf(w, "ROM signature, seed %04X: %04X\n", seed, sig)
	})
}

func (c *config) raw(cl *host.Client, o *out, arg string) error {
	clean := strings.NewReplacer(" ", "", ":", "", "-", "", "0x", "", "0X", "").Replace(arg)
	frame, err := hex.DecodeString(clean)
	if err != nil || len(frame) == 0 {
		return fmt.Errorf("%w: poll %q: want hex bytes, address first", errUsage, arg)
	}
	if c.noCRC && c.crc {
		return fmt.Errorf("%w: --crc and --no-crc", errUsage)
	}
	general := frame[0]&sas.GeneralPollBit != 0
	addCRC := c.crc
	if !c.crc && !c.noCRC && !general && len(frame) >= 2 {
		spec, ok := sas.LookupLongPoll(frame[1])
		addCRC = !ok || spec.Type != sas.PollR
	}
	if addCRC {
		frame = sas.AppendCRC(frame)
	}
	reply, err := cl.Exchange(frame)
	if err != nil {
		return err
	}
	res := struct {
		Sent    string `json:"sent"`
		Reply   string `json:"reply"`
		Meaning string `json:"meaning"`
		Decoded any    `json:"decoded,omitempty"`
	}{Sent: fmt.Sprintf("% X", frame), Reply: fmt.Sprintf("% X", reply)}
	switch {
	case reply == nil:
		res.Meaning = "no reply"
	case general:
		g, err := host.ParseGeneral(frame[0]&^sas.GeneralPollBit, reply)
		if err != nil {
			res.Meaning = err.Error()
		} else {
			res.Meaning, res.Decoded = fmt.Sprintf("%02X %s", byte(g.Exception), g.Name), g
		}
	case len(frame) >= 2:
		r, err := host.ParseResponse(frame[0], frame[1], reply)
		if err != nil {
			res.Meaning = err.Error()
			break
		}
		res.Meaning = r.Kind.String()
		if r.Kind == host.ReplyData {
			if ms, err := host.DecodeMeters(r.Cmd, r.Data); err == nil {
				res.Decoded = ms
			} else {
				res.Decoded = fmt.Sprintf("% X", r.Data)
			}
		}
	}
	return o.emit(res, func(w io.Writer) {
		fmt.Fprintf(w, "sent:  %s\nreply: %s (%s)\n", res.Sent, res.Reply, res.Meaning)
		if ms, ok := res.Decoded.([]host.Meter); ok {
			printMeters(w, "decoded:", ms)
		}
	})
}
