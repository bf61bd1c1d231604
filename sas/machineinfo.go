package sas

import (
	"errors"
	"fmt"
)

// Long poll 0x1F, send gaming machine information: the reply layout.
//
// Sources: the "IGT SAS Protocol Version 6.02 Reference Documentation"
// digest, 7.10, and the Aristocrat Monaco LP1FSendMachineIdAndInfoParser:
// game ID (2 ASCII), additional ID (3 ASCII, "000" if none), SAS
// accounting denomination code (1 binary, Table C-4), max bet (1 binary, FF
// when above 255), progressive group (1 binary, 00 none), game options (2
// binary, least significant byte first), paytable ID (6 ASCII), base
// percentage (4 ASCII digits, two implied decimals). 20 bytes.

// CmdMachineInfo is the gaming machine information long poll.
const CmdMachineInfo byte = 0x1F

// ErrMachineInfo is returned (wrapped) for a 0x1F field that does not fit
// its layout.
var ErrMachineInfo = errors.New("sas: bad machine information")

// MachineInfo is the reply to 0x1F.
type MachineInfo struct {
	GameID       string // 2 printable ASCII
	AdditionalID string // 3 printable ASCII
	Denomination byte   // SAS denomination code (0x01: 0.01)
	MaxBet       byte   // largest max bet, 0xFF if above 254
	// ProgressiveGroup is the SAS progressive group the machine is
	// configured for (0: none). It must be the group of the machine's
	// Progressive, if it has one.
	ProgressiveGroup byte
	GameOptions      uint16 // binary, least significant byte first
	PaytableID       string // 6 printable ASCII
	// BasePercent is the theoretical return at max bet as 4 ASCII digits
	// with two implied decimals: "9750" is 97.50 %.
	BasePercent string
}

const machineInfoLen = 2 + 3 + 1 + 1 + 1 + 2 + 6 + 4

func checkASCII(name, s string, n int, digits bool) error {
	if len(s) != n {
		return fmt.Errorf("%w: %s %q is %d bytes, want %d", ErrMachineInfo, name, s, len(s), n)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7E || digits && (c < '0' || c > '9') {
			return fmt.Errorf("%w: %s %q: byte %d is 0x%02X", ErrMachineInfo, name, s, i, c)
		}
	}
	return nil
}

func (m MachineInfo) check() error {
	return errors.Join(
		checkASCII("game ID", m.GameID, 2, false),
		checkASCII("additional ID", m.AdditionalID, 3, false),
		checkASCII("paytable ID", m.PaytableID, 6, false),
		checkASCII("base percentage", m.BasePercent, 4, true))
}

// MachineInfoData returns the data of the reply to 0x1F (20 bytes). Text
// fields must have their exact width in printable ASCII (pad them before),
// the base percentage four digits.
func MachineInfoData(m MachineInfo) ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	b := make([]byte, 0, machineInfoLen)
	b = append(b, m.GameID...)
	b = append(b, m.AdditionalID...)
	b = append(b, m.Denomination, m.MaxBet, m.ProgressiveGroup, byte(m.GameOptions), byte(m.GameOptions>>8))
	b = append(b, m.PaytableID...)
	return append(b, m.BasePercent...), nil
}

// DecodeMachineInfo decodes the data of the reply to 0x1F strictly: 20
// bytes, text fields printable ASCII, the base percentage four digits.
func DecodeMachineInfo(data []byte) (MachineInfo, error) {
	if len(data) != machineInfoLen {
		return MachineInfo{}, fmt.Errorf("%w: %d data bytes, want %d", ErrMachineInfo, len(data), machineInfoLen)
	}
	m := MachineInfo{
		GameID:           string(data[0:2]),
		AdditionalID:     string(data[2:5]),
		Denomination:     data[5],
		MaxBet:           data[6],
		ProgressiveGroup: data[7],
		GameOptions:      uint16(data[8]) | uint16(data[9])<<8,
		PaytableID:       string(data[10:16]),
		BasePercent:      string(data[16:20]),
	}
	if err := m.check(); err != nil {
		return MachineInfo{}, err
	}
	return m, nil
}
