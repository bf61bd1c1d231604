package link

import (
	"context"
	"errors"
	"fmt"
	"github.com/openegm/cabinet/jackpot"
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
	topBet    int64  // cents, from 0x1F; 0 until read
	reported  bool   // the cabinet reported hits at the last look
	// identified: the cabinet reported the configured serial since the
	// line was opened and has answered every poll since; wrong: another
	// machine answered, to be asked again at recheck.
	identified bool
	wrong      bool
	recheck    time.Time
	// recovered: the first look on the line just opened was made (see
	// recover).
	recovered bool
	// backAlarm: the cabinet's meters went back and the alarm is recorded;
	// it is not recorded again until a reading is taken. backSince: when
	// they were first seen back (an alarm waits a little for the RAM
	// clear's exception, which may come after the meters).
	// ramCleared: the cabinet reported a RAM clear (SAS 0x3A), so its
	// meters going back is the RAM clear, rebased, not an alarm.
	backAlarm  bool
	backSince  time.Time
	ramCleared bool
	// batch holds the line's readings of the round; pending names this
	// cabinet's last reading while it is not durable (waiting, or
	// refused), 0 once it is.
	batch   *readings
	pending uint64
}

// backGrace is how long meters seen back wait for the RAM clear's
// exception before they are an alarm.
const backGrace = 3 * time.Second

// errWrongMachine is a step refused because another machine answers.
var errWrongMachine = errors.New("another machine answers at the cabinet's address")

// recheckWrong is how often a line with the wrong machine is asked again.
const recheckWrong = 2 * time.Second

// identify reads the serial number of the machine at the cabinet's address
// (0x54) unless it was read since the line was opened and the machine has
// answered since. Another serial marks the session wrong: the controller
// neither broadcasts on the line nor reads, claims or awards there, and
// records the fact once in its ledger.
func (s *session) identify(now time.Time) error {
	if s.cab.Serial == "" || s.identified {
		return nil
	}
	if s.wrong && now.Before(s.recheck) {
		return errWrongMachine
	}
	info, err := s.cl.SASInfo()
	if err != nil {
		return err
	}
	if info.Serial != s.cab.Serial {
		s.recheck = now.Add(recheckWrong)
		if !s.wrong {
			s.wrong = true
			detail := fmt.Sprintf("cabinet %s (address %d) should report serial %q, the machine there reports %q; nothing broadcast, read or awarded on its line",
				s.cab.ID, s.cab.Addr, s.cab.Serial, info.Serial)
			s.c.log.Error("another machine on the line", "cabinet", s.cab.ID, "expected", s.cab.Serial, "found", info.Serial)
			s.c.ledger.Commit(ledger.Event{At: now.UnixNano(), Code: ledger.EventIdentity, Detail: detail})
		}
		return errWrongMachine
	}
	if s.wrong {
		s.c.log.Info("the configured machine is back on the line", "cabinet", s.cab.ID, "serial", info.Serial)
	}
	s.wrong, s.identified = false, true
	return nil
}

// sasDenomCents are SAS denomination codes in cents (the common ones).
var sasDenomCents = map[byte]int64{0x01: 1, 0x02: 5, 0x03: 10, 0x04: 25, 0x05: 50, 0x06: 100, 0x07: 500, 0x08: 1000,
	0x09: 2000, 0x0A: 10000, 0x0B: 20, 0x0C: 200, 0x0D: 250, 0x0E: 2500, 0x0F: 5000, 0x12: 2, 0x13: 3}

// step polls the cabinet once and, when it has hits to report or awards
// to be told, looks at them.
//
// A hit is identified by cabinet, level and game, and the game comes from
// the games-played meter: a cabinet plays no game while a hit is pending,
// so that meter, read just before the hits (0x87) and again just after,
// and equal both times, is their game. A look during which the meter moved
// is dropped and made again at the next step (the cabinet reports its hits
// until they are paid): only a verified look claims hits, sends an
// addressed-mode cabinet its amounts, or confirms a payment.
//
// A broadcast-mode cabinet (standard SAS) pays its hits the value it
// reported once the controller has received the report and moved on
// again: the reading after the hits is the receipt, the poll after it
// starts the payment. Their claim is therefore recorded at once, with the
// game read just before (a game that starts and ends with a hit within the
// few milliseconds between the two polls would defeat that; the reading
// after says so, and reconcile shows it), so that a controller that dies
// at any moment of the look has the claim or leaves the hits unpaid.
func (s *session) step(ctx context.Context) error {
	err := s.look()
	if err != nil && !errors.Is(err, errWrongMachine) {
		s.identified = false // whoever answers next is asked who it is
	}
	return err
}

func (s *session) look() error {
	if err := s.identify(s.c.now()); err != nil {
		return err
	}
	if !s.recovered && s.cab.broadcast() {
		if err := s.recover(); err != nil {
			return err
		}
		s.recovered = true
	}
	g, err := s.cl.GeneralPoll()
	if err != nil {
		return err
	}
	if g.Exception == sas.ExcMemoryReset {
		s.ramCleared = true
	}
	now := s.c.now()
	pending := s.payouts()
	look := g.Exception == sas.ExcProgressiveLevelHit || s.reported || len(pending) > 0
	if look || !now.Before(s.nextMeter) {
		if err := s.readMeters(now); err != nil {
			return err
		}
		s.nextMeter = nextReading(s.nextMeter, now, s.c.cfg.MeterEvery())
		look = true
	}
	if !look {
		return nil
	}
	if err := s.machineInfo(); err != nil {
		return err // a claim needs the bet: look when it is known
	}
	wins, err := s.cl.ProgressiveWins()
	if err != nil {
		return err
	}
	s.reported = len(wins.Wins) > 0
	if !s.reported && len(pending) == 0 {
		return nil
	}
	// The claim names the game of the reading just taken, and the
	// cabinet's records keep their order in the ledger: the round's
	// readings are made durable now rather than at the round's end.
	if err := s.batch.flush(); err != nil {
		return err
	}
	if s.pending != 0 {
		return errNotRecorded
	}
	before := s.games
	paid := s.reported && s.cab.broadcast()
	if paid {
		// Recorded before the next poll, which starts their release: a
		// controller that dies after it, and whose successor's first poll
		// would end it, has them in its ledger already.
		s.claim(wins, before, now)
	}
	game, err := s.gamesPlayed()
	if err != nil {
		return err
	}
	if game != before {
		if paid {
			s.c.log.Error("games played moved while the hits were read: a game started and won in between, and the claim names the game before it; reconcile will show it",
				"cabinet", s.cab.ID, "claimed_game", before, "games_played", game)
		} else {
			s.c.log.Debug("games played moved while the hits were read; read again", "cabinet", s.cab.ID, "before", before, "after", game)
		}
		return nil
	}
	if s.reported && !paid {
		s.claim(wins, game, now)
	}
	return s.confirm(wins, game, pending, now)
}

// recover is the first look at a broadcast-mode cabinet on a line just
// opened: its hits first (0x87), then its games played. A controller that
// died in the middle of a look left the cabinet with hits read and not yet
// released, which the next polls release, whoever sends them; this look
// sees them in its first reply, reads their game in its second (the
// cabinet still holds them while it answers it) and records them before
// anything else.
func (s *session) recover() error {
	now := s.c.now()
	wins, err := s.cl.ProgressiveWins()
	if err != nil {
		return err
	}
	game, err := s.gamesPlayed()
	if err != nil || len(wins.Wins) == 0 {
		return err
	}
	if err := s.machineInfo(); err != nil {
		return err
	}
	s.claim(wins, game, now)
	return nil
}

// payouts are this cabinet's awards recorded and not yet confirmed paid.
func (s *session) payouts() []ledger.Payout {
	var out []ledger.Payout
	s.c.ledger.View(func(st *ledger.State) { out = st.PendingFor(s.cab.ID) })
	return out
}

// readMeters reads the cabinet's coin-in and games-played meters into the
// line's batch: once committed, the ledger contributes the coin-in delta
// to the cabinet's levels. The coin-in
// is the linked coin-in (0xB4 wager category 1) unless the cabinet is
// configured with the total coin-in meter.
func (s *session) readMeters(now time.Time) error {
	codes := []sas.MeterCode{sas.MeterGamesPlayed}
	if s.cab.CoinIn == CoinInTotal {
		codes = append(codes, sas.MeterTotalCoinIn)
	}
	ms, err := s.cl.SelectedMeters(0, codes, false)
	if err != nil {
		return err
	}
	var coinIn, games, coinMod, gamesMod uint64
	found := 0
	for _, m := range ms {
		switch m.Code {
		case sas.MeterTotalCoinIn:
			coinIn, coinMod, found = m.Value, modulus(m.Size), found+1
		case sas.MeterGamesPlayed:
			games, gamesMod, found = m.Value, modulus(m.Size), found+1
		}
	}
	if found != len(codes) {
		return errMeters
	}
	if s.cab.CoinIn != CoinInTotal {
		w, err := s.cl.WagerCategory(0, 1)
		if err != nil {
			return err
		}
		if w.Size == 0 {
			return fmt.Errorf("cabinet %s has no wager category 1 (linked coin-in): configure \"coin_in\": %q for it", s.cab.ID, CoinInTotal)
		}
		coinIn, coinMod = w.CoinIn, modulus(w.Size)
	}
	// The cabinet's meters are BCD fields that roll over at their width
	// (SAS): the ledger keeps the whole count, unwrapped here. A meter that
	// goes back otherwise (a RAM clear, or the cabinet's data rolled back)
	// is an alarm, recorded once, and no contribution is taken from the
	// cabinet until an operator rebases it.
	var last ledger.Machine
	var unwrappedCoin, unwrappedGames uint64
	var okCoin, okGames bool
	compare := func() {
		s.c.ledger.View(func(st *ledger.State) { last, _ = st.Machine(s.cab.ID) })
		unwrappedCoin, okCoin = unwrap(last.Read, uint64(last.CoinIn), coinIn, coinMod, uint64(jackpot.MaxBet))
		unwrappedGames, okGames = unwrap(last.Read, last.GamesPlayed, games, gamesMod, maxGamesBetweenReadings)
	}
	compare()
	if (!okCoin || !okGames) && s.pending != 0 {
		// The last reading may still be on its way to the ledger: a
		// rebase or an alarm is decided on it durable, and a rebase must
		// not land before it.
		if err := s.batch.flush(); err != nil {
			return err
		}
		compare()
	}
	if !okCoin || !okGames {
		if s.ramCleared {
			// A RAM clear the cabinet reported: the new baseline, recorded.
			_, err := s.c.ledger.Commit(ledger.Rebase{At: now.UnixNano(), Machine: s.cab.ID, CoinIn: int64(coinIn), GamesPlayed: games,
				Who: "cabinet " + s.cab.ID, Why: "RAM clear reported by the cabinet (SAS exception 0x3A)"})
			if err != nil {
				s.c.log.Error("rebase after the cabinet's RAM clear refused", "cabinet", s.cab.ID, "err", err)
				return err
			}
			s.ramCleared, s.backSince, s.backAlarm = false, time.Time{}, false
			s.c.log.Info("cabinet RAM-cleared: meters rebased", "cabinet", s.cab.ID, "coin_in", coinIn, "games", games)
			return nil
		}
		if s.backSince.IsZero() {
			s.backSince = now
		}
		if !s.backAlarm && now.Sub(s.backSince) >= backGrace {
			detail := fmt.Sprintf("cabinet %s: meters went back (coin-in %d after %d, games played %d after %d): a RAM clear, or the cabinet's data rolled back; no contribution until an operator rebases it",
				s.cab.ID, coinIn, last.CoinIn, games, last.GamesPlayed)
			if _, err := s.c.ledger.Commit(ledger.Event{At: now.UnixNano(), Code: ledger.EventMeterBack, Detail: detail}); err == nil {
				s.backAlarm = true
			}
			s.c.log.Error("ALARM: a cabinet's meters went back", "cabinet", s.cab.ID, "detail", detail)
		}
		return errMeterBack
	}
	s.backAlarm, s.backSince, s.ramCleared = false, time.Time{}, false
	coinIn, games = unwrappedCoin, unwrappedGames
	s.batch.add(s, ledger.Meters{At: now.UnixNano(), Machine: s.cab.ID, CoinIn: int64(coinIn), GamesPlayed: games})
	return nil
}

var errNotRecorded = errors.New("the cabinet's reading was not recorded")

// nextReading is when a cabinet is read next after a reading at now that
// was due at due. A reading taken a round late keeps its schedule, or every
// period would stretch by a round's length: at 1,000 cabinets that took a
// fifth of the readings due (issue 26). One late by a whole period or more
// (a stalled line) starts a new schedule rather than catching up in a
// burst, and one taken early (a look at a hit) leaves the schedule as it
// was.
func nextReading(due, now time.Time, every time.Duration) time.Time {
	switch {
	case now.Before(due):
		return due
	case now.Sub(due) < every:
		return due.Add(every)
	}
	return now.Add(every)
}

// maxGamesBetweenReadings bounds the games a cabinet can play between two
// readings: what a games meter that went "down" may have rolled over by.
const maxGamesBetweenReadings = 1_000_000

var errMeterBack = errors.New("the cabinet's meters went back")

// modulus is where a BCD meter of size bytes rolls over (0: no limit known).
func modulus(size int) uint64 {
	if size <= 0 || size > 9 {
		return 0
	}
	m := uint64(1)
	for range 2 * size {
		m *= 10
	}
	return m
}

// unwrap gives the whole count of a meter read as raw (mod mod), after a
// last whole count: raw itself on the first reading; else the count at or
// above last that raw is, when it lies within limit of last (a rollover
// included). ok is false when the meter went back.
func unwrap(read bool, last, raw, mod, limit uint64) (uint64, bool) {
	if !read {
		return raw, true
	}
	if mod == 0 {
		return raw, raw >= last
	}
	base := last - last%mod
	u := base + raw
	if u < last {
		u += mod // rolled over since the last reading
	}
	return u, u-last <= limit
}

// gamesPlayed reads the games-played meter alone, in one poll: the reading
// that follows the hits' read (a broadcast-mode cabinet releases its hits
// at the poll after it, once their claim is recorded).
func (s *session) gamesPlayed() (uint64, error) {
	ms, err := s.cl.SelectedMeters(0, []sas.MeterCode{sas.MeterGamesPlayed}, false)
	if err != nil {
		return 0, err
	}
	if len(ms) != 1 || ms[0].Code != sas.MeterGamesPlayed {
		return 0, errMeters
	}
	return ms[0].Value, nil
}

// machineInfo reads the cabinet's top bet (0x1F) once.
func (s *session) machineInfo() error {
	if s.topBet != 0 {
		return nil
	}
	mi, err := s.cl.MachineInfo()
	if err != nil {
		return err
	}
	s.topBet = max(1, int64(mi.MaxBet)) * max(1, sasDenomCents[mi.Denomination])
	return nil
}

// claim records the cabinet's reported hits, identified by cabinet, level
// and game. An addressed-mode cabinet's go to the collector (the level's
// second-hit rule orders near-simultaneous ones); a broadcast-mode
// cabinet's are paid at the cabinet already and are recorded at once.
func (s *session) claim(wins sas.ProgressiveWins, game uint64, now time.Time) {
	for _, w := range wins.Wins {
		lv, ok := s.c.cfg.levelBySAS(int(w.Level))
		if !ok || wins.Group != byte(s.c.cfg.Group) {
			s.c.log.Error("hit on a level this controller does not run", "cabinet", s.cab.ID, "group", wins.Group, "level", w.Level)
			continue
		}
		hc := hitClaim{level: lv.ID, at: now, claim: ledger.Claim{Machine: s.cab.ID, Game: game, Bet: s.topBet, Claimed: int64(w.Amount),
			Paid: s.cab.broadcast()}}
		if hc.claim.Paid {
			s.c.recordPaid(hc)
			continue
		}
		select {
		case s.c.hits <- hc:
		default:
			s.c.log.Warn("hit collector busy; the claim is read again next time", "cabinet", s.cab.ID)
		}
	}
}

// confirm tells an addressed-mode cabinet the amount of each award
// recorded for it, by an addressed single-level broadcast, for as long as
// it reports that very hit (same level, and the game just verified); once
// it no longer reports it (or reports a later game on the level), it has
// paid it and the ledger records the confirmation. A broadcast-mode
// cabinet is told nothing: it pays when its report is received.
func (s *session) confirm(wins sas.ProgressiveWins, game uint64, pending []ledger.Payout, now time.Time) error {
	for _, p := range pending {
		lv := slices.IndexFunc(s.c.cfg.Levels, func(l Level) bool { return l.ID == p.Level })
		if lv < 0 {
			continue
		}
		n := byte(s.c.cfg.Levels[lv].SAS)
		reported := slices.ContainsFunc(wins.Wins, func(w sas.LevelValue) bool { return w.Level == n })
		switch {
		case reported && game == p.Game:
			if s.cab.broadcast() {
				continue
			}
			if err := s.cl.Broadcast(byte(s.c.cfg.Group), []sas.LevelValue{{Level: n, Amount: uint64(p.Amount)}}, false); err != nil {
				return err
			}
			continue
		case reported && game < p.Game:
			s.c.log.Error("an award for a game the cabinet has not reached; not sent", "cabinet", s.cab.ID, "level", p.Level,
				"award_game", p.Game, "games_played", game)
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
