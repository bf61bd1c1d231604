package model

// The player's screen: top bar, reels, meters, message, buttons.

func (g *Screen) ReelCount() (reelsN, rows int) {
	if n := len(g.V.Window); n > 0 {
		return n, len(g.V.Window[0])
	}
	if g.PT != nil {
		return len(g.PT.Reels), g.PT.Rows
	}
	return 5, 3
}

// CellRect is the design-space rectangle of a reel cell on the player
// screen without jackpot levels (Screen.Cell is the one on screen), for a
// window of reelsN reels and rows rows.
func CellRect(reel, row, reelsN, rows int) Rect {
	return CellIn(RectReels, reel, row, reelsN, rows)
}

// SymbolName is a symbol's player-facing name by ID.
func (g *Screen) SymbolName(id string) string {
	if g.PT != nil {
		for i, s := range g.PT.Symbols {
			if s.ID == id {
				return symbolName(g.PT, i, g.Lang)
			}
		}
	}
	return id
}

// SymbolAt is the symbol of item j of reel i (0..rows-1: the window).
func (g *Screen) SymbolAt(i, j int) string {
	if g.Anim != nil && i < len(g.Anim.Window) {
		return g.Anim.Symbol(i, j)
	}
	if i < len(g.V.Window) {
		col := g.V.Window[i]
		if len(col) > 0 {
			return col[Mod(j, len(col))]
		}
		return ""
	}
	// No game yet: the strips at their start, for decoration.
	if g.PT != nil && i < len(g.PT.Reels) {
		s := g.PT.Reels[i]
		return g.PT.Symbols[s[Mod(j, len(s))]].ID
	}
	return ""
}
