package main

import (
	"slices"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/metercode"
)

// The cabinet as a SAS multi-game machine: game 1 is the reel game, game 2
// the Makccarat table (meters.GameKinds' order). The numbers are fixed, so
// a host's records of a game keep their meaning whichever games the
// operator enables; 0x56 says which are.

// gameNumber is the SAS game number of a game kind (0: none).
func gameNumber(kind string) uint16 {
	return uint16(slices.Index(meters.GameKinds, kind) + 1)
}

// gameKind is the game kind of a SAS game number ("" for none or 0).
func gameKind(n uint16) string {
	if n == 0 || int(n) > len(meters.GameKinds) {
		return ""
	}
	return meters.GameKinds[n-1]
}

// gamePoll answers the multi-game long polls from the machine's last
// view; ok is false for any other poll.
//
//   - 0x51 number of games implemented: 2 BCD.
//   - 0x55 selected game number: 2 BCD (the game the player is at).
//   - 0x56 enabled game numbers: length, count, then 2 BCD per game.
//   - 0xB5 game information for game N: length, game number, max bet
//     (2 BCD, cents), progressive group, progressive levels (4 bytes, bit
//     0 = level 1, least significant byte first), game name (length and
//     ASCII), paytable name (length and ASCII, the certified file's ID),
//     number of wager categories (2 BCD). An unknown or disabled game
//     gets no reply.
//
// Choice: max bet is in the game's credits: the reel game's at its
// denomination (as 0x1F), a Makccarat hand's in cents (its records' Denom
// is 1), and 9999 (the field's largest) when the hand's maximum is more;
// the reel game's progressive levels are those the
// link controller awards; Makccarat has none (it does not feed or win the
// jackpots).
func (s *sasPort) gamePoll(r sas.Request) (sas.Reply, bool) {
	switch r.Cmd {
	case 0x51, 0x55, 0x56, 0xB5:
	default:
		return sas.Reply{}, false
	}
	vp := s.own.view.Load()
	if vp == nil {
		return sas.NoReply(), true
	}
	v := *vp
	switch r.Cmd {
	case 0x51:
		return sas.ReplyData(sas.EncodeBCD(uint64(len(v.Games)), 2)...), true
	case 0x55:
		return sas.ReplyData(sas.EncodeBCD(uint64(gameNumber(v.GameKind)), 2)...), true
	case 0x56:
		out := []byte{0, byte(len(v.Games))}
		for _, g := range v.Games {
			out = sas.AppendBCD(out, uint64(gameNumber(g)), 2)
		}
		out[0] = byte(len(out) - 1)
		return sas.ReplyData(out...), true
	}
	game, err := sas.DecodeGameNumber(r.Data)
	kind := gameKind(game)
	if err != nil || !slices.Contains(v.Games, kind) {
		return sas.NoReply(), true
	}
	return sas.ReplyData(gameInfo(v, game, kind, s.group, s.maxBetCredits)...), true
}

func gameInfo(v machine.View, game uint16, kind string, group byte, reelsMaxBet int64) []byte { // reelsMaxBet in credits
	var maxBet int64
	var levels uint32
	name, paytable := "Lusitania", v.Paytable
	switch kind {
	case meters.GameReels:
		maxBet = reelsMaxBet
		for _, j := range v.Jackpots {
			if j.Linked && j.Level >= 1 && j.Level <= 32 {
				levels |= 1 << (j.Level - 1)
			}
		}
	case meters.GameMakccarat:
		name, group = "Makccarat", 0
		if t := v.Table; t != nil {
			maxBet, paytable = t.HandMax, t.ID
		}
	}
	out := []byte{0}
	out = sas.AppendBCD(out, uint64(game), 2)
	out = sas.AppendBCD(out, uint64(min(maxBet, 9999)), 2)
	out = append(out, group, byte(levels), byte(levels>>8), byte(levels>>16), byte(levels>>24))
	out = appendName(out, name)
	out = appendName(out, paytable)
	out = sas.AppendBCD(out, 1, 2) // one wager category: the game's coin-in
	out[0] = byte(len(out) - 1)
	return out
}

// appendName appends a SAS length-prefixed ASCII name (at most 20 bytes).
func appendName(out []byte, s string) []byte {
	b := []byte(s)
	if len(b) > 20 {
		b = b[:20]
	}
	return append(append(out, byte(len(b))), b...)
}

// ForGame answers 0x2F/0x6F/0xAF for one game (sas.GameMeterSource) from
// its meters in the last committed state.
func (s *sasPort) ForGame(game uint16) (sas.MeterSource, bool) {
	snap := s.meters.Load()
	vp := s.own.view.Load()
	kind := gameKind(game)
	if snap == nil || vp == nil || !slices.Contains(vp.Games, kind) {
		return nil, false
	}
	return gameMeterSource(snap.ledger.PerGame[kind]), true
}

// gameMeterSource is one game's meters under their SAS codes. Amounts are
// cents (credits at the accounting denomination 0.01), as the machine's.
type gameMeterSource meters.GameMeters

func (g gameMeterSource) Meter(code uint16) (uint64, bool) {
	var v int64
	switch metercode.Code(code) {
	case metercode.TotalCoinIn:
		v = g.CoinIn
	case metercode.TotalCoinOut, metercode.MachinePaidPaytableWin:
		v = g.CoinOut
	case metercode.TotalJackpot, metercode.AttendantPaidPaytableWin:
		v = g.HandPaid
	case metercode.TotalWon:
		v = g.TotalWon
	case metercode.GamesPlayed:
		v = g.Played
	case metercode.GamesWon:
		v = g.Won
	case metercode.GamesLost:
		v = g.Lost
	default:
		return 0, false
	}
	return uint64(v), true
}
