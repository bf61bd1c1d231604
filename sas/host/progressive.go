package host

import (
	"fmt"

	"github.com/openegm/cabinet/sas"
)

// The host's side of SAS progressives: broadcasts (0x80, 0x86) and the
// progressive win polls (0x83, 0x84, 0x85, 0x87). Layouts and their
// sources are in sas/progressive.go.

// SendGlobal sends a global long poll (type G: frame addressed to 0, its
// CRC included) once and reads nothing: no machine answers it. To every
// machine it is the host moving on, so it acknowledges their last replies.
//
// Choice: a global poll is never repeated (there is no reply to miss); a
// host that broadcasts progressive values repeats them on its own period.
func (c *Client) SendGlobal(frame []byte) error {
	if len(frame) < 2 || frame[0] != sas.GlobalAddr {
		return fmt.Errorf("sas host: % X is not a global long poll", frame)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropStale()
	c.lastOK = nil // the machine has moved on: an identical next poll is new
	return c.write([][]byte{frame})
}

// Broadcast sends the current values of levels of progressive group: 0x80
// for one level, 0x86 for several (1–32 distinct levels, group 1–255,
// amounts in cents of at most 10 digits). With global it goes to address
// 0 and nothing is awaited; otherwise to the client's machine, which must
// ACK it.
func (c *Client) Broadcast(group byte, levels []sas.LevelValue, global bool) error {
	cmd, data, err := sas.ProgressiveBroadcastData(group, levels)
	if err != nil {
		return err
	}
	if global {
		return c.SendGlobal(sas.LongPollFrame(sas.GlobalAddr, cmd, data...))
	}
	return c.ack(cmd, data...)
}

// ProgressiveWin reads the oldest unread SAS progressive win (0x85); the
// zero ProgressiveWin (None) when the machine has none. The machine
// removes it from its queue when the client moves on (its next poll).
func (c *Client) ProgressiveWin() (sas.ProgressiveWin, error) {
	r, err := c.data(sas.CmdSASProgressiveWin)
	if err != nil {
		return sas.ProgressiveWin{}, err
	}
	return DecodeProgressiveWin(r.Data)
}

// LastProgressiveWin reads the progressive win amount (0x84): group,
// level and amount of the machine's last progressive win (SAS or not).
func (c *Client) LastProgressiveWin() (sas.ProgressiveWin, error) {
	r, err := c.data(sas.CmdProgressiveWinAmount)
	if err != nil {
		return sas.ProgressiveWin{}, err
	}
	return DecodeProgressiveWin(r.Data)
}

// ProgressiveWins reads the unread SAS progressive wins (0x87), oldest
// first; none when the queue is empty. The machine removes them from its
// queue when the client moves on.
func (c *Client) ProgressiveWins() (sas.ProgressiveWins, error) {
	r, err := c.data(sas.CmdMultipleProgressiveWins)
	if err != nil {
		return sas.ProgressiveWins{}, err
	}
	return DecodeProgressiveWins(r.Data)
}

// CumulativeWins is the reply to 0x83.
type CumulativeWins struct {
	Game   uint16 `json:"game"`
	Amount uint64 `json:"amount_cents"`
}

// CumulativeProgressiveWins reads the cumulative progressive wins meter of
// game (0: the whole machine) with 0x83, a type M poll.
func (c *Client) CumulativeProgressiveWins(game uint16) (CumulativeWins, error) {
	if game > 9999 {
		return CumulativeWins{}, fmt.Errorf("sas host: game number %d exceeds 9999", game)
	}
	r, err := c.data(sas.CmdCumulativeProgressive, sas.AppendBCD(nil, uint64(game), 2)...)
	if err != nil {
		return CumulativeWins{}, err
	}
	cw, err := DecodeCumulativeWins(r.Data)
	if err == nil && cw.Game != game {
		return cw, bad("83 reply for game %d, asked for %d", cw.Game, game)
	}
	return cw, err
}

// DecodeProgressiveWin decodes the data of the reply to 0x84 or 0x85
// strictly (sas.DecodeProgressiveWin): 7 bytes, level 1–32 or the all-zero
// "no win", BCD amount.
func DecodeProgressiveWin(data []byte) (sas.ProgressiveWin, error) {
	w, err := sas.DecodeProgressiveWin(data)
	if err != nil {
		return w, bad("%v", err)
	}
	return w, nil
}

// DecodeProgressiveWins decodes the data of the reply to 0x87 strictly
// (sas.DecodeMultipleProgressiveWins).
func DecodeProgressiveWins(data []byte) (sas.ProgressiveWins, error) {
	w, err := sas.DecodeMultipleProgressiveWins(data)
	if err != nil {
		return w, bad("%v", err)
	}
	return w, nil
}

// DecodeCumulativeWins decodes the data of the reply to 0x83: game number
// (2 BCD) and cumulative progressive wins (4 BCD), 6 bytes.
func DecodeCumulativeWins(data []byte) (CumulativeWins, error) {
	g, v, err := sas.DecodeCumulativeProgressiveWins(data)
	if err != nil {
		return CumulativeWins{}, bad("%v", err)
	}
	return CumulativeWins{Game: g, Amount: v}, nil
}
