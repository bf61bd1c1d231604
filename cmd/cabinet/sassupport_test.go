package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
)

// The SAS table of docs/casino.md (what the cabinet does over SAS) is generated from
// the rows below, and the rows are checked against the code: a long poll
// listed as answered gets an answer from the cabinet's SAS port and one
// listed as not answered gets none; an exception listed as raised is one
// the ledger's records (or the queue) raise, and the others never are. To
// regenerate it after changing the rows:
//
//	UPDATE_README=1 go test -run TestREADMESASTable ./cmd/cabinet/

// sasRow is one row of the table: codes that share a description.
type sasRow struct {
	codes []byte
	what  string // what the codes are (exceptions: their sas names when empty)
	does  string // what the cabinet does; for what it does not do, why
}

// answeredPolls, with sample data for the check (hex, the data between the
// command and the CRC) where the poll has data.
var answeredPolls = []sasRow{
	{[]byte{0x01}, "shut down", "ACK; the game in progress finishes, then no play until 02"},
	{[]byte{0x02}, "start up", "ACK; play allowed again"},
	{[]byte{0x03, 0x04}, "sound off, on", "ACK; the screen mutes or plays its sounds"},
	{[]byte{0x06, 0x07}, "enable, disable the bill acceptor", "ACK; a note inserted while disabled is returned"},
	{[]byte{0x08}, "configure bill denominations", "ACK; the notes allowed go to the validator (others are returned); the action flag's \"disable after each bill\" is kept until 06"},
	{[]byte{0x0E}, "real-time event reporting on, off", "ACK; general polls then answer with the real-time event (game start with wager and coin-in, game end with the win, bills with their count), from the committed records; kept in memory only"},
	{[]byte{0x0F}, "meters: cancelled credits, coin in, coin out, drop, jackpot, games played", "4-byte BCD each, from the committed ledger"},
	{[]byte{0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17}, "total cancelled credits, coin in, coin out, drop, jackpot, games played, won, lost", "4-byte BCD"},
	{[]byte{0x18}, "games since power-up and since slot door closure", "2-byte BCD each"},
	{[]byte{0x19}, "meters: coin in, coin out, drop, jackpot, games played", "4-byte BCD each"},
	{[]byte{0x1A}, "current credits", "4-byte BCD, the whole credit meter: cashable, restricted and non-restricted (meter 1B is the restricted part; no SAS meter has the non-restricted part, which 74 reports)"},
	{[]byte{0x1B}, "handpay information", "the pending handpay (zeros when none): group, level (40 paytable win or AFT bonus jackpot, 80 cancelled credits, 1-32 progressive), amount in cents"},
	{[]byte{0x1C}, "meters: coin in, coin out, drop, jackpot, games played, won, slot door openings, power resets", "4-byte BCD each"},
	{[]byte{0x1E}, "number of $1, $5, $10, $20, $50, $100 bills accepted", "counts of the notes of those face values (€5 is SAS's $5); 0 for the $1 the euro has no note for"},
	{[]byte{0x1F}, "gaming machine information", "game ID LU, paytable version and ID, denomination 0.01, max bet, progressive group, base RTP at the top bet"},
	{[]byte{0x20}, "total value of bills accepted", "whole euros (€105 → 105)"},
	{[]byte{0x21}, "ROM signature", "ACK, then addr 21 signature CRC to a later general poll: the host-seeded CRC of the program the process runs (read at start-up), the --paytable-dir files and the --jackpot file; one computed at a time, four seeds may wait, a new seed with four waiting is answered busy (the host asks again)"},
	{[]byte{0x2F}, "selected meters (one-byte codes)", "the codes of the meter table the ledger keeps, 4 or 5 bytes; codes not kept are left out; for game 1 (reels) or 2 (Makccarat) that game's coin in, coin out, jackpot, games played, won, lost, machine- and attendant-paid paytable wins and total won"},
	{[]byte{0x48}, "last accepted bill", "euro (country code 39), denomination code, count of that note"},
	{[]byte{0x51}, "number of games implemented", "the games the menu offers: 2 with the Makccarat table, 1 with --table off"},
	{[]byte{0x54}, "SAS version and serial number", "602 and the machine ID"},
	{[]byte{0x55}, "selected game number", "the game the player is at: 1 reels, 2 Makccarat"},
	{[]byte{0x56}, "enabled game numbers", "the games the menu offers"},
	{[]byte{0x4C}, "secure-enhanced validation ID and sequence", "the configuration after it, recorded in the ledger; ID 0 reads it, and a repeat of the same ID and sequence keeps the sequence where the tickets since have taken it"},
	{[]byte{0x4D}, "validation records", "00 the oldest validation the host has not read (then marked read, recorded), FF the same without marking it, 01-1F by index of the last 31; all zeros when none; type 00 a printed ticket, 01 a restricted promotional ticket (with its pool ID and expiration date, or days), 10/20 a cancelled-credit/jackpot handpay validated with its receipt, 40/60 without one (ticket number FFFF); unread ones survive a power loss"},
	{[]byte{0x50}, "validation meters", "count and amount of each validation type, from the ledger over the cabinet's life: 00 tickets printed with a host's number, 01 restricted tickets printed, 10, 20, 40, 60 handpays validated, 80 tickets redeemed, 81 restricted tickets redeemed; 0 for the types the cabinet never validates (AFT, non-restricted promotional)"},
	{[]byte{0x57, 0x58}, "system validation: the pending cash-out, the host's number", "57: the amount waiting (80: none); 58: 00 and the ticket printed with that number (system ID 00: denied, no ticket, the cash-out paid by hand, as when no 58 comes within --ticket-timeout), 80 when no cash-out waits, 81 for a malformed number"},
	{[]byte{0x6F, 0xAF}, "extended meters (two-byte codes)", "as 2F, with a size byte per value, widened so no meter rolls over"},
	{[]byte{0x70}, "ticket validation data", "the barcode of the ticket in escrow (parsing code 00, amount 0: the host's record decides it), FF when none"},
	{[]byte{0x71}, "redeem ticket", "40 and the host's amount credited (one record with 68): code 00 as cashable credits, 01 as restricted credits of its pool ID and expiration (87 while restricted credits of another pool are on the meter, or its date is past); 80 refused and returned, 81 another ticket's digits, C0 a second answer in the same cycle; FF: 20 waiting, 40 crediting, else the last redemption's end from the ledger (00, 01, 80-8B), or FF"},
	{[]byte{0x7B}, "extended validation status", "the control bits the host sets (printer as cash-out device: off, cash-outs are handpays; handpay receipts; handpay validation; restricted tickets: on, a cash-out prints the restricted credits on a restricted ticket, off by default; ticket redemption: off, tickets go back) and the expirations, recorded; the status says what the cabinet does now (restricted tickets when on and secure-enhanced configured; foreign restricted amounts never; bit 15 the secure-enhanced configuration of 4C) and the asset number"},
	{[]byte{0x7C}, "set extended ticket data", "01; location, address lines (printed on tickets and receipts) and the restricted and debit titles (kept: the restricted ticket prints its own title in both languages, no debit ticket is printed), recorded"},
	{[]byte{0x7D}, "set ticket data", "01; the expiry and the location and address lines printed on tickets and receipts (an empty text keeps the cabinet's), recorded"},
	{[]byte{0x7E}, "current date and time", "the cabinet's clock"},
	{[]byte{0x7F}, "set date and time", "ACK and logged; the cabinet keeps the operating system's clock"},
	{[]byte{0x80, 0x86}, "progressive broadcast, one level or several", "ACK when addressed (never to a broadcast); the values of the --link-group levels go to the machine; with --link-award addressed, an addressed single level confirms the award of the hit reported then (never above the value the cabinet showed)"},
	{[]byte{0x83}, "cumulative progressive wins", "every progressive win paid, in cents, for game 0"},
	{[]byte{0x84}, "progressive win amount", "the last progressive win paid: group (0 for the local jackpot), level, amount in cents"},
	{[]byte{0x85, 0x87}, "SAS progressive win amount, multiple amounts", "the hits on linked levels not yet paid, from the ledger; with --link-award broadcast (the default) a hit is paid the value shown once the host moves on after reading it"},
	{[]byte{0x72}, "AFT transfer funds", "with --aft-asset: in-house transfers of cashable, restricted (with its pool and expiration) and non-restricted amounts to the credit meter (00) and to the host (80), bonus coin-out wins (10, a cashable win), bonus jackpot wins (11: a win below the handpay limit, a handpay at or above it), with --aft-debit debit transfers of cashable money (40: from a host registered with a key and a POS ID, under that key, metered on A6/A7 and 0x17), full (00) or partial (01) to the machine, each transaction ID run once, forever (a repeat still in the history is answered from its record, another request under a used ID, or any request under an ID the machine completed before the history's 127 places, gets 81), interrogation of the current transfer and of the history (127 positions, 81-FF back from the newest); 40 pending until the ledger has the record; a receipt asked for is printed after the record, its status (40 pending, 00 printed) in the history; refused: restricted amounts of another pool while some remain (8F), an expiration that is no date or has passed (83), tickets (20, 60), debit without --aft-debit and win to host (82, 8B), a debit without a registration with a key (88), under another key (89), without a POS ID (8A) or of restricted or non-restricted money (83), a debit receipt without the card's digits (91), a receipt while the printer cannot print (90) or for a bonus (92), receipt data that breaks table 8.3f (82), partial to host (86), during a game, a handpay, a tilt, an open door or the service menu (87), beyond the credits of each kind (83) or the --aft-limit (84)"},
	{[]byte{0x73}, "AFT register gaming machine", "with --aft-asset: initialise, register (asset, key, POS ID), unregister, read; answered at once, recorded in the ledger; a transfer with a zero key needs no registration, one with a key needs that key, a debit needs a registration with a key and a POS ID"},
	{[]byte{0x74}, "AFT game lock and status", "with --aft-asset: the lock holds play and notes until the transfer or the timeout (6F while held); the status: asset, lock, available transfers, the cashable, restricted and non-restricted credits, the restricted credits' expiration and pool, and the transfer limit now; a printer for receipts (AFT status bit 0) only while the printer can print, debit transfers enabled (bit 6) with --aft-debit"},
	{[]byte{0x75}, "set AFT receipt data", "with --aft-asset: ACK; the texts of every receipt (location, address, in-house and debit closing lines; an empty one puts the default back), recorded in the ledger; a poll that breaks the layout gets no reply"},
	{[]byte{0x94}, "remote handpay reset", "addr 94 status CRC: 00 reset (recorded as the SAS host's, the handpay alone: no tilt cleared, no service session ended), 01 unable (meter fault), 02 no handpay pending"},
	{[]byte{0xA0}, "enabled features", "for game 0: meters when won, extended meters, 40 ms polling, multiple progressive wins with a link group, AFT and AFT bonus awards with --aft-asset, validation extensions, the validation style (--validation), ticket redemption while the host leaves it on"},
	{[]byte{0xB4}, "wager category information", "for game 0: category 0 total coin-in, category 1 the coin-in of bets that could win a linked level (what the link controller feeds its levels from), with the top bet's RTP"},
	{[]byte{0xB5}, "game N information", "max bet (reels in credits, Makccarat in cents up to 9999), progressive group and linked levels (none for Makccarat), game name, the certified paytable or table definition ID, one wager category"},
}

var pollSamples = map[byte]string{
	0x08: "1F000000 01", 0x0E: "00", 0x21: "3412", 0x2F: "03 0000 05", 0x6F: "04 0000 0500", 0xAF: "04 0000 0500",
	0x7F: "01022026 123000", 0x80: "01 01 0000001000", 0x86: "07 01 01 0000001000", 0x83: "0000", 0xA0: "0000",
	0xB4: "0000 0001", 0xB5: "0002", 0x73: "01 FF", 0x75: "04 00 02 4142",
	0x4C: "010000 000000", 0x4D: "00", 0x58: "01 0000000000000001", 0x71: "01 FF", 0x7D: "0A 0000 1E 06 436173696E6F",
	0x50: "00", 0x7B: "08 0000 0000 0000 0000", 0x7C: "08 00 06 436173696E6F",
}

var silentPolls = []sasRow{
	{[]byte{0x6E}, "component authentication", "the ROM signature (21) is the check"},
}

// Every other long poll gets no answer either, as SAS wants for a poll a
// machine does not support.

var raisedExceptions = []sasRow{
	{[]byte{0x11, 0x12}, "", "main door"},
	{[]byte{0x13, 0x14}, "", "drop door"},
	{[]byte{0x15, 0x16}, "", "logic door"},
	{[]byte{0x17, 0x18}, "", "power-up; orderly power-down (a power loss shows as a power-up without it)"},
	{[]byte{0x19, 0x1A}, "", "cashbox door"},
	{[]byte{0x1D, 0x1E}, "", "belly door"},
	{[]byte{0x20}, "", "a tilt without its own code: program, paytable or RNG self-test failed"},
	{[]byte{0x28}, "", "bill validator jammed"},
	{[]byte{0x3A}, "", "RAM clear"},
	{[]byte{0x3C}, "", "a setting changed in the service menu or in the start-up configuration (one for the settings changed together), or another program powered up"},
	{[]byte{0x3D}, "", "the printer confirmed a cash-out ticket (priority)"},
	{[]byte{0x3E}, "", "a handpay was reset and validated (secure-enhanced, configured by 4C, handpay validation on): the host reads it with 4D"},
	{[]byte{0x48, 0x49, 0x4A, 0x4B, 0x4C, 0x50, 0x4E}, "", "€5, €10, €20, €50, €100, €200, €500 note accepted (by face value)"},
	{[]byte{0x4F}, "", "in real-time mode, every note accepted, with country, denomination and count"},
	{[]byte{0x51}, "", "handpay pending (priority): win or cash-out at the handpay limit, attendant-paid jackpot, AFT bonus jackpot at the handpay limit"},
	{[]byte{0x52}, "", "handpay reset, by the attendant's key or 94 (with 3E when it was validated)"},
	{[]byte{0x53}, "", "no progressive values from the link controller for 5 s"},
	{[]byte{0x54}, "", "progressive win paid to the credit meter"},
	{[]byte{0x56}, "", "hit on a linked level, for the link controller (priority)"},
	{[]byte{0x57}, "", "a cash-out waits for the host's validation number (--validation system; priority)"},
	{[]byte{0x66}, "", "with --aft-asset, every press of the cash-out button, whatever it pays (SAS 8.8): the host may transfer out the restricted credits a cash-out leaves"},
	{[]byte{0x67, 0x68}, "", "a ticket in escrow, waiting for the host; its redemption ended (credited, or refused and returned)"},
	{[]byte{0x60, 0x61}, "", "printer fault; paper out"},
	{[]byte{0x69}, "", "the transfer's record is in the ledger (queued, one per transfer, raised again from the ledger after a restart)"},
	{[]byte{0x6F}, "", "the AFT lock is granted (priority), and every 5 s while it is held"},
	{[]byte{0x70}, "", "the exception queue overflowed (the oldest was dropped)"},
	{[]byte{0x7E, 0x7F}, "", "game started; game ended (real-time mode: with wager, coin-in, win)"},
	{[]byte{0x82, 0x83}, "", "inspector logged in, out"},
	{[]byte{0x84, 0x85}, "", "technician or operator logged in, out"},
}

var unraisedExceptions = []sasRow{
	{[]byte{0x1B, 0x1C}, "cashbox removed, installed", "no cashbox presence sensor"},
	{[]byte{0x21, 0x22, 0x23, 0x24, 0x25, 0x27, 0x2D, 0x2E, 0x79, 0x80, 0x81}, "coin, hopper and cashbox level conditions", "no coin acceptor, hopper or cashbox level sensor"},
	{[]byte{0x29, 0x2A, 0x2B, 0x2C}, "bill acceptor failure, reverse, rejected, counterfeit bill", "a returned note raises nothing; a validator fault is a jam (28)"},
	{[]byte{0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3B}, "memory errors, low backup battery", "a damaged ledger is a meter fault: nothing more can be recorded, and the machine does not play"},
	{[]byte{0x3F}, "validation ID not configured", "without a validation ID a cash-out is a handpay (51), and the dev build's own numbers"},
	{[]byte{0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46}, "reel tilts", "video reels"},
	{[]byte{0x47, 0x4D}, "$1, $2 bill accepted", "no €1 or €2 notes"},
	{[]byte{0x55}, "handpay cancelled by the player", "a handpay cannot be cancelled"},
	{[]byte{0x6A, 0x6B, 0x6C, 0x6D, 0x6E}, "AFT host cashout, cash out win, register, registration acknowledged, cancelled", "no host cashout, no operator acknowledgement of a registration"},
	{[]byte{0x71, 0x72}, "change lamp on, off", "the tower light is not reported"},
	{[]byte{0x74, 0x75, 0x76, 0x77, 0x78}, "printer paper low, power off, on, ribbon, carriage jammed", "the printer reports a fault (60) or paper out (61)"},
	{[]byte{0x7A, 0x7B}, "soft meters reset, bill validator totals reset", "a RAM clear is reported as 3A"},
	{[]byte{0x7C}, "legacy bonus", "no bonus awards"},
	{[]byte{0x86}, "out of service", "a tilt, a door or the host's 01 is reported by its own code"},
	{[]byte{0x8A}, "game recall entered", "recall is a service menu page (82/84)"},
	{[]byte{0x8C}, "game selected", "one game"},
	{[]byte{0x8E, 0x8F}, "component list changed, authentication complete", "no component authentication (6E)"},
}

func codesOf(rows []sasRow) []byte {
	var out []byte
	for _, r := range rows {
		out = append(out, r.codes...)
	}
	return out
}

func hexList(codes []byte) string {
	s := make([]string, len(codes))
	for i, c := range codes {
		s[i] = fmt.Sprintf("%02X", c)
	}
	return strings.Join(s, ", ")
}

// sasTable is docs/casino.md's table.
func sasTable() string {
	var b strings.Builder
	b.WriteString("| SAS | what | the cabinet |\n|---|---|---|\n")
	row := func(kind string, r sasRow, verdict string) {
		what := r.what
		if what == "" {
			names := make([]string, len(r.codes))
			for i, c := range r.codes {
				names[i] = sas.Exception(c).Name()
			}
			what = strings.Join(names, "; ")
		}
		fmt.Fprintf(&b, "| %s %s | %s | %s%s |\n", kind, hexList(r.codes), what, verdict, r.does)
	}
	for _, r := range answeredPolls {
		row("long poll", r, "answered: ")
	}
	for _, r := range silentPolls {
		row("long poll", r, "not answered: ")
	}
	b.WriteString("| long poll, any other | | not answered (silence, as SAS wants for a poll a machine does not support) |\n")
	for _, r := range raisedExceptions {
		row("exception", r, "raised: ")
	}
	for _, r := range unraisedExceptions {
		row("exception", r, "never raised: ")
	}
	return b.String()
}

const (
	readmeBegin = "<!-- sas-support: generated from cmd/cabinet/sassupport_test.go; UPDATE_README=1 go test -run TestREADMESASTable ./cmd/cabinet/ -->\n"
	readmeEnd   = "<!-- /sas-support -->"
)

func TestREADMESASTable(t *testing.T) {
	const path = "../../docs/casino.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i, j := strings.Index(text, readmeBegin), strings.Index(text, readmeEnd)
	if i < 0 || j < i {
		t.Fatalf("docs/casino.md has no generated SAS table between %q and %q", strings.TrimSpace(readmeBegin), readmeEnd)
	}
	want := text[:i+len(readmeBegin)] + sasTable() + text[j:]
	if want == text {
		return
	}
	if os.Getenv("UPDATE_README") != "" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("docs/casino.md's SAS table differs from cmd/cabinet/sassupport_test.go: UPDATE_README=1 go test -run TestREADMESASTable ./cmd/cabinet/")
}

// The long polls of the table against the cabinet's SAS port: the answered
// ones get an answer to a well-formed poll, the others none; every poll
// the link can frame is in the table.
func TestSASTablePollsAgreeWithTheCode(t *testing.T) {
	answered, silent := codesOf(answeredPolls), codesOf(silentPolls)
	seen := map[byte]bool{}
	for _, c := range append(slices.Clone(answered), silent...) {
		if seen[c] {
			t.Errorf("long poll %02X listed twice", c)
		}
		seen[c] = true
	}
	for _, c := range sas.SupportedLongPolls() {
		if !slices.Contains(answered, c) && !slices.Contains(silent, c) {
			t.Errorf("long poll %02X is framed by the link but not in the table", c)
		}
	}
	p := newTestPort(t, stateWithHandpay(t), machine.View{Mode: "handpay", Games: []string{meters.GameReels, meters.GameMakccarat}})
	p.rom = newROMSigner([][]byte{[]byte("program")}, func(seed, sig uint16) {})
	p.aft = aft.New(aftConfig(7, 100_000, true), aft.State{})
	for cmd := range 256 {
		c := byte(cmd)
		spec, framed := sas.LookupLongPoll(c)
		var data []byte
		if s, ok := pollSamples[c]; ok {
			data, _ = hex.DecodeString(strings.ReplaceAll(s, " ", ""))
		} else if framed && spec.Type != sas.PollR {
			data = make([]byte, spec.Length-4) // zeros of the poll's length
		}
		reply := p.poll(sas.LongPollFrame(1, c, data...))
		switch {
		case slices.Contains(answered, c) && !framed:
			t.Errorf("long poll %02X listed as answered: the link cannot frame it", c)
		case slices.Contains(answered, c) && len(reply) == 0:
			t.Errorf("long poll %02X listed as answered: no answer to % X", c, sas.LongPollFrame(1, c, data...))
		case !slices.Contains(answered, c) && len(reply) > 0:
			t.Errorf("long poll %02X listed as not answered: answered % X", c, reply)
		}
	}
}

// recordCatalogue has a record of every type, in every variant that
// raises something different.
func recordCatalogue() []meters.Record {
	recs := []meters.Record{
		meters.MoneyIn{Source: meters.SourceCoin, Cents: 100}, meters.MoneyIn{Source: meters.SourceTicket, Cents: 100},
		meters.GameStart{Game: 1, BetCents: 10}, meters.FreeGame{Game: 1}, meters.GameEnd{Game: 1},
		meters.HandpayPending{Cents: 100}, meters.HandpayReset{Cents: 100},
		meters.CashOut{Method: meters.OutTicket, Cents: 100}, meters.CashOut{Method: meters.OutHopper, Cents: 100},
		meters.ProgressiveHit{Level: 1}, meters.ProgressiveAward{Level: 1}, meters.ProgressiveAward{Level: 1, Attendant: true},
		meters.Event{Code: meters.EventPowerUp}, meters.Event{Code: meters.EventPowerDown},
		meters.Event{Code: meters.EventLinkDown}, meters.Event{Code: meters.EventLinkUp},
		meters.Event{Code: meters.EventTiltClear}, meters.Event{Code: meters.EventLogRepaired},
		meters.Config{Key: "denom"}, meters.RAMClear{}, meters.JackpotLevel{Level: 1},
		meters.TicketPrinted{Cents: 100}, meters.TicketVoid{Cents: 100}, meters.BillEscrow{Cents: 500}, meters.BillReturned{Cents: 500},
		meters.Event{Code: meters.EventTicketReprint},
		meters.AFTTransfer{}, meters.AFTRegistration{}, meters.PromoExpired{Cents: 100},
		meters.AFTReceipt{}, meters.AFTReceiptText{}, meters.HandpayPending{Kind: meters.HandpayBonus, Cents: 100},
		meters.ValidationConfig{ID: 1}, meters.TicketData{}, meters.ValidationRead{Upto: 1},
		meters.TicketEscrow{Digits: "001234567890123456"}, meters.TicketRedeem{Digits: "001234567890123456", Cents: 100},
		meters.TicketRedeem{Digits: "001234567890123456", Status: 0x88}, meters.ValidationRequest{Cents: 100},
		meters.ValidationDenied{Cents: 100, Why: "denied"},
		meters.HandpayValidated{Who: "a", Cents: 100, Ticket: "001234567890123456", Seq: 1}, meters.ValidationControl{},
	}
	for _, cents := range meters.BillValues {
		recs = append(recs, meters.MoneyIn{Source: meters.SourceBill, Cents: cents})
	}
	for _, d := range []string{meters.DoorMain, meters.DoorLogic, meters.DoorCashbox, meters.DoorBelly, meters.DoorDrop} {
		recs = append(recs, meters.Event{Code: meters.EventDoorOpen, Door: d}, meters.Event{Code: meters.EventDoorClose, Door: d})
	}
	for _, tilt := range []struct{ name, detail string }{{machine.TiltBillJam, ""}, {machine.TiltPrinter, "paper_out"},
		{machine.TiltPrinter, "offline"}, {machine.TiltProgram, ""}, {machine.TiltPaytable, ""}, {machine.TiltRNG, ""},
		{machine.TiltMeter, ""}, {machine.TiltBillValidator, ""}} {
		recs = append(recs, meters.Event{Code: meters.EventTilt, Tilt: tilt.name, Detail: tilt.detail})
	}
	for _, role := range []string{machine.RoleInspector, machine.RoleTechnician, machine.RoleOperator} {
		for _, action := range []string{meters.ActionLogin, machine.SvcLogout, meters.ActionPINFailed, machine.SvcConfig} {
			recs = append(recs, meters.Service{Role: role, Action: action})
		}
	}
	return recs
}

// The exceptions of the table against the code: the raised ones are
// exactly those the ledger's records raise, as exception codes or
// real-time events, and the queue's overflow; every exception code the
// sas package knows is in the table.
func TestSASTableExceptionsAgreeWithTheCode(t *testing.T) {
	recs := recordCatalogue()
	types := map[meters.Type]bool{}
	for _, r := range recs {
		types[r.Type()] = true
	}
	for ty := meters.Type(1); !strings.HasPrefix(ty.String(), "type "); ty++ {
		if !types[ty] {
			t.Errorf("no %v record in the catalogue: what it raises is unchecked", ty)
		}
	}
	// The queue raises 70 itself, the AFT core 6F (a lock is no record),
	// the SAS port 66 (a press of the cash-out button is no record).
	derived := map[byte]bool{byte(sas.ExcBufferOverflow): true, byte(sas.ExcGameLocked): true, byte(sas.ExcCashOutButton): true}
	st := meters.NewState()
	for _, e := range sas.EventsFor(recs, st, sas.RealTimeConfig{MaxBetLevel: -1}) {
		derived[byte(e.Code)] = true
		if len(e.Event) > 0 {
			derived[e.Event[0]] = true // the code in real-time mode
		}
	}
	raised, unraised := codesOf(raisedExceptions), codesOf(unraisedExceptions)
	for c := range derived {
		if !slices.Contains(raised, c) {
			t.Errorf("exception %v is raised but not listed as raised", sas.Exception(c))
		}
	}
	for _, c := range raised {
		if !derived[c] {
			t.Errorf("exception %v is listed as raised but nothing raises it", sas.Exception(c))
		}
		if slices.Contains(unraised, c) {
			t.Errorf("exception %v listed as raised and as never raised", sas.Exception(c))
		}
	}
	for code := 1; code < 256; code++ {
		e := sas.Exception(code)
		known := !strings.HasPrefix(e.Name(), "exception 0x")
		listed := slices.Contains(raised, byte(code)) || slices.Contains(unraised, byte(code))
		if known != listed {
			t.Errorf("exception %v: known to package sas %v, in the table %v", e, known, listed)
		}
	}
}
