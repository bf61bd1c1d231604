package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
	"github.com/openegm/cabinet/sas/metercode"
)

// sampleAFTReceipt is a receipt as the cabinet prints it: the README's
// picture.
func sampleAFTReceipt() machine.PrintAFTReceipt {
	t := aft.Transfer{Position: 3, ID: "CAIXA3-000918", Type: aft.InHouseToMachine, Status: aft.StatusFull, Asset: 4321,
		Flags: aft.FlagReceipt, ReceiptStatus: aft.ReceiptPending,
		Amounts: aft.Amounts{Cashable: 10_000, Restricted: 2_500, NonRestricted: 1_000}, PoolID: 7, RestrictedExpiration: 12312026,
		At:          time.Date(2026, 12, 1, 21, 15, 4, 0, time.UTC),
		ReceiptData: []byte{aft.FieldSource, 7, 'C', 'A', 'I', 'X', 'A', ' ', '3', aft.FieldPatronName, 9, 'A', 'N', 'A', ' ', 'S', 'I', 'L', 'V', 'A'}}
	return machine.PrintAFTReceipt{Ref: "AFT-3-CAIXA3-000918", Transfer: t, MachineID: "EGM-0042",
		Text: aft.ReceiptText{Location: "Casino Estoril", Address: [2]string{"Av. Dr. Stanley Ho", "2765-190 Estoril"},
			InHouse: [4]string{"Obrigado / Thank you"}}}
}

// TestAFTReceiptPicture renders the sample receipt as the cabinet does
// and compares it with docs/aft-receipt.png, the README's picture.
// Regenerate: UPDATE_RECEIPT_PNG=1 go test -run TestAFTReceiptPicture ./cmd/cabinet/
func TestAFTReceiptPicture(t *testing.T) {
	dir := t.TempDir()
	path, err := saveAFTReceiptPNG(dir, sampleAFTReceipt())
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "aft-3-CAIXA3-000918.png"); path != want {
		t.Fatalf("saved as %s, want %s", path, want)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const doc = "../../docs/aft-receipt.png"
	if os.Getenv("UPDATE_RECEIPT_PNG") != "" {
		if err := os.WriteFile(doc, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(doc)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the printer's picture (%v): UPDATE_RECEIPT_PNG=1 go test -run TestAFTReceiptPicture ./cmd/cabinet/", doc, err)
	}
	// A transaction ID with a slash still names one file in dir.
	odd := sampleAFTReceipt()
	odd.Ref, odd.Transfer.ID, odd.Reprint = "AFT-4-A/B", "A/B", true
	if path, err := saveAFTReceiptPNG(dir, odd); err != nil || path != filepath.Join(dir, "aft-4-A%2FB-reprint.png") {
		t.Fatalf("odd ID saved as %q: %v", path, err)
	}
}

// sashostJSON runs sashost --json and decodes its output into v.
func sashostJSON(t *testing.T, c *cabinet, v any, args ...string) int {
	t.Helper()
	out, code := sashostAt(t, c, args...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("sashost %v (exit %d): %s", args, code, out)
	}
	return code
}

// AFT bonus jackpots and receipts through the real cabinet and the real
// sashost: a bonus jackpot below the handpay limit is credited as a win,
// one at the limit locks the machine up for a handpay the attendant
// resets (the host reads it with 1B, the SAS meters say who paid what); a
// transfer that asks for a receipt has it printed, on paper and as a
// picture, with the host's texts and data, and its status printed in the
// history the host reads back; with the printer out of paper the receipt
// waits, the 74 status stops offering receipts, and the receipt comes out
// once the paper is back and the attendant has cleared the tilt.
func TestAFTBonusJackpotAndReceiptsOnTheCabinet(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, append(slices.Clone(aftArgs), "--spin-time", "5ms", "--handpay-limit", "50000")...)
	defer c.Stop()
	c.WaitIdle()
	if out, code := sashostAt(t, c, "aft", "register", "asset=4321", "key="+aftKeyHex(), "pos=9"); code != 0 {
		t.Fatalf("register: %s", out)
	}

	var st aft.StatusReply
	if sashostJSON(t, c, &st, "aft", "status"); st.AFTStatus&aft.StatusPrinterForReceipts == 0 || st.AFTStatus&aft.StatusBonusEnabled == 0 {
		t.Fatalf("0x74 with the printer ready: AFT status %02X", st.AFTStatus)
	}
	if out, code := sashostAt(t, c, "aft", "receipt-data", "location=CASINO ESTORIL", "inhouse1=OBRIGADO"); code != 0 {
		t.Fatalf("receipt-data: %s", out)
	}

	// Below the limit: a win on the credit meter.
	if r := promoTransfer(t, c, "jackpot", "J-1", "cashable=30000"); r.Status != aft.StatusFull || r.Type != aft.BonusJackpot {
		t.Fatalf("bonus jackpot below the limit: %+v", r)
	}
	v := c.WaitFor("the bonus on the credit meter", func(v machine.View) bool { return v.CreditsCents == 30000 })
	if v.Message.Key != "msg_aft_bonus" {
		t.Fatalf("message %+v", v.Message)
	}
	// At the limit: a handpay, the credits untouched.
	if r := promoTransfer(t, c, "jackpot", "J-2", "cashable=40000", "nonrestricted=10000"); r.Status != aft.StatusFull {
		t.Fatalf("bonus jackpot at the limit: %+v", r)
	}
	v = c.WaitFor("the bonus handpay", func(v machine.View) bool { return v.Mode == "handpay" })
	if v.Handpay != 50000 || v.HandpayKind != meters.HandpayBonus || v.CreditsCents != 30000 {
		t.Fatalf("handpay %d of kind %q with %d credits", v.Handpay, v.HandpayKind, v.CreditsCents)
	}
	var hp struct {
		Level  byte   `json:"level"`
		Amount uint64 `json:"amount_cents"`
	}
	if sashostJSON(t, c, &hp, "handpay"); hp.Level != sas.HandpayLevelNonProgressive || hp.Amount != 50000 {
		t.Fatalf("1B: %+v", hp)
	}
	if r := promoTransfer(t, c, "in", "IN-H", "cashable=100"); r.Status != aft.StatusUnable {
		t.Fatalf("a transfer during the handpay: %v", r.Status)
	}
	c.TurnKey("att-4")
	c.WaitFor("the handpay reset", func(v machine.View) bool { return v.Mode == "idle" && v.CreditsCents == 30000 })
	var ms struct {
		Meters []host.Meter `json:"meters"`
	}
	sashostJSON(t, c, &ms, "meters")
	got := map[metercode.Code]uint64{}
	for _, m := range ms.Meters {
		got[m.Code] = m.Value
	}
	for code, want := range map[metercode.Code]uint64{metercode.MachinePaidExternalBonus: 30000, metercode.AttendantPaidExternalBonus: 50000,
		metercode.TotalJackpot: 50000, metercode.TotalHandPaid: 50000, metercode.TotalWon: 80000, metercode.TotalCoinOut: 30000,
		metercode.AFTBonusCashableIn: 70000, metercode.AFTBonusNonRestrictedIn: 10000} {
		if v, ok := got[code]; !ok || v != want {
			t.Errorf("SAS %v = %d (read %v), want %d", code, v, ok, want)
		}
	}

	// A receipt asked for: printed, with the host's texts and data.
	if r := promoTransfer(t, c, "in", "R-1", "cashable=2500", "receipt", "patron=ANA SILVA", "source=CAIXA 3"); r.Status != aft.StatusFull {
		t.Fatalf("transfer with a receipt: %+v", r)
	}
	printed := waitReceipt(t, c, "R-1")
	if printed.Position != 3 {
		t.Fatalf("R-1 at position %d", printed.Position)
	}
	onPaper(t, data, "AFT-3-R-1")
	if _, err := os.Stat(filepath.Join(data, receiptsDir, "aft-3-R-1.png")); err != nil {
		t.Fatalf("no picture of the receipt: %v", err)
	}
	// A bonus has no receipt (92).
	if r := promoTransfer(t, c, "bonus", "B-R", "cashable=100", "receipt"); r.Status != aft.StatusReceiptNotAllowed {
		t.Fatalf("receipt of a bonus: %v", r.Status)
	}

	// The paper runs out: the receipt waits, and receipts are not offered.
	c.Send(cabinettest.Command{Cmd: "paper_out"})
	if r := promoTransfer(t, c, "in", "R-2", "cashable=700", "receipt"); r.Status != aft.StatusFull {
		t.Fatalf("transfer with a receipt, paper out: %+v", r)
	}
	c.WaitFor("the printer tilt", func(v machine.View) bool { return slices.Contains(v.Tilts, machine.TiltPrinter) })
	if sashostJSON(t, c, &st, "aft", "status"); st.AFTStatus&aft.StatusPrinterForReceipts != 0 {
		t.Fatalf("0x74 offers receipts with no paper: %02X", st.AFTStatus)
	}
	if r := promoTransfer(t, c, "in", "R-3", "cashable=700", "receipt"); r.Status != aft.StatusCannotPrintReceipt {
		t.Fatalf("a receipt with no paper: %v", r.Status)
	}
	var pending aft.TransferReply
	if sashostJSON(t, c, &pending, "aft", "interrogate", "id=R-2"); pending.ReceiptStatus != aft.ReceiptPending {
		t.Fatalf("R-2's receipt %02X, want pending", byte(pending.ReceiptStatus))
	}
	c.Send(cabinettest.Command{Cmd: "refill"})
	// The printer is back when the 74 status offers receipts again.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if sashostJSON(t, c, &st, "aft", "status"); st.AFTStatus&aft.StatusPrinterForReceipts != 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("0x74 does not offer receipts after the refill: %02X", st.AFTStatus)
		}
	}
	c.TurnKey("att-4")
	waitReceipt(t, c, "R-2")
	onPaper(t, data, "AFT-4-R-2")

	// The history the host reads back has each receipt's status.
	var hist []aft.TransferReply
	sashostJSON(t, c, &hist, "aft", "history")
	status := map[string]aft.ReceiptStatus{}
	for _, h := range hist {
		status[h.ID] = h.ReceiptStatus
	}
	if status["R-1"] != aft.ReceiptPrinted || status["R-2"] != aft.ReceiptPrinted || status["J-2"] != aft.ReceiptNone || len(hist) != 4 {
		t.Fatalf("history %+v", hist)
	}
	c.Stop()
	ledger := readLedger(t, data)
	if err := ledger.Check(); err != nil {
		t.Fatal(err)
	}
	var receipts []string
	texts := 0
	for _, r := range ledgerRecords(t, data) {
		switch x := r.(type) {
		case meters.AFTReceipt:
			receipts = append(receipts, x.Receipt.ID)
		case meters.AFTReceiptText:
			texts++
		}
	}
	if !slices.Equal(receipts, []string{"R-1", "R-2"}) || texts != 1 || ledger.AFT.ReceiptText.Location != "CASINO ESTORIL" {
		t.Fatalf("receipts recorded %v, texts %d %+v", receipts, texts, ledger.AFT.ReceiptText)
	}
	h := ledger.Handpays[len(ledger.Handpays)-1]
	if h.Pending.Kind != meters.HandpayBonus || h.Pending.Ref != "J-2" || h.Reset == nil || h.Reset.Who != "att-4" {
		t.Fatalf("the bonus handpay in the ledger: %+v", h)
	}
}

// waitReceipt waits until the host reads the transfer's receipt printed.
func waitReceipt(t *testing.T, c *cabinet, id string) aft.TransferReply {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var r aft.TransferReply
		sashostJSON(t, c, &r, "aft", "interrogate", "id="+id)
		if r.ReceiptStatus == aft.ReceiptPrinted {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("receipt of %s: status %02X after a minute", id, byte(r.ReceiptStatus))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// onPaper checks the simulated printer's tray holds the receipt ref,
// once.
func onPaper(t *testing.T, data, ref string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(data, "devices", "printed.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `"validation":"`+ref+`"`); n != 1 {
		t.Fatalf("receipt %s on paper %d times:\n%s", ref, n, b)
	}
}

// A bonus jackpot at the handpay limit survives the power cord: killed
// with its handpay pending, the cabinet comes back locked up for it; and
// when the power went between the bonus's record and its lockout's (the
// ledger as such a kill leaves it, written here by the cabinet's own
// ledger code), the power-up locks up for that bonus, on a cabinet that
// never played a game, and the attendant resets it as such.
func TestAFTBonusHandpayAcrossPowerLoss(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	data := t.TempDir()
	args := append(slices.Clone(aftArgs), "--spin-time", "5ms", "--handpay-limit", "50000")
	c := startCabinet(t, data, args...)
	c.WaitIdle()
	if out, code := sashostAt(t, c, "aft", "register", "asset=4321", "key="+aftKeyHex()); code != 0 {
		t.Fatalf("register: %s", out)
	}
	if r := promoTransfer(t, c, "jackpot", "J-1", "cashable=60000"); r.Status != aft.StatusFull {
		t.Fatalf("bonus jackpot: %+v", r)
	}
	c.WaitFor("the handpay", func(v machine.View) bool { return v.Mode == "handpay" })
	c.Kill()
	c = startCabinet(t, data, args...)
	v := c.WaitFor("the handpay after the kill", func(v machine.View) bool { return v.Mode == "handpay" })
	if v.Handpay != 60000 || v.HandpayKind != meters.HandpayBonus {
		t.Fatalf("after the kill: handpay %d of kind %q", v.Handpay, v.HandpayKind)
	}
	c.TurnKey("att-2")
	c.WaitFor("the reset", func(v machine.View) bool { return v.Mode == "idle" })
	c.Stop()

	// The power goes after the next bonus's record, before its lockout's.
	board := cabinettest.Board(data)
	witness, err := book.OpenFileWitness(filepath.Join(board, "witness"))
	if err != nil {
		t.Fatal(err)
	}
	l, _, err := meters.Open(filepath.Join(data, "ledger"), meters.Options{Keys: book.FileKeys{Dir: board}, Witness: witness})
	if err != nil {
		t.Fatal(err)
	}
	st := l.State()
	bonus := aft.Transfer{Position: st.AFT.NextPosition(), ID: "J-2", Code: aft.CodeFull, Type: aft.BonusJackpot, Status: aft.StatusFull,
		Asset: aftAsset, Requested: aft.Amounts{Cashable: 75000}, Amounts: aft.Amounts{Cashable: 75000}, At: time.Now(),
		ReceiptStatus: aft.ReceiptNone, Handpay: true}
	if err := l.Commit(meters.AFTTransfer{At: time.Now().UnixNano(), Transfer: bonus}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	witness.Close()

	c = startCabinet(t, data, args...)
	defer c.Stop()
	v = c.WaitFor("the bonus's lockout at power-up", func(v machine.View) bool { return v.Mode == "handpay" })
	if v.Handpay != 75000 || v.HandpayKind != meters.HandpayBonus || v.Fault != "" || len(v.Tilts) != 0 {
		t.Fatalf("at power-up: handpay %d of kind %q, fault %q, tilts %v", v.Handpay, v.HandpayKind, v.Fault, v.Tilts)
	}
	// The host reads the bonus done (it happened), and its handpay.
	var r aft.TransferReply
	if sashostJSON(t, c, &r, "aft", "interrogate", "id=J-2"); r.Status != aft.StatusFull || r.Type != aft.BonusJackpot {
		t.Fatalf("the host reads J-2: %+v", r)
	}
	c.TurnKey("att-3")
	c.WaitFor("the reset", func(v machine.View) bool { return v.Mode == "idle" })
	c.Stop()
	ledger := readLedger(t, data)
	if err := ledger.Check(); err != nil {
		t.Fatal(err)
	}
	last := ledger.Handpays[len(ledger.Handpays)-1]
	if last.Pending.Ref != "J-2" || last.Pending.Kind != meters.HandpayBonus || last.Reset == nil || last.Reset.Who != "att-3" ||
		ledger.Get(meters.AttendantPaidBonus) != 135000 || ledger.Get(meters.GamesPlayed) != 0 {
		t.Fatalf("ledger: handpay %+v, 0x21 %d, games %d", last, ledger.Get(meters.AttendantPaidBonus), ledger.Get(meters.GamesPlayed))
	}
}
