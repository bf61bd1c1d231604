package host

import (
	"context"
	"fmt"
	"time"

	"github.com/openegm/cabinet/sas"
)

// data sends long poll cmd and requires a data reply.
func (c *Client) data(cmd byte, data ...byte) (Response, error) {
	r, err := c.LongPoll(cmd, data...)
	if err != nil {
		return r, err
	}
	if r.Kind != ReplyData {
		return r, bad("%02X answered with %v, want data", cmd, r.Kind)
	}
	return r, nil
}

// ack sends long poll cmd and requires an ACK.
func (c *Client) ack(cmd byte, data ...byte) error {
	r, err := c.LongPoll(cmd, data...)
	if err != nil {
		return err
	}
	if r.Kind != ReplyAck {
		return bad("%02X answered with %v % X, want ACK", cmd, r.Kind, r.Raw)
	}
	return nil
}

// Meters reads a meter long poll with a fixed layout (0x0F, 0x10–0x19,
// 0x1A, 0x1C, 0x1E).
func (c *Client) Meters(cmd byte) ([]Meter, error) {
	if sas.FixedMeterPoll(cmd) == nil {
		return nil, fmt.Errorf("sas host: %02X is not a fixed meter poll", cmd)
	}
	r, err := c.data(cmd)
	if err != nil {
		return nil, err
	}
	return DecodeMeters(cmd, r.Data)
}

// SelectedMeters reads the given meters of game (0: the machine) with 0x2F
// (ext false; one-byte codes) or 0x6F (ext true; two-byte codes, values up
// to 9 bytes), ten codes a poll. Meters the machine does not keep are
// missing from the result.
func (c *Client) SelectedMeters(game uint16, codes []sas.MeterCode, ext bool) ([]Meter, error) {
	cmd := byte(0x2F)
	if ext {
		cmd = 0x6F
	}
	var out []Meter
	for len(codes) > 0 {
		n := min(len(codes), 10)
		batch := codes[:n]
		codes = codes[n:]
		if !ext {
			for _, code := range batch {
				if code > 0xFF {
					return out, fmt.Errorf("sas host: meter %v needs 0x6F", code)
				}
			}
		}
		r, err := c.data(cmd, SelectedMetersData(game, batch, ext)...)
		if err != nil {
			return out, err
		}
		ms, err := DecodeMeters(cmd, r.Data)
		if err != nil {
			return out, err
		}
		out = append(out, ms...)
	}
	return out, nil
}

// AllMeters reads every meter of sas.KnownMeterCodes the machine keeps, with
// 0x6F (ext) or 0x2F.
func (c *Client) AllMeters(game uint16, ext bool) ([]Meter, error) {
	return c.SelectedMeters(game, sas.KnownMeterCodes(), ext)
}

// Credits reads the current credits (0x1A).
func (c *Client) Credits() (uint64, error) {
	r, err := c.data(0x1A)
	if err != nil {
		return 0, err
	}
	return DecodeCredits(r.Data)
}

// MachineInfo reads the gaming machine information (0x1F).
func (c *Client) MachineInfo() (MachineInfo, error) {
	r, err := c.data(0x1F)
	if err != nil {
		return MachineInfo{}, err
	}
	return DecodeMachineInfo(r.Data)
}

// SASInfo reads the SAS version and serial number (0x54).
func (c *Client) SASInfo() (SASInfo, error) {
	r, err := c.data(0x54)
	if err != nil {
		return SASInfo{}, err
	}
	return DecodeSASInfo(r.Data)
}

// Handpay reads the handpay information (0x1B).
func (c *Client) Handpay() (Handpay, error) {
	r, err := c.data(0x1B)
	if err != nil {
		return Handpay{}, err
	}
	return DecodeHandpay(r.Data)
}

// RemoteHandpayReset asks the machine to reset its pending handpay (0x94)
// and returns the status it answers: sas.HandpayResetDone,
// HandpayResetUnable or HandpayResetNotInHandpay.
func (c *Client) RemoteHandpayReset() (byte, error) {
	r, err := c.data(sas.CmdRemoteHandpayReset)
	if err != nil {
		return 0, err
	}
	if len(r.Data) != 1 || r.Data[0] > sas.HandpayResetNotInHandpay {
		return 0, bad("94 status % X: want one byte 00-02", r.Data)
	}
	return r.Data[0], nil
}

// HandpayResetMeaning names a 0x94 status.
func HandpayResetMeaning(status byte) string {
	switch status {
	case sas.HandpayResetDone:
		return "handpay reset"
	case sas.HandpayResetUnable:
		return "unable to reset the handpay"
	case sas.HandpayResetNotInHandpay:
		return "not in a handpay"
	}
	return fmt.Sprintf("status 0x%02X", status)
}

// Time reads the machine's date and time (0x7E), as wall-clock time in loc
// (time.Local if nil).
func (c *Client) Time(loc *time.Location) (time.Time, error) {
	r, err := c.data(0x7E)
	if err != nil {
		return time.Time{}, err
	}
	return DecodeTime(r.Data, loc)
}

// SetTime sets the machine's date and time (0x7F) to the wall clock of t.
func (c *Client) SetTime(t time.Time) error { return c.ack(0x7F, EncodeTime(t)...) }

// Disable asks the machine to finish the current game and then refuse play
// (0x01).
func (c *Client) Disable() error { return c.ack(0x01) }

// SoundOff turns the machine's sound off (0x03, true) or on (0x04).
func (c *Client) SoundOff(off bool) error {
	if off {
		return c.ack(0x03)
	}
	return c.ack(0x04)
}

// Enable allows play again (0x02).
func (c *Client) Enable() error { return c.ack(0x02) }

// ROMSignature asks for the ROM signature seeded with seed (0x21): the
// machine ACKs, computes, and sends the signature in answer to a later
// general poll. The client general-polls every interval (20 ms if 0) until
// it comes or ctx is done; exceptions received meanwhile go to other (if
// not nil), since the host has taken them from the machine's queue. A
// machine that answers 0x21 at once with the signature is accepted too.
func (c *Client) ROMSignature(ctx context.Context, seed uint16, interval time.Duration, other func(GeneralReply)) (uint16, error) {
	if interval <= 0 {
		interval = 20 * time.Millisecond
	}
	r, err := c.LongPoll(0x21, SeedData(seed)...)
	if err != nil {
		return 0, err
	}
	switch r.Kind {
	case ReplyData:
		return DecodeSignature(r.Data)
	case ReplyAck:
	default:
		return 0, bad("21 answered with %v", r.Kind)
	}
	tk := time.NewTicker(interval)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("sas host: waiting for the ROM signature: %w", ctx.Err())
		case <-tk.C:
		}
		g, err := c.GeneralPoll()
		if err != nil {
			continue // lost: the next poll repeats it
		}
		if g.Long != nil && g.Long.Cmd == 0x21 {
			return DecodeSignature(g.Long.Data)
		}
		if (g.Exception != sas.ExcNone || g.Long != nil) && other != nil {
			other(g)
		}
	}
}

// ConfigureBills sends the bill denominations the machine may accept and
// the bill acceptor action flag (0x08); the machine ACKs.
func (c *Client) ConfigureBills(b sas.BillDenominations) error {
	return c.ack(sas.CmdConfigureBills, sas.BillDenominationsData(b)...)
}

// SetRealTime turns real-time event reporting on or off (0x0E). Once the
// machine has ACKed, GeneralPoll expects real-time event messages (on) or
// exception codes (off).
func (c *Client) SetRealTime(on bool) error {
	flag := byte(0)
	if on {
		flag = 1
	}
	if err := c.ack(sas.CmdRealTime, flag); err != nil {
		return err
	}
	c.mu.Lock()
	c.rt = on
	c.mu.Unlock()
	return nil
}

// LastBill reads the last accepted bill information (0x48).
func (c *Client) LastBill() (sas.LastBill, error) {
	r, err := c.data(sas.CmdLastBill)
	if err != nil {
		return sas.LastBill{}, err
	}
	b, err := sas.DecodeLastBill(r.Data)
	if err != nil {
		return sas.LastBill{}, bad("%v", err)
	}
	return b, nil
}

// Features reads the enabled features of game (0: the machine) with 0xA0.
func (c *Client) Features(game uint16) (sas.Features, error) {
	if game > 9999 {
		return sas.Features{}, fmt.Errorf("sas host: game number %d exceeds 4 BCD digits", game)
	}
	r, err := c.data(sas.CmdEnabledFeatures, sas.EncodeBCD(uint64(game), 2)...)
	if err != nil {
		return sas.Features{}, err
	}
	f, err := sas.DecodeEnabledFeatures(r.Data)
	if err != nil {
		return sas.Features{}, bad("%v", err)
	}
	if f.Game != game {
		return f, bad("A0 reply for game %d, asked for %d", f.Game, game)
	}
	return f, nil
}
