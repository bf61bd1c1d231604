package link

import (
	"context"
	"slices"
	"time"

	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// session is the controller's conversation with one cabinet. It runs on
// its channel's goroutine only.
type session struct {
	c         *Controller
	cab       Cabinet
	cl        *host.Client
	nextMeter time.Time
	games     uint64 // games played at the last reading
	read      bool   // games is from this step
	topBet    int64  // cents, from 0x1F; 0 until read
	reported  bool   // the cabinet reported hits at the last look
}

// sasDenomCents are SAS denomination codes in cents (the common ones).
var sasDenomCents = map[byte]int64{0x01: 1, 0x02: 5, 0x03: 10, 0x04: 25, 0x05: 50, 0x06: 100, 0x07: 500, 0x08: 1000,
	0x09: 2000, 0x0A: 10000, 0x0B: 20, 0x0C: 200, 0x0D: 250, 0x0E: 2500, 0x0F: 5000, 0x12: 2, 0x13: 3}

func (s *session) step(ctx context.Context) error {
	g, err := s.cl.GeneralPoll()
	if err != nil {
		return err
	}
	now := s.c.now()
	pending := s.payouts()
	hit := g.Exception == sas.ExcProgressiveLevelHit
	look := hit || s.reported || len(pending) > 0
	s.read = false
	if look || !now.Before(s.nextMeter) {
		if err := s.readMeters(now); err != nil {
			return err
		}
		s.nextMeter = now.Add(s.c.cfg.MeterEvery())
		look = true
	}
	if !look {
		return nil
	}
	wins, err := s.cl.ProgressiveWins()
	if err != nil {
		return err
	}
	s.reported = len(wins.Wins) > 0
	if s.reported && s.read {
		s.claim(wins, now)
	}
	return s.confirm(wins, pending, now)
}

// payouts are this cabinet's awards recorded and not yet confirmed paid.
func (s *session) payouts() []ledger.Payout {
	var out []ledger.Payout
	s.c.ledger.View(func(st *ledger.State) {
		for _, p := range st.PendingPayouts() {
			if p.Machine == s.cab.ID {
				out = append(out, p)
			}
		}
	})
	return out
}

// readMeters commits the cabinet's coin-in and games-played meters: the
// ledger contributes the coin-in delta to the cabinet's levels.
func (s *session) readMeters(now time.Time) error {
	ms, err := s.cl.SelectedMeters(0, []sas.MeterCode{sas.MeterTotalCoinIn, sas.MeterGamesPlayed}, false)
	if err != nil {
		return err
	}
	var coinIn, games uint64
	found := 0
	for _, m := range ms {
		switch m.Code {
		case sas.MeterTotalCoinIn:
			coinIn, found = m.Value, found+1
		case sas.MeterGamesPlayed:
			games, found = m.Value, found+1
		}
	}
	if found != 2 {
		return errMeters
	}
	res, err := s.c.ledger.Commit(ledger.Meters{At: now.UnixNano(), Machine: s.cab.ID, CoinIn: int64(coinIn), GamesPlayed: games})
	if err != nil {
		s.c.log.Error("reading refused", "cabinet", s.cab.ID, "coin_in", coinIn, "games", games, "err", err)
		return err
	}
	if !res.Repeat {
		s.c.count(func(st *Stats) { st.Readings++ })
	}
	s.games, s.read = games, true
	return nil
}

// claim hands the cabinet's reported hits to the collector, identified by
// cabinet, level and the games played just read.
func (s *session) claim(wins sas.ProgressiveWins, now time.Time) {
	if s.topBet == 0 {
		if mi, err := s.cl.MachineInfo(); err == nil {
			s.topBet = max(1, int64(mi.MaxBet)) * max(1, sasDenomCents[mi.Denomination])
		} else {
			return
		}
	}
	for _, w := range wins.Wins {
		lv, ok := s.c.cfg.levelBySAS(int(w.Level))
		if !ok || wins.Group != byte(s.c.cfg.Group) {
			s.c.log.Error("hit on a level this controller does not run", "cabinet", s.cab.ID, "group", wins.Group, "level", w.Level)
			continue
		}
		hc := hitClaim{level: lv.ID, at: now, claim: ledger.Claim{Machine: s.cab.ID, Game: s.games, Bet: s.topBet, Claimed: int64(w.Amount)}}
		select {
		case s.c.hits <- hc:
		default:
			s.c.log.Warn("hit collector busy; the claim is read again next time", "cabinet", s.cab.ID)
		}
	}
}

// confirm tells the cabinet the amount of each award recorded for it, by
// an addressed single-level broadcast, for as long as it reports the hit;
// once it no longer does, it has committed the payment and the ledger
// records the confirmation.
func (s *session) confirm(wins sas.ProgressiveWins, pending []ledger.Payout, now time.Time) error {
	for _, p := range pending {
		lv := slices.IndexFunc(s.c.cfg.Levels, func(l Level) bool { return l.ID == p.Level })
		if lv < 0 {
			continue
		}
		n := byte(s.c.cfg.Levels[lv].SAS)
		if slices.ContainsFunc(wins.Wins, func(w sas.LevelValue) bool { return w.Level == n }) {
			if err := s.cl.Broadcast(byte(s.c.cfg.Group), []sas.LevelValue{{Level: n, Amount: uint64(p.Amount)}}, false); err != nil {
				return err
			}
			continue
		}
		res, err := s.c.ledger.Commit(ledger.Confirmed{At: now.UnixNano(), Machine: p.Machine, Level: p.Level, Game: p.Game})
		if err != nil {
			s.c.log.Error("confirmation refused", "cabinet", s.cab.ID, "level", p.Level, "game", p.Game, "err", err)
			return err
		}
		if !res.Repeat {
			s.c.count(func(st *Stats) { st.Confirmed++ })
			s.c.log.Info("award paid by the cabinet", "cabinet", s.cab.ID, "level", p.Level, "game", p.Game, "cents", p.Amount)
		}
	}
	return nil
}
