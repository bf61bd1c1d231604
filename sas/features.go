package sas

import (
	"errors"
	"fmt"
	"strings"
)

// Long poll 0xA0, send enabled features (type M): the host sends a game
// number (2 BCD, 0000 = the gaming machine); the reply is the game number,
// four feature bytes (binary) and two reserved bytes (00 00).
//
// Sources: the "IGT SAS Protocol Version 6.02 Reference Documentation"
// digest (7.14, 2.3.3) for the list of features, and the Aristocrat Monaco
// SAS client for the layout and the bit of each feature
// (LPA0SendEnabledFeaturesParser; LongPollSendEnabledFeaturesResponse,
// which names the tables 7.14c–f; LPA0SendEnabledFeaturesHandler for the
// two-bit fields: validation style 01 system, 10 secure enhanced; meter
// model 01 metered when won, 10 metered when played).

// CmdEnabledFeatures is long poll 0xA0.
const CmdEnabledFeatures byte = 0xA0

// Features 1 (table 7.14c).
const (
	Feature1JackpotMultiplier    byte = 1 << 0
	Feature1AFTBonusAwards       byte = 1 << 1
	Feature1LegacyBonusAwards    byte = 1 << 2
	Feature1Tournament           byte = 1 << 3
	Feature1ValidationExtensions byte = 1 << 4
	Feature1ValidationStyleBit0  byte = 1 << 5 // 01: system validation
	Feature1ValidationStyleBit1  byte = 1 << 6 // 10: secure enhanced validation
	Feature1TicketRedemption     byte = 1 << 7
)

// Features 2 (table 7.14d).
const (
	Feature2MeterModelWhenWon    byte = 1 << 0 // meter model 01: wins metered when won
	Feature2MeterModelWhenPlayed byte = 1 << 1 // meter model 10: wins metered when played or paid
	Feature2TicketsToDrop        byte = 1 << 2 // tickets in total drop and total cancelled credits
	Feature2ExtendedMeters       byte = 1 << 3 // 0x6F/0xAF
	Feature2ComponentAuth        byte = 1 << 4
	Feature2JackpotKeyoffExc     byte = 1 << 5 // jackpot keyoff to machine pay exception
	Feature2AFT                  byte = 1 << 6
	Feature2MultiDenom           byte = 1 << 7
)

// Features 3 (table 7.14e).
const (
	Feature3MaxPollingRate40ms         byte = 1 << 0
	Feature3MultipleProgressiveWins    byte = 1 << 1 // 0x87
	Feature3MeterChangeNotification    byte = 1 << 2
	Feature3SessionPlay                byte = 1 << 4
	Feature3ForeignCurrencyRedemption  byte = 1 << 5
	Feature3NonSASProgressiveHits      byte = 1 << 6
	Feature3EnhancedProgressiveReports byte = 1 << 7
)

// Features 4 (table 7.14f).
const Feature4MaxProgressivePayback byte = 1 << 0

var featureNames = [4][8]string{
	{"jackpot multiplier", "AFT bonus awards", "legacy bonus awards", "tournament", "validation extensions",
		"validation style bit 0 (system)", "validation style bit 1 (secure enhanced)", "ticket redemption"},
	{"meter model: metered when won", "meter model: metered when played", "tickets to total drop and cancelled credits",
		"extended meters", "component authentication", "jackpot keyoff to machine pay exception",
		"advanced funds transfer", "multi-denom extensions"},
	{"max polling rate 40 ms", "multiple SAS progressive win reporting", "meter change notification", "",
		"session play", "foreign currency redemption", "non-SAS progressive hit reporting",
		"enhanced progressive data reporting"},
	{"max progressive payback", "", "", "", "", "", "", ""},
}

// ErrFeatures is returned (wrapped) for 0xA0 data that does not fit its
// layout.
var ErrFeatures = errors.New("sas: bad enabled features")

// Features is the reply to 0xA0.
type Features struct {
	Game uint16  // the game number the host asked for (0: the machine)
	Bits [4]byte // features 1 to 4
}

// Names lists the features set, by name, in byte and bit order (reserved
// bits as "features N bit B").
func (f Features) Names() []string {
	var out []string
	for i, b := range f.Bits {
		for bit := range 8 {
			if b&(1<<bit) == 0 {
				continue
			}
			n := featureNames[i][bit]
			if n == "" {
				n = fmt.Sprintf("features %d bit %d (reserved)", i+1, bit)
			}
			out = append(out, n)
		}
	}
	return out
}

func (f Features) String() string {
	return fmt.Sprintf("game %04d features % X: %s", f.Game, f.Bits[:], strings.Join(f.Names(), ", "))
}

// EnabledFeaturesData returns the data of the reply to 0xA0: game number
// (2 BCD), features 1–4 (binary), reserved (00 00). The game number must be
// at most 9999.
func EnabledFeaturesData(f Features) ([]byte, error) {
	if f.Game > 9999 {
		return nil, fmt.Errorf("%w: game number %d exceeds 4 BCD digits", ErrFeatures, f.Game)
	}
	b := AppendBCD(nil, uint64(f.Game), 2)
	b = append(b, f.Bits[:]...)
	return append(b, 0, 0), nil
}

// DecodeEnabledFeatures decodes the data of the reply to 0xA0: exactly 8
// bytes, a BCD game number. The reserved bytes are not checked (tolerant
// of what is received).
func DecodeEnabledFeatures(data []byte) (Features, error) {
	if len(data) != 8 {
		return Features{}, fmt.Errorf("%w: A0 data of %d bytes, want 8", ErrFeatures, len(data))
	}
	g, err := DecodeBCD(data[:2])
	if err != nil {
		return Features{}, fmt.Errorf("%w: A0 game number: %v", ErrFeatures, err)
	}
	f := Features{Game: uint16(g)}
	copy(f.Bits[:], data[2:6])
	return f, nil
}
