package host

import "github.com/openegm/cabinet/sas"

// WagerCategory reads the coin-in of a wager category of game (0: the
// machine) with 0xB4 (sas/wager.go).
func (c *Client) WagerCategory(game, category uint16) (sas.WagerCategory, error) {
	data, err := sas.WagerCategoryPollData(game, category)
	if err != nil {
		return sas.WagerCategory{}, err
	}
	r, err := c.data(sas.CmdWagerCategory, data...)
	if err != nil {
		return sas.WagerCategory{}, err
	}
	w, err := sas.DecodeWagerCategory(r.Data)
	if err != nil {
		return w, bad("%v", err)
	}
	if w.Game != game || w.Category != category {
		return w, bad("B4 reply for game %d category %d, asked for %d %d", w.Game, w.Category, game, category)
	}
	return w, nil
}
