package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters/inspect"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// rawPoll sends one long poll frame (the CRC appended unless the poll is
// type R) and returns the bytes that came back, as a foreign host sees
// them.
func rawPoll(t *testing.T, h *host.Client, frameHex string) []byte {
	t.Helper()
	frame, err := hex.DecodeString(strings.ReplaceAll(frameHex, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	if spec, ok := sas.LookupLongPoll(frame[1]); !ok || spec.Type != sas.PollR {
		frame = sas.AppendCRC(frame)
	}
	got, err := h.Exchange(frame)
	if err != nil {
		t.Fatalf("% X: %v", frame, err)
	}
	return got
}

// wantReply is addr cmd data CRC with data in hex.
func wantReply(t *testing.T, addr, cmd byte, dataHex string) []byte {
	t.Helper()
	data, err := hex.DecodeString(strings.ReplaceAll(dataHex, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return sas.BuildReply(addr, cmd, data...)
}

// Issue 12, item 1: the bill meters by face value as SAS numbers them
// (€5 → 0x42, €20 → 0x44, €100 → 0x47), LP 0x1E with the count of every
// note it names (0 for the $1 note the euro does not have), LP 0x20 the
// value in whole euros, and one name and value for each code in sashost
// (over SAS) and meterread (from the ledger).
func TestSASBillMetersByFaceValue(t *testing.T) {
	data := t.TempDir()
	c := startCabinet(t, data, "--sas-addr", "1", "--sas-pty", "--jackpot", "off")
	defer c.Stop()
	h := sasHost(t, data)
	drain(t, h)
	for _, cents := range []int64{500, 10000, 2000, 2000} {
		c.Bill(cents)
	}

	// $1 0, $5 1, $10 0, $20 2, $50 0, $100 1.
	if got, want := rawPoll(t, h, "01 1E"), wantReply(t, 1, 0x1E, "00000000 00000001 00000000 00000002 00000000 00000001"); !bytes.Equal(got, want) {
		t.Errorf("0x1E answered % X, want % X", got, want)
	}
	if got, want := rawPoll(t, h, "01 20"), wantReply(t, 1, 0x20, "00000145"); !bytes.Equal(got, want) {
		t.Errorf("0x20 answered % X, want % X (145 euros)", got, want)
	}
	// 0x2F: €1 (0x40) none, €5 (0x42) 1, €20 (0x44) 2, €100 (0x47) 1,
	// bills in credits (0x0B) 14500 at the 0.01 accounting denomination.
	if got, want := rawPoll(t, h, "01 2F 07 0000 40 42 44 47 0B"),
		wantReply(t, 1, 0x2F, "1B 0000 40 00000000 42 00000001 44 00000002 47 00000001 0B 00014500"); !bytes.Equal(got, want) {
		t.Errorf("0x2F answered % X, want % X", got, want)
	}
	h.Close()

	// The real sashost reads every meter; the real meterread reads the
	// ledger afterwards. For every code both show, the name and the value
	// agree.
	out, err := exec.Command(filepath.Join(binDir, "sashost"), "--pty", c.SASPty(), "--addr", "1", "--json", "meters").CombinedOutput()
	if err != nil {
		t.Fatalf("sashost meters: %v\n%s", err, out)
	}
	var overSAS struct {
		Meters []host.Meter `json:"meters"`
	}
	if err := json.Unmarshal(out, &overSAS); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	byCode := map[uint16]host.Meter{}
	for _, m := range overSAS.Meters {
		byCode[uint16(m.Code)] = m
	}
	c.Stop()
	out, err = exec.Command(filepath.Join(binDir, "meterread"), "meters", "--json", filepath.Join(data, "ledger")).CombinedOutput()
	if err != nil {
		t.Fatalf("meterread meters: %v\n%s", err, out)
	}
	var rows []inspect.MeterRow
	if err := json.Unmarshal(out, &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	compared := map[uint16]bool{}
	for _, r := range rows {
		if r.SAS == "" {
			continue
		}
		code, err := strconv.ParseUint(strings.TrimPrefix(r.SAS, "0x"), 16, 16)
		if err != nil {
			t.Fatalf("meterread row %+v: SAS code: %v", r, err)
		}
		m, ok := byCode[uint16(code)]
		if !ok {
			t.Errorf("meterread shows %s (%s) = %d; the cabinet does not report it over SAS", r.SAS, r.Name, r.Value)
			continue
		}
		if r.SASName != m.Name || uint64(r.Value) != m.Value {
			t.Errorf("code %s: meterread %q = %d, sashost %q = %d", r.SAS, r.SASName, r.Value, m.Name, m.Value)
		}
		compared[uint16(code)] = true
	}
	for code, want := range map[uint16]uint64{0x42: 1, 0x44: 2, 0x47: 1, 0x0B: 14500} {
		if !compared[code] || byCode[code].Value != want {
			t.Errorf("code %02X: compared %v, over SAS %d, want %d", code, compared[code], byCode[code].Value, want)
		}
	}
}

// afterHostOrders waits until the host orders sent before it have reached
// the machine: 0x03 (sound off) is queued behind them and shows in the
// view; 0x04 turns the sound back on.
func afterHostOrders(t *testing.T, c *cabinet, h *host.Client) {
	t.Helper()
	if err := h.SoundOff(true); err != nil {
		t.Fatal(err)
	}
	c.WaitFor("the host's orders to reach the machine", func(v machine.View) bool { return v.SoundOff })
	if err := h.SoundOff(false); err != nil {
		t.Fatal(err)
	}
	c.WaitFor("the sound back on", func(v machine.View) bool { return !v.SoundOff })
}

// Issue 12, item 2: 0x94 answers addr 94 status CRC (00 reset, 02 not in a
// handpay); it resets the handpay alone, recorded as the SAS host's doing:
// neither a tilt nor a technician's session goes with it.
func TestSASRemoteHandpayReset(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--sas-addr", "1", "--sas-pty", "--jackpot", "off", "--handpay-limit", "1000")
	defer c.Stop()
	h := sasHost(t, data)
	defer h.Close()
	drain(t, h)

	// No handpay; a technician is logged in, and a bill jam has cleared at
	// the validator but waits for the attendant's key.
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "tech-4"})
	if r := c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: machine.DefaultPIN}); r.View.Service == nil {
		t.Fatalf("login: %+v", r)
	}
	c.Send(cabinettest.Command{Cmd: "jam"})
	c.Send(cabinettest.Command{Cmd: "clear_jam"})
	if got, want := rawPoll(t, h, "01 94"), wantReply(t, 1, 0x94, "02"); !bytes.Equal(got, want) {
		t.Errorf("0x94 with no handpay answered % X, want % X", got, want)
	}
	afterHostOrders(t, c, h)
	v := c.State()
	if !slices.Contains(v.Tilts, machine.TiltBillJam) || v.Service == nil {
		t.Fatalf("0x94 with no handpay cleared the tilt or ended the session: tilts %v, service %+v", v.Tilts, v.Service)
	}
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: false})
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "att-1"})
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: false})
	if v := c.State(); len(v.Tilts) != 0 || v.Service != nil {
		t.Fatalf("the key did not clear the tilt: %+v", v)
	}

	// A cash-out handpay. (A device tilt during a handpay cannot be made
	// from outside: the validator is off; machine/host_test.go covers it.)
	c.Bill(2000)
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	c.WaitFor("the handpay", func(v machine.View) bool { return v.Handpay == 2000 })
	drain(t, h)
	if got, want := rawPoll(t, h, "01 94"), wantReply(t, 1, 0x94, "00"); !bytes.Equal(got, want) {
		t.Fatalf("0x94 with a handpay answered % X, want % X", got, want)
	}
	c.WaitFor("the handpay reset", func(v machine.View) bool { return v.Handpay == 0 })
	drainUntil(t, h, sas.ExcHandpayReset)
	if got, want := rawPoll(t, h, "01 94"), wantReply(t, 1, 0x94, "02"); !bytes.Equal(got, want) {
		t.Fatalf("0x94 after the reset answered % X, want % X", got, want)
	}
	h.Close()
	out, err := exec.Command(filepath.Join(binDir, "sashost"), "--pty", c.SASPty(), "--addr", "1", "--json", "handpay", "reset").CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"status":2`) {
		t.Fatalf("sashost handpay reset: %v %s", err, out)
	}
	c.Stop()
	st := readLedger(t, data)
	last := st.Handpays[len(st.Handpays)-1]
	if last.Pending.Cents != 2000 || last.Reset == nil || last.Reset.Who != "SAS host (0x94)" || last.Reset.Cents != 2000 {
		t.Fatalf("ledger handpay %+v reset %+v", last.Pending, last.Reset)
	}
}

// peakRSS is the most memory the process ever had resident (VmHWM), in
// bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" && f[2] == "kB" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb * 1024
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}

// Issue 12, item 3: 0x21 signs the program the process runs, read when it
// started, not the file now at its path: an upgrade that replaces the
// file leaves the signature of the running program.
func TestSASROMSignatureOfTheRunningProgram(t *testing.T) {
	t.Parallel()
	exe := filepath.Join(t.TempDir(), "cabinet")
	orig, err := os.ReadFile(filepath.Join(binDir, "cabinet"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, orig, 0o755); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	c := cabinettest.Start(t, exe, data, "--sas-addr", "1", "--sas-pty")
	defer c.Stop()
	// The file replaced as an installer would (a new file renamed over
	// the old one; the running program's inode stays until it exits).
	if err := os.WriteFile(exe+".new", append(slices.Clone(orig), "another program"...), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(exe+".new", exe); err != nil {
		t.Fatal(err)
	}
	h := sasHost(t, data)
	defer h.Close()
	drain(t, h)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	sig, err := h.ROMSignature(ctx, 0xBEEF, 20*time.Millisecond, nil)
	if want := sas.CRCSeeded(0xBEEF, orig); err != nil || sig != want {
		t.Fatalf("ROM signature %04X (%v), want %04X: the CRC of the bytes the process started from", sig, err, want)
	}
}

// readReplies reads from a raw port until the bytes read make up replies
// to the polls sent, in order: for 0x21 an ACK (addr) or busy (addr 00),
// for 0x1A addr 1A, 4 BCD, CRC. It returns each reply.
func readReplies(t *testing.T, port sas.Port, cmds []byte) [][]byte {
	t.Helper()
	var buf []byte
	var out [][]byte
	chunk := make([]byte, 256)
	port.SetReadDeadline(time.Now().Add(10 * time.Second))
	defer port.SetReadDeadline(time.Time{})
	for len(out) < len(cmds) {
		cmd := cmds[len(out)]
		n := 0
		switch {
		case len(buf) >= 2 && cmd == 0x21 && buf[1] == 0:
			n = 2 // busy
		case len(buf) >= 2 && cmd == 0x21:
			n = 1 // ACK: the next byte starts the next reply
		case len(buf) >= 8 && cmd == 0x1A:
			n = 8
		}
		if n > 0 {
			out = append(out, buf[:n])
			buf = buf[n:]
			continue
		}
		k, err := port.Read(chunk)
		if err != nil {
			t.Fatalf("after %d of %d replies (% X pending): %v", len(out), len(cmds), buf, err)
		}
		buf = append(buf, chunk[:k]...)
	}
	return out
}

// Issue 12, item 3: a host that floods 0x21 with new seeds, in bursts of
// ten with a 0x1A after each burst, gets each 0x21 answered with ACK
// (queued) or busy (the queue is full: it asks again), and every 0x1A
// answered; the cabinet computes one signature at a time, so its memory
// does not grow with the polls; every signature that comes back is right
// for a seed it accepted.
func TestSASROMSignatureFlood(t *testing.T) {
	t.Parallel()
	img, err := os.ReadFile(filepath.Join(binDir, "cabinet"))
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	c := startCabinet(t, data, "--sas-addr", "1", "--sas-pty", "--jackpot", "off")
	defer c.Stop()
	h := sasHost(t, data)
	defer h.Close()
	drain(t, h)
	c.Bill(5000)
	drain(t, h)
	credits := wantReply(t, 1, 0x1A, "00005000")
	var acked []uint16
	busy := 0
	for round := range 30 {
		var burst, cmds []byte
		var seeds []uint16
		for i := range 10 {
			seed := uint16(0x1000 + 10*round + i)
			burst = append(burst, sas.LongPollFrame(1, 0x21, byte(seed), byte(seed>>8))...)
			cmds, seeds = append(cmds, 0x21), append(seeds, seed)
		}
		burst = append(burst, sas.LongPollFrame(1, 0x1A)...)
		cmds = append(cmds, 0x1A)
		if _, err := h.Port().Write(burst); err != nil {
			t.Fatal(err)
		}
		replies := readReplies(t, h.Port(), cmds)
		for i, r := range replies[:10] {
			if len(r) == 1 {
				acked = append(acked, seeds[i])
			} else {
				busy++
			}
		}
		if !bytes.Equal(replies[10], credits) {
			t.Fatalf("round %d: 0x1A answered % X, want % X", round, replies[10], credits)
		}
	}
	if len(acked) == 0 {
		t.Fatal("no 0x21 accepted")
	}
	const limit = 200 << 20
	if peak := peakRSS(t, c.Cmd.Process.Pid); peak > limit {
		t.Fatalf("peak resident memory %d MiB after 300 ROM signature polls (%d accepted), limit %d MiB", peak>>20, len(acked), limit>>20)
	}
	want := map[uint16]bool{}
	for _, s := range acked {
		want[sas.CRCSeeded(s, img)] = true
	}
	// The signatures come on general polls, each seed's once; the host
	// polls until one has come and then 20 polls in a row bring nothing.
	got := 0
	deadline := time.Now().Add(60 * time.Second)
	for quiet := 0; (got == 0 || quiet < 20) && time.Now().Before(deadline); {
		g, err := h.GeneralPoll()
		if err != nil {
			t.Fatal(err)
		}
		if g.Long == nil {
			quiet++
			time.Sleep(20 * time.Millisecond)
			continue
		}
		quiet = 0
		sig, err := host.DecodeSignature(g.Long.Data)
		if err != nil || g.Long.Cmd != 0x21 || !want[sig] {
			t.Fatalf("deferred reply % X: not the signature of an accepted seed", g.Raw)
		}
		got++
	}
	if got == 0 || got > len(acked) {
		t.Fatalf("%d signatures came back for %d seeds accepted", got, len(acked))
	}
	t.Logf("300 ROM signature polls: %d accepted, %d busy, %d signatures returned, peak RSS %d MiB", len(acked), busy, got, peakRSS(t, c.Cmd.Process.Pid)>>20)
}
