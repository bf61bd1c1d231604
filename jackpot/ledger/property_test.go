package ledger

import (
	"fmt"
	"math/big"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/rng"
)

// The property test drives the fold with random streams of readings
// (advancing, repeated, backwards), hits (new, repeated, stale, several at
// once), confirmations (pending, repeated, unknown), mystery awards, funds,
// transfers, rebases, relinks, super batches and superjackpot claims (new,
// repeated, stale, not linked, several in flight per machine) with etcd's
// answers (in any order, repeated, different, without a claim), and checks
// after every record against a model kept apart from the fold:
//
//   - the outcome (accepted, repeat, refused) is the one the model expects,
//     and a refusal changes nothing;
//   - every level's qualifying bets are the sum of the coin-in deltas of
//     the machines feeding it, and its contributions are exactly
//     floor(bets × rate / 1000) + floor(bets × hidden rate / 1000)
//     millicents (carries lose nothing, add nothing);
//   - no (machine, level, game) is awarded twice, a repeat returns the
//     payout made before, and the local awards add up to the levels'
//     Awarded; a repeated claim in flight returns the claim recorded, and
//     the shared level's tally (claims, answered, awarded and confirmed
//     cents) and its claims in flight are the model's;
//   - the identity holds (Report) and every invariant (Check);
//   - folding the accepted records again gives the same state, and so does
//     a real ledger fed the same records in random group commits and
//     reopened on the way.

type propKey struct {
	machine, level string
	game           uint64
}

type propMachine struct {
	levels []string
	read   bool
	coin   int64
	games  uint64
	last   map[string]uint64 // level → last awarded game
	has    map[string]bool
}

type propModel struct {
	machines map[string]*propMachine
	qb       map[string]int64 // level → qualifying bets
	shared   struct {
		fed, unbatched, applied int64
		next, oldest            uint64
		pending                 []Batch
	}
	awarded map[propKey]Payout
	pending map[propKey]bool
	total   int64                  // cents awarded on local levels
	claims  map[propKey]SuperClaim // super claims in flight (not answered)
	super   struct {
		claims, answered, awarded, confirmed, confirmedCents int64
	}
}

type propGen struct {
	t     *testing.T
	r     *rng.RNG
	s     *State
	md    *propModel
	at    int64
	recs  []Record // accepted and changing something, in order
	stats map[string]int
}

func (g *propGen) n(k int) int { return int(g.r.Uint64n(uint64(k))) }

func newPropGen(t *testing.T, seed uint64, machines int) *propGen {
	g := &propGen{t: t, r: rng.NewSeeded(seed), s: NewState(), stats: map[string]int{}}
	g.md = &propModel{machines: map[string]*propMachine{}, qb: map[string]int64{}, awarded: map[propKey]Payout{}, pending: map[propKey]bool{},
		claims: map[propKey]SuperClaim{}}
	g.md.shared.next, g.md.shared.oldest = 1, 1
	for _, r := range setupRecords(machines, 21_00*mc) {
		g.expect(r, "ok")
	}
	return g
}

var paytableLevels = []string{"grand", "major"}

// expect applies r and checks the outcome: "ok", "repeat" or "refused".
func (g *propGen) expect(r Record, want string) Result {
	g.t.Helper()
	var before string
	if want == "refused" {
		before = stateJSON(g.t, g.s)
	}
	res, err := g.s.Apply(r)
	got := "ok"
	switch {
	case err != nil:
		got = "refused"
	case res.Repeat:
		got = "repeat"
	}
	if got != want {
		g.t.Fatalf("record %d %#v: %s (%v), want %s", len(g.recs), r, got, err, want)
	}
	g.stats[fmt.Sprintf("%v %s", r.Type(), got)]++
	if got == "refused" {
		if stateJSON(g.t, g.s) != before {
			g.t.Fatalf("refused %#v changed the state", r)
		}
		return res
	}
	if got == "ok" {
		g.recs = append(g.recs, r)
	}
	g.observe(r, res)
	return res
}

func (g *propGen) observe(r Record, res Result) {
	t, md := g.t, g.md
	switch r := r.(type) {
	case SetupMachine:
		m := md.machines[r.Machine]
		if m == nil {
			m = &propMachine{last: map[string]uint64{}, has: map[string]bool{}}
			md.machines[r.Machine] = m
		}
		m.levels = slices.Clone(r.Levels)
	case Meters:
		m := md.machines[r.Machine]
		if m.read && !res.Repeat {
			d := r.CoinIn - m.coin
			if res.Delta != d {
				t.Fatalf("reading %+v: delta %d, model %d", r, res.Delta, d)
			}
			for _, id := range m.levels {
				if id == "super" {
					md.shared.fed += d
					md.shared.unbatched += d
				} else {
					md.qb[id] += d
				}
			}
			// Each change is the op's exact share: with carries, the
			// contributions after n ops are floor(bets × rate / 1000).
			for _, c := range res.Changes {
				lv := level(t, g.s, c.Level)
				if got, want := c.After.Contributions-c.Before.Contributions,
					exact(c.After.QualifyingBets, lv.Config)-exact(c.Before.QualifyingBets, lv.Config); got != want {
					t.Fatalf("level %s: contribution %d for bets %d → %d, want %d", c.Level, got, c.Before.QualifyingBets, c.After.QualifyingBets, want)
				}
			}
		}
		m.read, m.coin, m.games = true, r.CoinIn, r.GamesPlayed
		for _, c := range res.MysteryHits {
			// Award it now, or later (the level stays frozen meanwhile).
			if g.n(3) > 0 {
				g.expect(Award{At: g.at, Level: c.Level, TargetMC: g.target()}, "ok")
			}
		}
	case Rebase:
		m := md.machines[r.Machine]
		m.read, m.coin, m.games = true, r.CoinIn, r.GamesPlayed
		m.last, m.has = map[string]uint64{}, map[string]bool{}
		for k := range md.awarded {
			if k.machine == r.Machine {
				delete(md.awarded, k) // the game numbers start over
			}
		}
	case Hit, Award:
		for _, p := range res.Payouts {
			k := propKey{p.Machine, p.Level, p.Game}
			if _, dup := md.awarded[k]; dup {
				t.Fatalf("%v awarded twice: %+v", k, p)
			}
			md.awarded[k], md.pending[k] = p, true
			m := md.machines[p.Machine]
			m.last[p.Level], m.has[p.Level] = p.Game, true
			md.total += p.Amount
		}
		for _, p := range res.Repeated {
			if md.awarded[propKey{p.Machine, p.Level, p.Game}] != p {
				t.Fatalf("repeat returned %+v, the award was %+v", p, md.awarded[propKey{p.Machine, p.Level, p.Game}])
			}
		}
	case Confirmed:
		if !res.Repeat {
			k := propKey{r.Machine, r.Level, r.Game}
			if !md.pending[k] {
				t.Fatalf("confirmed %v, which was not pending", k)
			}
			delete(md.pending, k)
			if r.Level == "super" {
				md.super.confirmed++
				md.super.confirmedCents += md.awarded[k].Amount
			}
		}
	case SuperClaim:
		k := propKey{r.Machine, r.Level, r.Game}
		switch {
		case !res.Repeat:
			if res.SuperClaim == nil || *res.SuperClaim != r {
				t.Fatalf("claim %+v recorded as %+v", r, res.SuperClaim)
			}
			md.claims[k] = r
			md.super.claims++
		case res.SuperClaim != nil:
			if c, ok := md.claims[k]; !ok || *res.SuperClaim != c {
				t.Fatalf("claim %+v repeated as %+v, recorded %+v", r, *res.SuperClaim, c)
			}
		default:
			if len(res.Repeated) != 1 || res.Repeated[0] != md.awarded[k] {
				t.Fatalf("claim %+v answered: %+v, the award was %+v", r, res.Repeated, md.awarded[k])
			}
		}
	case SuperClaimed:
		k := propKey{r.Machine, r.Level, r.Game}
		if res.Repeat {
			if len(res.Repeated) != 1 || res.Repeated[0] != md.awarded[k] {
				t.Fatalf("answer %+v repeated: %+v, the award was %+v", r, res.Repeated, md.awarded[k])
			}
			return
		}
		c, ok := md.claims[k]
		if !ok {
			t.Fatalf("answer %+v for no claim in flight", r)
		}
		want := Payout{Machine: r.Machine, Level: r.Level, Game: r.Game, Bet: c.Bet, Claimed: c.Claimed,
			Amount: r.AmountMC / mc, Order: r.Order, At: r.At, Revision: r.Revision}
		if len(res.Payouts) != 1 || res.Payouts[0] != want {
			t.Fatalf("answer %+v paid %+v, want %+v", r, res.Payouts, want)
		}
		if _, dup := md.awarded[k]; dup {
			t.Fatalf("%v awarded twice", k)
		}
		delete(md.claims, k)
		md.awarded[k], md.pending[k] = want, true
		m := md.machines[r.Machine]
		m.last[r.Level], m.has[r.Level] = max(m.last[r.Level], r.Game), true
		md.super.answered++
		md.super.awarded += want.Amount
	case SuperBatch:
		if !res.Repeat {
			md.shared.unbatched -= r.Bet
			md.shared.pending = append(md.shared.pending, *res.Batch)
			md.shared.next++
		}
	case SuperApplied:
		if !res.Repeat {
			md.shared.applied += md.shared.pending[0].Bet
			md.shared.pending = md.shared.pending[1:]
			md.shared.oldest++
		}
	}
}

// exact is a level's contributions for qualifying bets q, computed apart
// from jackpot: floor(q × rate / 1000) + floor(q × hidden / 1000).
func exact(q int64, c jackpot.Config) int64 {
	k := big.NewInt(jackpot.MillicentsPerCent)
	a := new(big.Int).Div(new(big.Int).Mul(big.NewInt(q), big.NewInt(c.Rate)), k)
	b := new(big.Int).Div(new(big.Int).Mul(big.NewInt(q), big.NewInt(c.HiddenRate)), k)
	return a.Add(a, b).Int64()
}

func (g *propGen) target() int64 {
	t, err := jackpot.DrawTarget(miniCfg, g.r)
	if err != nil {
		g.t.Fatal(err)
	}
	return t
}

// verify checks the state against the model.
func (g *propGen) verify() {
	t, s, md := g.t, g.s, g.md
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	rep, err := s.Report()
	if err != nil || !rep.Holds || rep.Check() != nil {
		t.Fatalf("report: %v %v %+v", err, rep.Check(), rep.Total)
	}
	var hits, awarded int64
	for _, id := range s.Levels() {
		lv := level(t, s, id)
		if lv.Meters.QualifyingBets != md.qb[id] {
			t.Fatalf("level %s: qualifying bets %d, model %d", id, lv.Meters.QualifyingBets, md.qb[id])
		}
		if lv.Meters.Contributions != exact(md.qb[id], lv.Config) {
			t.Fatalf("level %s: contributions %d, exact %d", id, lv.Meters.Contributions, exact(md.qb[id], lv.Config))
		}
		hits += lv.Meters.Hits
		awarded += lv.Meters.Awarded
	}
	if awarded != md.total*mc {
		t.Fatalf("levels awarded %d mc, payouts add up to %d cents", awarded, md.total)
	}
	local := 0
	for k := range md.awarded {
		if k.level != "super" {
			local++
		}
	}
	if hits < int64(local) {
		t.Fatalf("%d hits for %d distinct awards", hits, local)
	}
	if len(s.PendingPayouts()) != len(md.pending) {
		t.Fatalf("%d pending, model %d", len(s.PendingPayouts()), len(md.pending))
	}
	byMachine := map[string][]Payout{}
	for _, p := range s.PendingPayouts() {
		byMachine[p.Machine] = append(byMachine[p.Machine], p)
	}
	for _, m := range s.Machines() {
		if got := s.PendingFor(m.ID); !slices.Equal(got, byMachine[m.ID]) {
			t.Fatalf("pending for %s: %+v, the whole list has %+v", m.ID, got, byMachine[m.ID])
		}
	}
	sh, _ := s.SharedLevel("super")
	if sh.Fed != md.shared.fed || sh.Unbatched != md.shared.unbatched || sh.AppliedBet != md.shared.applied || sh.NextSeq() != md.shared.next {
		t.Fatalf("shared %+v, model %+v", sh, md.shared)
	}
	if sh.Claims != md.super.claims || sh.Answered != md.super.answered || sh.AwardedCents != md.super.awarded ||
		sh.ConfirmedAwards != md.super.confirmed || sh.ConfirmedCents != md.super.confirmedCents {
		t.Fatalf("claims tally %+v, model %+v", sh, md.super)
	}
	inFlight := s.PendingSuperClaims()
	if len(inFlight) != len(md.claims) {
		t.Fatalf("%d claims in flight, model %d", len(inFlight), len(md.claims))
	}
	for _, c := range inFlight {
		if md.claims[propKey{c.Machine, c.Level, c.Game}] != c {
			t.Fatalf("claim in flight %+v, model %+v", c, md.claims[propKey{c.Machine, c.Level, c.Game}])
		}
	}
	for id, m := range md.machines {
		sm, _ := s.Machine(id)
		if sm.Read != m.read || sm.CoinIn != m.coin || sm.GamesPlayed != m.games {
			t.Fatalf("machine %s: %+v, model %+v", id, sm, m)
		}
	}
}

func (g *propGen) machine() (string, *propMachine) {
	id := machineID(g.n(len(g.md.machines)))
	return id, g.md.machines[id]
}

func (g *propGen) step() {
	g.at += 1 + int64(g.n(3_000_000_000))
	id, m := g.machine()
	switch k := g.n(112); {
	case k >= 100:
		g.superStep(k-100, id, m)
	case k < 50: // reading
		switch {
		case !m.read:
			g.expect(Meters{At: g.at, Machine: id, CoinIn: int64(g.n(1e6)), GamesPlayed: uint64(g.n(1000))}, "ok")
		case k < 5:
			g.expect(Meters{At: g.at, Machine: id, CoinIn: m.coin, GamesPlayed: m.games}, "repeat")
		case k < 8 && m.coin > 0:
			g.expect(Meters{At: g.at, Machine: id, CoinIn: m.coin - 1 - int64(g.n(int(m.coin))), GamesPlayed: m.games}, "refused")
		default:
			d := int64(g.n(1000))
			if g.n(20) == 0 {
				d = int64(g.n(50_000_000))
			}
			games := m.games + uint64(g.n(5))
			want := "ok"
			if d == 0 && games == m.games {
				want = "repeat"
			}
			g.expect(Meters{At: g.at, Machine: id, CoinIn: m.coin + d, GamesPlayed: games}, want)
		}
	case k < 62: // hit
		lv := paytableLevels[g.n(2)]
		if !slices.Contains(m.levels, lv) {
			g.expect(Hit{At: g.at, Level: lv, Claims: []Claim{{Machine: id, Game: 1, Bet: 100}}}, "refused")
			return
		}
		last, has := m.last[lv], m.has[lv]
		switch {
		case has && k < 55: // the machine says it again
			g.expect(Hit{At: g.at, Level: lv, Claims: []Claim{{Machine: id, Game: last, Bet: 100}}}, "repeat")
		case has && last > 0 && k < 57: // an older game: pending (a repeat) or stale
			want := "refused"
			if g.md.pending[propKey{id, lv, last - 1}] {
				want = "repeat"
			}
			g.expect(Hit{At: g.at, Level: lv, Claims: []Claim{{Machine: id, Game: last - 1, Bet: 100}}}, want)
		case k < 59: // near-simultaneous claims from several machines
			var claims []Claim
			for i := range len(g.md.machines) {
				mid := machineID(i)
				pm := g.md.machines[mid]
				if !slices.Contains(pm.levels, lv) || g.n(2) == 0 {
					continue
				}
				claims = append(claims, Claim{Machine: mid, Game: max(pm.games, pm.last[lv]+1), Bet: 100 + int64(g.n(100))})
			}
			if len(claims) > 0 {
				g.expect(Hit{At: g.at, Level: lv, Claims: claims}, "ok")
			}
		default:
			game := max(m.games, m.last[lv]+1)
			g.expect(Hit{At: g.at, Level: lv, Claims: []Claim{{Machine: id, Game: game, Bet: 100, Claimed: int64(g.n(1e6))}}}, "ok")
		}
	case k < 72: // confirmation
		var keys []propKey
		for key := range g.md.pending {
			keys = append(keys, key)
		}
		slices.SortFunc(keys, func(a, b propKey) int {
			return cmpKey(a, b)
		})
		switch {
		case len(keys) > 0 && k < 69:
			key := keys[g.n(len(keys))]
			g.expect(Confirmed{At: g.at, Machine: key.machine, Level: key.level, Game: key.game}, "ok")
		case k < 70:
			for key, p := range g.md.awarded {
				if !g.md.pending[key] {
					g.expect(Confirmed{At: g.at, Machine: key.machine, Level: key.level, Game: p.Game}, "repeat")
					break
				}
			}
		default:
			g.expect(Confirmed{At: g.at, Machine: id, Level: "grand", Game: m.last["grand"] + 1}, "refused")
		}
	case k < 75: // a mystery hit left waiting
		if len(g.s.PendingMystery()) > 0 {
			g.expect(Award{At: g.at, Level: "mini", TargetMC: g.target()}, "ok")
		} else {
			g.expect(Award{At: g.at, Level: "mini", TargetMC: g.target()}, "refused")
		}
	case k < 77:
		g.expect(Fund{At: g.at, Level: paytableLevels[g.n(2)], AmountMC: int64(1+g.n(100_000)) * mc, Who: "fm", Why: "seed"}, "ok")
	case k < 79:
		from := paytableLevels[g.n(2)]
		to := "grand"
		if from == "grand" {
			to = "major"
		}
		lv := level(g.t, g.s, from)
		amount := int64(g.n(int(lv.Meters.Reserve + 1)))
		want := "ok"
		if amount == 0 {
			want = "refused" // nothing to transfer
		}
		g.expect(Transfer{At: g.at, From: from, To: to, ReserveMC: amount, Who: "fm", Why: "rule 6"}, want)
	case k < 80: // relink
		lv := []string{"grand", "major", "mini", "super"}
		for i := len(lv) - 1; i > 0; i-- {
			j := g.n(i + 1)
			lv[i], lv[j] = lv[j], lv[i]
		}
		g.expect(SetupMachine{At: g.at, Machine: id, SAS: 1 + g.n(MaxSAS), Levels: lv[:1+g.n(4)], Who: "tech"}, "ok")
	case k < 81: // RAM clear
		want := "ok"
		for key := range g.md.pending {
			if key.machine == id {
				want = "refused"
			}
		}
		for _, c := range g.s.PendingMystery() {
			if c.Where == id {
				want = "refused"
			}
		}
		for key := range g.md.claims {
			if key.machine == id {
				want = "refused"
			}
		}
		g.expect(Rebase{At: g.at, Machine: id, CoinIn: int64(g.n(100)), Who: "tech", Why: "RAM clear"}, want)
	case k < 90: // super batch
		sh := &g.md.shared
		switch {
		case k < 86 && sh.unbatched > 0:
			g.expect(SuperBatch{At: g.at, Level: "super", Seq: sh.next, Bet: 1 + int64(g.n(int(sh.unbatched)))}, "ok")
		case k < 87 && len(sh.pending) > 0:
			b := sh.pending[len(sh.pending)-1]
			g.expect(SuperBatch{At: g.at, Level: "super", Seq: b.Seq, Bet: b.Bet}, "repeat")
		case k < 88:
			g.expect(SuperBatch{At: g.at, Level: "super", Seq: sh.next + 1, Bet: 1}, "refused")
		default:
			g.expect(SuperBatch{At: g.at, Level: "super", Seq: sh.next, Bet: sh.unbatched + 1}, "refused")
		}
	default: // etcd's answers
		sh := &g.md.shared
		switch {
		case len(sh.pending) > 0 && k < 97:
			g.expect(SuperApplied{At: g.at, Level: "super", Seq: sh.pending[0].Seq, ContributionMC: int64(g.n(1e6))}, "ok")
		case sh.oldest > 1 && k < 98:
			g.expect(SuperApplied{At: g.at, Level: "super", Seq: sh.oldest - 1}, "repeat")
		default:
			g.expect(SuperApplied{At: g.at, Level: "super", Seq: sh.oldest + uint64(len(sh.pending))}, "refused")
		}
	}
}

// superStep is a superjackpot claim of machine id, or etcd's answer to one.
func (g *propGen) superStep(k int, id string, m *propMachine) {
	md := g.md
	linked := slices.Contains(m.levels, "super")
	var mine, all []propKey // claims in flight: this machine's, everyone's
	for key := range md.claims {
		all = append(all, key)
		if key.machine == id {
			mine = append(mine, key)
		}
	}
	slices.SortFunc(all, cmpKey)
	slices.SortFunc(mine, cmpKey)
	switch {
	case k < 4: // a new hit
		game := max(m.games, m.last["super"]+1)
		if len(mine) > 0 {
			game = max(game, mine[len(mine)-1].game+1)
		}
		game += uint64(g.n(3))
		c := SuperClaim{At: g.at, Level: "super", Machine: id, Game: game, Bet: int64(g.n(500)), Claimed: int64(g.n(1e6))}
		if g.n(2) == 0 {
			c.NextTargetMC = g.target()
		}
		want := "ok"
		if !linked {
			want = "refused"
		}
		g.expect(c, want)
	case k < 5 && len(mine) > 0: // the same hit again, or a restart: the claim recorded
		c := md.claims[mine[g.n(len(mine))]]
		c.At, c.Bet, c.NextTargetMC = g.at, c.Bet+1, c.NextTargetMC+mc
		want := "repeat"
		if !linked {
			want = "refused" // as a local hit: the link is checked first
		}
		g.expect(c, want)
	case k < 8 && len(all) > 0: // etcd answers a claim in flight, any of them
		key := all[g.n(len(all))]
		g.expect(SuperClaimed{At: g.at, Level: "super", Machine: key.machine, Game: key.game,
			AmountMC: int64(g.n(1e7)) * mc, Order: 1 + int64(g.n(1e4)), Revision: 1 + int64(g.n(1e9))}, "ok")
	case k < 9: // the answer again: the same (a repeat) or another (refused)
		var keys []propKey
		for key := range md.awarded {
			if key.level == "super" && (md.pending[key] || md.machines[key.machine].last["super"] == key.game) {
				keys = append(keys, key)
			}
		}
		if len(keys) == 0 {
			return
		}
		slices.SortFunc(keys, cmpKey)
		key := keys[g.n(len(keys))]
		p := md.awarded[key]
		a := SuperClaimed{At: g.at, Level: "super", Machine: key.machine, Game: key.game, AmountMC: p.Amount * mc, Order: p.Order, Revision: p.Revision}
		want := "repeat"
		switch g.n(4) {
		case 1:
			a.AmountMC, want = a.AmountMC+mc, "refused"
		case 2:
			a.Revision, want = a.Revision+1, "refused"
		case 3:
			a.Order, want = a.Order+1, "refused"
		}
		g.expect(a, want)
	case k < 10: // an answer to nothing sent
		game := max(m.games, m.last["super"]) + 1000 + uint64(g.n(1000))
		if len(mine) > 0 {
			game += mine[len(mine)-1].game
		}
		g.expect(SuperClaimed{At: g.at, Level: "super", Machine: id, Game: game, AmountMC: mc, Order: 1, Revision: 1}, "refused")
	case k < 11 && m.has["super"] && m.last["super"] > 0: // an older game
		key := propKey{id, "super", m.last["super"] - 1}
		want := "refused"
		if _, ok := md.claims[key]; ok || md.pending[key] {
			want = "repeat"
		}
		if !linked {
			want = "refused"
		}
		g.expect(SuperClaim{At: g.at, Level: "super", Machine: id, Game: key.game, Bet: 1}, want)
	default: // not a shared level
		g.expect(SuperClaim{At: g.at, Level: paytableLevels[g.n(2)], Machine: id, Game: m.games, Bet: 100}, "refused")
	}
}

func cmpKey(a, b propKey) int {
	switch {
	case a.machine != b.machine:
		return cmpStr(a.machine, b.machine)
	case a.level != b.level:
		return cmpStr(a.level, b.level)
	case a.game < b.game:
		return -1
	case a.game > b.game:
		return 1
	}
	return 0
}

func cmpStr(a, b string) int {
	if a < b {
		return -1
	}
	return 1
}

func TestPropertyRandomStreams(t *testing.T) {
	steps := 3000
	if testing.Short() {
		steps = 800
	}
	seeds := uint64(4)
	if v, err := strconv.ParseUint(os.Getenv("LEDGER_SEEDS"), 10, 64); err == nil && v > 0 {
		seeds = v // make soak runs more streams
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			g := newPropGen(t, seed, 6)
			for range steps {
				g.step()
				g.verify()
			}
			// Replaying the accepted records gives the same state.
			s := NewState()
			for _, r := range g.recs {
				data, err := Encode(r)
				if err != nil {
					t.Fatal(err)
				}
				dec, err := Decode(r.Type(), data)
				if err != nil || len(dec) != 1 {
					t.Fatalf("decode %s: %v", data, err)
				}
				if _, err := s.Apply(dec[0]); err != nil {
					t.Fatalf("replay: %v", err)
				}
			}
			if stateJSON(t, s) != stateJSON(t, g.s) {
				t.Fatal("replay differs from the live fold")
			}
			t.Logf("%d records, %d awards; %v", len(g.recs), len(g.md.awarded), g.stats)
		})
	}
}

// The same streams through a real ledger: random group commits, a reopen
// every few hundred records (from a snapshot or not), the same state.
func TestPropertyLedgerEqualsFold(t *testing.T) {
	g := newPropGen(t, 99, 6)
	for range 1500 {
		g.step()
	}
	dir := t.TempDir()
	opts := Options{UnsafeNoSync: true, SnapshotEvery: 97, CheckpointEvery: 50, SegmentSize: 16 << 10}
	l, _ := mustOpen(t, dir, opts)
	for i := 0; i < len(g.recs); {
		n := 1 + g.n(20)
		if i+n > len(g.recs) {
			n = len(g.recs) - i
		}
		res, err := l.CommitBatch(g.recs[i : i+n]...)
		if err != nil {
			t.Fatalf("records %d..%d: %v", i, i+n, err)
		}
		for _, r := range res {
			if r.Repeat || r.Seq == 0 {
				t.Fatalf("record logged as a repeat: %+v", r)
			}
		}
		i += n
		if g.n(10) == 0 {
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			l, _ = mustOpen(t, dir, opts)
		}
	}
	if stateJSON(t, l.State()) != stateJSON(t, g.s) {
		t.Fatal("ledger differs from the fold")
	}
	l.Close()
	v, err := Verify(dir, testPub(t))
	if err != nil || !v.OK || stateJSON(t, v.State) != stateJSON(t, g.s) {
		t.Fatalf("verify: %v %+v", err, v)
	}
}
