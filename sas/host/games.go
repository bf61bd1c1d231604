package host

import (
	"github.com/openegm/cabinet/sas"
)

// The multi-game long polls (SAS 6.02): 0x51, 0x55, 0x56 and 0xB5.

// GameCount reads 0x51, the number of games the machine implements.
func (c *Client) GameCount() (uint16, error) {
	r, err := c.data(0x51)
	if err != nil {
		return 0, err
	}
	return bcdGame(0x51, r.Data)
}

// SelectedGame reads 0x55, the game the player is at.
func (c *Client) SelectedGame() (uint16, error) {
	r, err := c.data(0x55)
	if err != nil {
		return 0, err
	}
	return bcdGame(0x55, r.Data)
}

func bcdGame(cmd byte, data []byte) (uint16, error) {
	if len(data) != 2 {
		return 0, bad("%02X: %d data bytes, want 2", cmd, len(data))
	}
	n, err := sas.DecodeBCD(data)
	if err != nil {
		return 0, bad("%02X: %v", cmd, err)
	}
	return uint16(n), nil
}

// EnabledGames reads 0x56: the numbers of the games the operator enabled.
func (c *Client) EnabledGames() ([]uint16, error) {
	r, err := c.data(0x56)
	if err != nil {
		return nil, err
	}
	d := r.Data
	if len(d) < 2 || int(d[0]) != len(d)-1 || len(d) != 2+2*int(d[1]) {
		return nil, bad("56: malformed reply % X", d)
	}
	var games []uint16
	for i := 2; i < len(d); i += 2 {
		n, err := sas.DecodeBCD(d[i : i+2])
		if err != nil {
			return nil, bad("56: game %d: %v", len(games)+1, err)
		}
		games = append(games, uint16(n))
	}
	return games, nil
}

// GameInfo is the reply to 0xB5 for one game.
type GameInfo struct {
	Game             uint16 `json:"game"`
	MaxBet           uint64 `json:"max_bet"`
	ProgressiveGroup byte   `json:"progressive_group"`
	Levels           uint32 `json:"progressive_levels"` // bit 0 = level 1
	Name             string `json:"name"`
	Paytable         string `json:"paytable"`
	WagerCategories  uint64 `json:"wager_categories"`
}

// GameInfo reads 0xB5 for game (2 BCD): length, game number, max bet (2
// BCD), progressive group, levels (4 bytes, least significant first), game
// name and paytable name (each a length and ASCII), wager categories (2
// BCD).
func (c *Client) GameInfo(game uint16) (GameInfo, error) {
	r, err := c.data(0xB5, sas.EncodeBCD(uint64(game), 2)...)
	if err != nil {
		return GameInfo{}, err
	}
	return DecodeGameInfo(r.Data)
}

// DecodeGameInfo decodes the data of a 0xB5 reply.
func DecodeGameInfo(d []byte) (GameInfo, error) {
	var g GameInfo
	if len(d) < 11 || int(d[0]) != len(d)-1 {
		return g, bad("B5: malformed reply % X", d)
	}
	n, err := sas.DecodeBCD(d[1:3])
	if err != nil {
		return g, bad("B5: game number: %v", err)
	}
	g.Game = uint16(n)
	if g.MaxBet, err = sas.DecodeBCD(d[3:5]); err != nil {
		return g, bad("B5: max bet: %v", err)
	}
	g.ProgressiveGroup = d[5]
	g.Levels = uint32(d[6]) | uint32(d[7])<<8 | uint32(d[8])<<16 | uint32(d[9])<<24
	rest := d[10:]
	name := func(field string) (string, error) {
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return "", bad("B5: %s runs past the reply", field)
		}
		s := string(rest[1 : 1+int(rest[0])])
		rest = rest[1+int(rest[0]):]
		return s, nil
	}
	if g.Name, err = name("game name"); err != nil {
		return g, err
	}
	if g.Paytable, err = name("paytable name"); err != nil {
		return g, err
	}
	if len(rest) != 2 {
		return g, bad("B5: %d bytes where the wager categories (2 BCD) end the reply", len(rest))
	}
	if g.WagerCategories, err = sas.DecodeBCD(rest); err != nil {
		return g, bad("B5: wager categories: %v", err)
	}
	return g, nil
}
