package sas

import "fmt"

// Send wager category information (0xB4): the coin-in of the bets of one
// wager category of a game, with the category's theoretical payback.
//
// Source: the Aristocrat Monaco SAS client (github.com/tejvirc/Platform,
// Protocol/SAS/Aristocrat.Sas.Client/LPParsers/LPB4SendWagerCategoryInfoParser.cs):
// the poll is game number and wager category (2 BCD each; category 0000:
// the whole game's coin-in); the reply is length (bytes that follow it,
// CRC excluded: 9 and the meter's), game number, wager category (2 BCD
// each), payback percentage (4 ASCII digits, 2 implied decimals), the
// coin-in meter's size in bytes (0-9) and the meter (that many BCD bytes).
// A category the machine does not have is answered with payback "0000"
// and size 0.

// CmdWagerCategory is the long poll 0xB4.
const CmdWagerCategory byte = 0xB4

// WagerCategory is the reply to 0xB4.
type WagerCategory struct {
	Game     uint16 `json:"game"`
	Category uint16 `json:"category"`
	// Payback is the theoretical payback, 4 digits with 2 implied
	// decimals ("9250" is 92.50 %); "0000" for a category the machine
	// does not have.
	Payback string `json:"payback"`
	// Size is the coin-in meter's width in bytes (0: no such category).
	Size   int    `json:"size"`
	CoinIn uint64 `json:"coin_in"` // cents
}

// ParseWagerCategoryPoll parses the data of a 0xB4 poll: game number and
// wager category, 2 BCD bytes each.
func ParseWagerCategoryPoll(data []byte) (game, category uint16, err error) {
	if len(data) != 4 {
		return 0, 0, fmt.Errorf("sas: B4: %d data bytes, want 4", len(data))
	}
	g, err := DecodeBCD(data[:2])
	if err != nil {
		return 0, 0, fmt.Errorf("sas: B4 game number: %w", err)
	}
	c, err := DecodeBCD(data[2:])
	if err != nil {
		return 0, 0, fmt.Errorf("sas: B4 wager category: %w", err)
	}
	return uint16(g), uint16(c), nil
}

// WagerCategoryPollData returns the data of a 0xB4 poll.
func WagerCategoryPollData(game, category uint16) ([]byte, error) {
	if game > 9999 || category > 9999 {
		return nil, fmt.Errorf("sas: B4: game %d, category %d: want 0-9999 each", game, category)
	}
	return AppendBCD(AppendBCD(nil, uint64(game), 2), uint64(category), 2), nil
}

// WagerCategoryData returns the data of the reply to 0xB4. The payback
// must be 4 ASCII digits and the meter fit its size (1-9 bytes), or, for a
// category the machine does not have, "0000" with size 0.
func WagerCategoryData(w WagerCategory) ([]byte, error) {
	if w.Game > 9999 || w.Category > 9999 {
		return nil, fmt.Errorf("sas: B4 reply: game %d, category %d: want 0-9999 each", w.Game, w.Category)
	}
	if len(w.Payback) != 4 || !digits(w.Payback) {
		return nil, fmt.Errorf("sas: B4 reply: payback %q: want 4 ASCII digits", w.Payback)
	}
	if w.Size < 0 || w.Size > 9 || w.Size == 0 && (w.CoinIn != 0 || w.Payback != "0000") || w.Size > 0 && w.CoinIn >= pow10(2*w.Size) {
		return nil, fmt.Errorf("sas: B4 reply: coin-in %d in %d bytes (payback %s)", w.CoinIn, w.Size, w.Payback)
	}
	b := []byte{byte(9 + w.Size)}
	b = AppendBCD(AppendBCD(b, uint64(w.Game), 2), uint64(w.Category), 2)
	b = append(append(b, w.Payback...), byte(w.Size))
	if w.Size > 0 {
		b = AppendBCD(b, w.CoinIn, w.Size)
	}
	return b, nil
}

// DecodeWagerCategory decodes the data of the reply to 0xB4 strictly.
func DecodeWagerCategory(data []byte) (WagerCategory, error) {
	if len(data) < 10 || int(data[0]) != len(data)-1 {
		return WagerCategory{}, fmt.Errorf("sas: B4 reply: %d bytes, length byte %v", len(data), data[:min(1, len(data))])
	}
	g, c, err := ParseWagerCategoryPoll(data[1:5])
	if err != nil {
		return WagerCategory{}, err
	}
	w := WagerCategory{Game: g, Category: c, Payback: string(data[5:9]), Size: int(data[9])}
	if !digits(w.Payback) || w.Size > 9 || len(data) != 10+w.Size {
		return WagerCategory{}, fmt.Errorf("sas: B4 reply: payback %q, meter size %d in %d bytes", w.Payback, w.Size, len(data))
	}
	if w.Size > 0 {
		if w.CoinIn, err = DecodeBCD(data[10:]); err != nil {
			return WagerCategory{}, fmt.Errorf("sas: B4 reply coin-in: %w", err)
		}
	}
	return w, nil
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
