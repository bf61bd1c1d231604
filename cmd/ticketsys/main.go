// Command ticketsys is the casino's ticket system (TITO): it polls the
// cabinets over SAS and keeps every ticket they print and take in an etcd
// cluster, where each ticket is redeemed once across all cabinets and the
// cashier (see tito/ticketsys).
//
// Usage:
//
//	ticketsys COMMAND --etcd HOST:PORT[,HOST:PORT...] [--prefix P] [--json] [flags] [args]
//
// Commands:
//
//	run --cabinet SPEC [--cabinet SPEC ...] [--casino NAME] [--system-id N] [--expiry DAYS]
//	    [--poll D] [--auto-limit CENTS] [--ticket-limit CENTS]
//	        Polls the cabinets until SIGINT or SIGTERM. At the start of each
//	        cabinet: its secure-enhanced validation ID (0x4C, made once per
//	        cabinet and kept in etcd), the ticket data (0x7D: casino name,
//	        expiry), the holds it had when the service last stopped are
//	        settled with 0x71 FF, and its unread validations read (0x4D);
//	        all of it again whenever its link comes back (a connection that
//	        dropped or a cabinet that restarted: the link is opened again,
//	        with a pause growing to 5 s). SPEC is NAME=tcp:HOST:PORT, NAME=pty:PATH or
//	        NAME=serial:DEV, followed by options: ,addr=N (1), ,style=system
//	        (secure-enhanced by default), ,framing=parmrk|content.
//	redeem DIGITS --cashier NAME [--id ID] [--cents N]
//	        The cashier pays a ticket. --id makes a repeat safe: the same ID
//	        gets the recorded answer and pays nothing twice. --cents: the
//	        amount printed on the ticket, refused if it is not the recorded one.
//	void DIGITS --by NAME --reason TEXT
//	        Cancels a ticket not yet redeemed.
//	show DIGITS     the ticket and its history
//	list [--state issued|pending|redeemed|voided]
//	audit           every step of every ticket and every refusal, by time
//	alarms          every cabinet whose ticket numbers went back (its data
//	                restored or cleared), by time; exit status 3 if any
//	validation-id CABINET
//	        the cabinet's secure-enhanced validation ID (made if it has none)
//
// Exit status: 0 done, 1 error, 2 usage, 3 the redemption was refused (the
// reason on stderr).
//
// ticketsys is its own command rather than a sashost subcommand: sashost
// is a technician's tool that speaks to one machine for one poll and
// exits, while the ticket system is a long-running service of many
// cabinets whose truth is in etcd, and the cashier's and auditor's
// commands need etcd and no SAS link at all.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/openegm/cabinet/internal/etcdtls"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
	"github.com/openegm/cabinet/tito"
	"github.com/openegm/cabinet/tito/ticketsys"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

var (
	errUsage   = errors.New("usage")
	errRefused = errors.New("refused")
	errAlarms  = fmt.Errorf("%w: a cabinet's ticket numbers went back (see the alarms)", errRefused)
)

const usage = `usage: ticketsys COMMAND --etcd HOST:PORT[,...] [--prefix P] [--json] [flags] [args]
commands: run, redeem, void, show, list, audit, alarms, validation-id`

type config struct {
	etcd string
	// TLS to etcd (all three or none): the cluster's CA, the client's
	// certificate (its common name is the etcd user) and key.
	tlsCA, tlsCert, tlsKey string
	prefix                 string
	json                   bool

	cabinets    cabinetFlag
	casino      string
	systemID    uint
	expiry      uint
	poll        time.Duration
	autoLimit   int64
	ticketLimit int64
	restricted  bool

	cashier string
	id      string
	cents   int64
	by      string
	reason  string
	state   string
}

type cabinetFlag []string

func (c *cabinetFlag) String() string     { return strings.Join(*c, " ") }
func (c *cabinetFlag) Set(s string) error { *c = append(*c, s); return nil }

func (c *config) flags(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ticketsys", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.etcd, "etcd", c.etcd, "etcd client `endpoints`, comma-separated")
	fs.StringVar(&c.tlsCA, "etcd-ca", c.tlsCA, "the etcd cluster's CA certificate `file` (with --etcd-cert and --etcd-key: TLS, the certificate's common name the etcd user)")
	fs.StringVar(&c.tlsCert, "etcd-cert", c.tlsCert, "the client certificate `file` for etcd")
	fs.StringVar(&c.tlsKey, "etcd-key", c.tlsKey, "the client key `file` for etcd")
	fs.StringVar(&c.prefix, "prefix", c.prefix, "key `prefix` of the casino's tickets in etcd (ends in /)")
	fs.BoolVar(&c.json, "json", c.json, "JSON output")
	fs.Var(&c.cabinets, "cabinet", "run: `NAME=tcp:HOST:PORT|pty:PATH|serial:DEV[,addr=N][,style=system][,framing=parmrk|content]` (repeat)")
	fs.StringVar(&c.casino, "casino", c.casino, "run: the casino's name, sent to the cabinets for their tickets")
	fs.UintVar(&c.systemID, "system-id", c.systemID, "run: system ID 1-99 of the numbers made for system validation")
	fs.UintVar(&c.expiry, "expiry", c.expiry, "run: days a ticket is valid (9999: never)")
	fs.DurationVar(&c.poll, "poll", c.poll, "run: pause between general polls of a cabinet")
	fs.Int64Var(&c.autoLimit, "auto-limit", c.autoLimit, "run: tickets above these `cents` are refused at cabinets (SAS 88), paid by the cashier (0: no limit)")
	fs.BoolVar(&c.restricted, "restricted-tickets", c.restricted, "run: turn restricted promotional tickets on at the cabinets (SAS 0x7B): a cash-out prints restricted credits on a ticket only a cabinet redeems")
	fs.Int64Var(&c.ticketLimit, "ticket-limit", c.ticketLimit, "run: system validation of a cash-out above these `cents` is denied (58 system ID 00): the cabinet pays it by hand (0: no limit)")
	fs.StringVar(&c.cashier, "cashier", c.cashier, "redeem: the cashier's `name`")
	fs.StringVar(&c.id, "id", c.id, "redeem: redemption `ID` (a repeat with the same ID pays nothing twice; default: a new one)")
	fs.Int64Var(&c.cents, "cents", c.cents, "redeem: the amount printed on the ticket (0: not checked)")
	fs.StringVar(&c.by, "by", c.by, "void: who voids")
	fs.StringVar(&c.reason, "reason", c.reason, "void: why")
	fs.StringVar(&c.state, "state", c.state, "list: only tickets in this state")
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parse reads flags anywhere on the command line; the other arguments are
// returned in order (the command and its arguments).
func parse(args []string, stderr io.Writer) (*config, []string, error) {
	c := &config{prefix: "/casino/tickets/", casino: "Casino", systemID: 1, expiry: 30, poll: 40 * time.Millisecond}
	var pos []string
	for {
		fs := c.flags(stderr)
		if err := fs.Parse(args); err != nil {
			return nil, nil, errUsage
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) == 0 {
		return nil, nil, fmt.Errorf("%w: no command", errUsage)
	}
	if c.etcd == "" {
		return nil, nil, fmt.Errorf("%w: --etcd: no endpoints", errUsage)
	}
	if (c.tlsCA == "") != (c.tlsCert == "") || (c.tlsCA == "") != (c.tlsKey == "") {
		return nil, nil, fmt.Errorf("%w: --etcd-ca, --etcd-cert and --etcd-key go together", errUsage)
	}
	return c, pos, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := runErr(ctx, args, stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errRefused):
		fmt.Fprintln(stderr, "ticketsys:", err)
		return 3
	case errors.Is(err, errUsage):
		if err != errUsage { // bare errUsage: the flag package has said why
			fmt.Fprintln(stderr, "ticketsys:", err)
			fmt.Fprintln(stderr, usage)
		}
		return 2
	}
	fmt.Fprintln(stderr, "ticketsys:", err)
	return 1
}

func runErr(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, pos, err := parse(args, stderr)
	if err != nil {
		return err
	}
	cmd, rest := pos[0], pos[1:]
	nargs := map[string]int{"run": 0, "redeem": 1, "void": 1, "show": 1, "list": 0, "audit": 0, "alarms": 0, "validation-id": 1}
	n, ok := nargs[cmd]
	if !ok {
		return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
	}
	if len(rest) != n {
		return fmt.Errorf("%w: %s takes %d argument(s), got %q", errUsage, cmd, n, rest)
	}
	var cabs []cabinetSpec
	if cmd == "run" {
		if cabs, err = c.checkRun(); err != nil {
			return err
		}
	}
	ecfg := clientv3.Config{Endpoints: strings.Split(c.etcd, ","), DialTimeout: 5 * time.Second, Logger: zap.NewNop()}
	if c.tlsCA != "" {
		if ecfg.TLS, _, err = etcdtls.Load(c.tlsCA, c.tlsCert, c.tlsKey); err != nil {
			return fmt.Errorf("etcd: %w", err)
		}
	}
	cli, err := clientv3.New(ecfg)
	if err != nil {
		return fmt.Errorf("etcd %s: %w", c.etcd, err)
	}
	defer cli.Close()
	var opts []ticketsys.Option
	if c.autoLimit > 0 {
		opts = append(opts, ticketsys.AutoRedeemLimit(c.autoLimit))
	}
	st, err := ticketsys.New(cli, c.prefix, opts...)
	if err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	o := &out{w: stdout, json: c.json}
	switch cmd {
	case "run":
		return c.runService(ctx, st, cabs, stderr)
	case "redeem":
		return c.redeem(ctx, st, o, rest[0])
	case "void":
		return c.void(ctx, st, o, rest[0])
	case "show":
		t, err := st.Get(ctx, rest[0])
		if err != nil {
			return err
		}
		return o.emit(t, func(w io.Writer) { showTicket(w, t) })
	case "list":
		return c.list(ctx, st, o)
	case "audit":
		evs, err := st.Audit(ctx)
		if err != nil {
			return err
		}
		return o.emit(evs, func(w io.Writer) {
			for _, e := range evs {
				fmt.Fprintln(w, eventLine(e))
			}
		})
	case "alarms":
		as, err := st.SequenceAlarms(ctx)
		if err != nil {
			return err
		}
		if err := o.emit(as, func(w io.Writer) {
			for _, a := range as {
				fmt.Fprintf(w, "%s %s\n", a.At, a)
			}
		}); err != nil {
			return err
		}
		if len(as) > 0 {
			return errAlarms
		}
		return nil
	case "validation-id":
		id, err := ticketsys.NewService(st, ticketsys.ServiceConfig{}).ValidationID(ctx, rest[0])
		if err != nil {
			return err
		}
		return o.emit(map[string]any{"cabinet": rest[0], "validation_id": id}, func(w io.Writer) {
			fmt.Fprintf(w, "%s %06X\n", rest[0], id)
		})
	}
	return nil
}

// out prints human text or JSON.
type out struct {
	w    io.Writer
	json bool
}

func (o *out) emit(v any, human func(w io.Writer)) error {
	if o.json {
		return json.NewEncoder(o.w).Encode(v)
	}
	human(o.w)
	return nil
}

// cabinetSpec is one --cabinet.
type cabinetSpec struct {
	name, transport, target, framing string
	addr                             byte
	style                            tito.Style
}

func parseCabinet(s string) (cabinetSpec, error) {
	bad := func(format string, a ...any) (cabinetSpec, error) {
		return cabinetSpec{}, fmt.Errorf("%w: --cabinet %q: %s", errUsage, s, fmt.Sprintf(format, a...))
	}
	name, rest, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return bad("want NAME=TRANSPORT:TARGET")
	}
	parts := strings.Split(rest, ",")
	transport, target, ok := strings.Cut(parts[0], ":")
	if !ok || target == "" {
		return bad("want tcp:HOST:PORT, pty:PATH or serial:DEV after %q", name+"=")
	}
	c := cabinetSpec{name: name, transport: transport, target: target, addr: 1, style: tito.StyleSecureEnhanced}
	switch transport {
	case "tcp", "pty":
		c.framing = "content"
	case "serial":
		c.framing = "parmrk"
	default:
		return bad("transport %q: want tcp, pty or serial", transport)
	}
	for _, opt := range parts[1:] {
		k, v, _ := strings.Cut(opt, "=")
		switch k {
		case "addr":
			n, err := strconv.ParseUint(v, 10, 8)
			if err != nil || n < 1 || n > sas.MaxAddr {
				return bad("addr %q: want 1-127", v)
			}
			c.addr = byte(n)
		case "style":
			if err := c.style.UnmarshalText([]byte(v)); err != nil || c.style == tito.StyleStandard {
				return bad("style %q: want secure-enhanced or system", v)
			}
		case "framing":
			if v != "parmrk" && v != "content" || transport == "serial" && v == "content" {
				return bad("framing %q: want parmrk or content (a serial port: parmrk)", v)
			}
			c.framing = v
		default:
			return bad("unknown option %q: want addr=, style= or framing=", opt)
		}
	}
	return c, nil
}

func (c *config) checkRun() ([]cabinetSpec, error) {
	if len(c.cabinets) == 0 {
		return nil, fmt.Errorf("%w: run: no --cabinet", errUsage)
	}
	if c.systemID < 1 || c.systemID > 99 {
		return nil, fmt.Errorf("%w: --system-id %d: want 1-99", errUsage, c.systemID)
	}
	if c.expiry < 1 || c.expiry > tito.ExpiryNever {
		return nil, fmt.Errorf("%w: --expiry %d: want 1-%d days", errUsage, c.expiry, tito.ExpiryNever)
	}
	seen := map[string]bool{}
	var out []cabinetSpec
	for _, s := range c.cabinets {
		cs, err := parseCabinet(s)
		if err != nil {
			return nil, err
		}
		if seen[cs.name] {
			return nil, fmt.Errorf("%w: --cabinet %q: the name %s twice", errUsage, s, cs.name)
		}
		seen[cs.name] = true
		out = append(out, cs)
	}
	return out, nil
}

func (cs cabinetSpec) open(ctx context.Context) (*host.Client, error) {
	var p sas.Port
	var err error
	switch cs.transport {
	case "serial":
		p, err = sas.OpenSerial(cs.target)
	case "pty":
		p, err = sas.OpenTTY(cs.target)
	default:
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		p, err = sas.DialTCP(dctx, cs.target)
		cancel()
	}
	if err != nil {
		return nil, fmt.Errorf("cabinet %s: %w", cs.name, err)
	}
	return host.New(p, host.Options{Addr: cs.addr, Escape: cs.framing == "parmrk"}), nil
}

// runService polls every cabinet until ctx ends.
func (c *config) runService(ctx context.Context, st *ticketsys.Store, cabs []cabinetSpec, stderr io.Writer) error {
	var logMu sync.Mutex
	sv := ticketsys.NewService(st, ticketsys.ServiceConfig{
		Casino: c.casino, SystemID: uint8(c.systemID), Expiry: uint16(c.expiry), Poll: c.poll, TicketLimit: c.ticketLimit, RestrictedTickets: c.restricted,
		Log: func(format string, a ...any) {
			logMu.Lock()
			defer logMu.Unlock()
			fmt.Fprintf(stderr, "%s ticketsys: %s\n", time.Now().UTC().Format(time.RFC3339Nano), fmt.Sprintf(format, a...))
		},
	})
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(cabs))
	var wg sync.WaitGroup
	for i, cs := range cabs {
		wg.Go(func() {
			// The service opens the link itself, and again whenever it
			// drops or the cabinet restarts (a new pseudo-terminal behind
			// DATA/sas-tty, a new TCP connection).
			errs[i] = sv.Run(ctx, ticketsys.Cabinet{Name: cs.name, Dial: cs.open, Style: cs.style})
			if errs[i] != nil {
				cancel() // an etcd failure that outlived its retries: stop, so a supervisor restarts us
			}
		})
	}
	fmt.Fprintf(stderr, "ticketsys: polling %d cabinet(s)\n", len(cabs))
	wg.Wait()
	return errors.Join(errs...)
}

func (c *config) redeem(ctx context.Context, st *ticketsys.Store, o *out, digits string) error {
	if c.cashier == "" {
		return fmt.Errorf("%w: redeem: --cashier NAME", errUsage)
	}
	id := c.id
	if id == "" {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		id = "cashier-" + c.cashier + "-" + hex.EncodeToString(b[:])
	}
	r, err := st.Redeem(ctx, ticketsys.Request{Digits: digits, By: ticketsys.CashierPrefix + c.cashier, ID: id, Cents: c.cents, At: time.Now()})
	if err != nil {
		return err
	}
	if err := o.emit(r, func(w io.Writer) {
		if r.Phase == ticketsys.Committed {
			fmt.Fprintf(w, "pay %s (%d cents): ticket %s, redemption %s\n", tito.Figures(r.Cents, tito.PT), r.Cents, r.Digits, r.ID)
		}
	}); err != nil {
		return err
	}
	if r.Phase != ticketsys.Committed {
		return fmt.Errorf("%w: ticket %s: %02X %v: %s", errRefused, r.Digits, byte(r.Code), r.Code, r.Detail)
	}
	return nil
}

func (c *config) void(ctx context.Context, st *ticketsys.Store, o *out, digits string) error {
	if c.by == "" || strings.TrimSpace(c.reason) == "" {
		return fmt.Errorf("%w: void: --by NAME --reason TEXT", errUsage)
	}
	t, err := st.Void(ctx, digits, c.by, c.reason, time.Now())
	if err != nil {
		return err
	}
	return o.emit(t, func(w io.Writer) { showTicket(w, t) })
}

func (c *config) list(ctx context.Context, st *ticketsys.Store, o *out) error {
	switch ticketsys.State(c.state) {
	case "", ticketsys.Issued, ticketsys.Pending, ticketsys.Redeemed, ticketsys.Voided:
	default:
		return fmt.Errorf("%w: --state %q: want issued, pending, redeemed or voided", errUsage, c.state)
	}
	all, err := st.List(ctx)
	if err != nil {
		return err
	}
	ts := []ticketsys.Ticket{}
	for _, t := range all {
		if c.state == "" || t.State == ticketsys.State(c.state) {
			ts = append(ts, t)
		}
	}
	return o.emit(ts, func(w io.Writer) {
		for _, t := range ts {
			fmt.Fprintf(w, "%s %-8s %12s %-10s %s\n", t.Digits, t.State, tito.Figures(t.Cents, tito.PT), t.Machine, stamp(t.Issued))
		}
	})
}

func showTicket(w io.Writer, t ticketsys.Ticket) {
	fmt.Fprintf(w, "ticket %s: %s, %s %s (%d cents), machine %s, number %04d\n",
		t.Digits, t.State, t.Kind, tito.Figures(t.Cents, tito.PT), t.Cents, t.Machine, t.Number)
	if t.Expires != 0 {
		fmt.Fprintf(w, "expires %s\n", stamp(t.Expires))
	}
	for _, e := range t.History {
		fmt.Fprintln(w, " ", eventLine(e))
	}
}

func eventLine(e ticketsys.Event) string {
	s := fmt.Sprintf("%s %-10s by %s", stamp(e.At), e.What, e.By)
	if e.Redemption != "" {
		s += " redemption " + e.Redemption
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func stamp(ns int64) string { return time.Unix(0, ns).UTC().Format(time.RFC3339) }
