package model

import "github.com/openegm/cabinet/machine"

// The roads are the table's history as baccarat players read it, computed
// from View.Table.Roads (oldest hand first).

// Bead is one cell of the bead plate: one hand, coloured by its winner,
// with the winning points in it.
type Bead struct {
	Col, Row int
	Hand     machine.RoadHand
}

// BeadPlate lays hands out one per cell, down each column of rows cells
// then on to the next column. When there are more hands than cells, the
// oldest whole columns give way, so a hand keeps its row.
func BeadPlate(hands []machine.RoadHand, rows, cols int) []Bead {
	if rows <= 0 || cols <= 0 {
		return nil
	}
	first := 0
	if n := len(hands); n > rows*cols {
		usedCols := (n + rows - 1) / rows
		first = (usedCols - cols) * rows
	}
	var out []Bead
	for i, h := range hands[first:] {
		out = append(out, Bead{Col: i / rows, Row: i % rows, Hand: h})
	}
	return out
}

// RoadCell is one cell of the big road: a player or banker win, the ties
// that came after it, and the pairs of its hand. A cell with no Winner
// holds the ties dealt before the first player or banker win.
type RoadCell struct {
	Col, Row   int
	Winner     string // "player", "banker", or "" (ties only, at the start)
	Ties       int
	PlayerPair bool
	BankerPair bool
}

// BigRoad lays out the big road: each run of wins of one side goes down a
// column, and the next run starts a new column; a run longer than the
// column turns right along its last row (the "dragon tail"), as it does
// when the cell below is taken. A tie takes no cell: it is counted on the
// last cell; ties before any win are counted on the first cell, which the
// first win then fills.
func BigRoad(hands []machine.RoadHand, rows int) []RoadCell {
	if rows <= 0 {
		return nil
	}
	var out []RoadCell
	taken := map[[2]int]bool{}
	runCol := -1 // the column the current run started in
	for _, h := range hands {
		if h.Winner == "tie" {
			if len(out) == 0 {
				out = append(out, RoadCell{})
				taken[[2]int{0, 0}] = true
				runCol = 0
			}
			out[len(out)-1].Ties++
			continue
		}
		pp, bp := h.PlayerPair, h.BankerPair
		if n := len(out); n > 0 && out[n-1].Winner == "" {
			// The first win fills the cell of the ties before it.
			out[n-1].Winner, out[n-1].PlayerPair, out[n-1].BankerPair = h.Winner, pp, bp
			continue
		}
		var col, row int
		if n := len(out); n > 0 && out[n-1].Winner == h.Winner {
			last := out[n-1]
			col, row = last.Col, last.Row+1
			if row >= rows || taken[[2]int{col, row}] || last.Col != runCol {
				// Down is full (or the run already turned): go right.
				col, row = last.Col+1, last.Row
			}
		} else {
			col, row = runCol+1, 0
			for taken[[2]int{col, row}] {
				col++ // a tail from an earlier run reaches this column
			}
			runCol = col
		}
		taken[[2]int{col, row}] = true
		out = append(out, RoadCell{Col: col, Row: row, Winner: h.Winner, PlayerPair: pp, BankerPair: bp})
	}
	return out
}

// RoadWindow is the first column of a road to show so that its last
// column is in sight in cols columns.
func RoadWindow(cells []RoadCell, cols int) int {
	last := 0
	for _, c := range cells {
		last = max(last, c.Col)
	}
	return max(last-cols+1, 0)
}

// RoadCounts are how many hands the player, the banker and ties won.
func RoadCounts(hands []machine.RoadHand) (player, banker, tie int) {
	for _, h := range hands {
		switch h.Winner {
		case "player":
			player++
		case "banker":
			banker++
		case "tie":
			tie++
		}
	}
	return
}
