// The SAS port's meters: the snapshot published after every commit, from
// which the serve loop answers the meter polls and 0xB4 without waiting on
// the owner.

package main

import (
	"maps"
	"slices"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/metercode"
)

type meterSnap struct {
	ledger *meters.State // meters and bill counts only, for SASMeter
	m      []int64
	claims []meters.ProgressiveHit // reported hits on linked levels, unconfirmed
	// linkedCoinIn is the coin-in of bets that could win a linked level.
	linkedCoinIn int64
	handpay      *meters.HandpayPending
	local        []int // the local jackpot's levels
	// lastBill is the note last accepted (cents; 0: none since the ledger
	// began) and lastBillCount the count of its denomination.
	lastBill      int64
	lastBillCount int64
	tito          meters.Tickets // what the ticket polls answer from (sasport_tickets.go)
}

func (s *sasPort) publish(st *meters.State) {
	snap := &meterSnap{m: slices.Clone(st.Meters[:]), linkedCoinIn: st.LinkedCoinIn,
		ledger: &meters.State{Meters: st.Meters, BillCounts: slices.Clone(st.BillCounts), PerGame: st.PerGame,
			AFT: aft.State{Meters: maps.Clone(st.AFT.Meters)}}}
	if n := len(st.Bills); n > 0 {
		snap.lastBill = st.Bills[n-1].Cents
		if i := slices.Index(meters.BillValues, snap.lastBill); i >= 0 && i < len(st.BillCounts) {
			snap.lastBillCount = st.BillCounts[i]
		}
	}
	snap.claims = st.LinkedClaims()
	if st.Handpay != nil {
		hp := *st.Handpay
		snap.handpay = &hp
	}
	for _, l := range st.LocalLevels() {
		snap.local = append(snap.local, l.Level)
	}
	snap.tito = st.TITO
	s.meters.Store(snap)
}

// Meter answers the SAS meter polls from the last committed state, by the
// ledger's mapping to the one table of SAS codes (meters.State.SASMeter).
// Amounts are cents, which are credits at SAS's accounting denomination of
// 0.01.
func (s *sasPort) Meter(code uint16) (uint64, bool) {
	snap := s.meters.Load()
	if snap == nil {
		return 0, false
	}
	v, ok := snap.ledger.SASMeter(metercode.Code(code))
	return uint64(v), ok
}

// Wager categories of 0xB4 for game 0000, the machine.
const (
	wagerAll    = 0 // every bet: total coin-in
	wagerLinked = 1 // the bets that could win the linked levels (GameStart.Linked)
)

// wagerCategory answers 0xB4 for the machine (game 0000): category 0000 is
// the total coin-in, category 0001 the linked coin-in, what the link
// controller feeds its levels from; any other is a category the machine
// does not have. Amounts are cents (the accounting denomination 0.01), in
// 5 BCD bytes like SAS's other amounts; the payback is the top bet's.
//
// Choice: the cabinet answers game 0000 itself (as 0xA0): the Aristocrat
// client answers zeros there and keeps categories for games 1-n, but the
// linked coin-in is the machine's (only the reel game feeds it). Another
// game number gets no reply; its coin-in is 0x2F's meter 0x00 for that
// game.
func (s *sasPort) wagerCategory(data []byte) sas.Reply {
	game, cat, err := sas.ParseWagerCategoryPoll(data)
	snap := s.meters.Load()
	if err != nil || game != 0 || snap == nil {
		return sas.NoReply()
	}
	w := sas.WagerCategory{Game: game, Category: cat, Payback: "0000"}
	switch cat {
	case wagerAll:
		w.CoinIn = uint64(snap.m[meters.CoinIn])
	case wagerLinked:
		w.CoinIn = uint64(snap.linkedCoinIn)
	}
	if cat == wagerAll || cat == wagerLinked {
		w.Payback, w.Size, w.CoinIn = s.payback, 5, w.CoinIn%10_000_000_000
	}
	out, err := sas.WagerCategoryData(w)
	if err != nil {
		s.log.Error("SAS 0xB4", "err", err)
		return sas.NoReply()
	}
	return sas.ReplyData(out...)
}
