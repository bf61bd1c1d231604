package meters

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/rng"
)

// checkEncodeState fails unless encodeState writes json.Marshal's bytes.
func checkEncodeState(t *testing.T, what string, s *State) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := encodeState(s)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if string(got) != string(want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("%s: encodeState differs from encoding/json at byte %d:\ngot  …%s\nwant …%s", what, i,
			got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
	}
}

// The states of lawful play (reel games with free games, progressives,
// local jackpot contributions and mystery hits, Makccarat hands) encode
// alike both ways, at every point of the play.
func TestEncodeStateIsJSON(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		p := &player{r: rng.NewSeeded(seed), s: NewState(), t: t, limit: 20000}
		if seed%2 == 0 {
			p.openLocal()
		}
		checkEncodeState(t, "a new state", p.s)
		for i := range 1500 {
			p.step()
			if i%7 == 0 {
				checkEncodeState(t, fmt.Sprintf("seed %d step %d", seed, i), p.s)
			}
		}
		checkEncodeState(t, fmt.Sprintf("seed %d at the end", seed), p.s)
	}
}

// Games and events written by hand: every optional field, nil and empty
// slices, and strings encoding/json escapes.
func TestEncodeStateIsJSONForEveryShapeOfGameAndEvent(t *testing.T) {
	full := GameHistory{
		Start: GameStart{At: -5, Game: 1<<64 - 1, Paytable: "p", Digest: "d", Denom: 5, Level: -1, BetCredits: 20, BetCents: 100,
			Stops: []int{0, -3, 1 << 40}, WinCents: 7, FreeAwarded: 2, Progressives: []int{1, 2},
			Contributions: []LevelAmount{{Level: 1, Millicents: 3}, {Level: 9, Millicents: -4}}, Mystery: []int{9}, Linked: true, Kind: "reels"},
		Free: []FreeGame{{At: 1, Game: 1, Index: 1, Stops: []int{1}, WinCents: 2, Awarded: 1, Progressives: []int{3}},
			{At: 2, Game: 1, Index: 2, Stops: nil, WinCents: 0, Awarded: 0, Progressives: []int{}}},
		End: &GameEnd{At: 3, Game: 1, WinCents: 9, Handpay: true},
	}
	games := []GameHistory{
		{},
		full,
		{Start: GameStart{Stops: []int{}, Progressives: []int{}, Contributions: []LevelAmount{}, Mystery: []int{}}, Free: []FreeGame{}},
		{Start: GameStart{Kind: GameMakccarat, Hand: &TableHand{Bets: [TableSpots]int64{20}, Cards: []cards.Card{{Rank: cards.Ace}}}}},
		{Start: GameStart{Game: 4}, End: &GameEnd{}},
	}
	// Each string encoding/json escapes, alone in each string field.
	for _, odd := range []string{"a<b", "a>b", "x&y", `q"uote`, "back\\slash", "tab\there", "nl\n", "ação", "\u2028", "\x7f", "\x00", string([]byte{0xff})} {
		games = append(games, GameHistory{Start: GameStart{Paytable: odd, Digest: "d", Kind: "k"}},
			GameHistory{Start: GameStart{Paytable: "p", Digest: odd}}, GameHistory{Start: GameStart{Paytable: "p", Digest: "d", Kind: odd}})
	}
	for i, g := range games {
		s := NewState()
		s.Games = []GameHistory{g}
		checkEncodeState(t, fmt.Sprintf("game %d alone", i), s)
	}
	events := []Event{
		{},
		{At: -1, Code: EventTilt, Door: "main", Tilt: "door_main", Detail: "d", Who: "w", Role: "r", Action: "a", Key: "k", Value: "v", Cents: -7, Ref: "x"},
		{Code: EventService, Cents: 1 << 62},
	}
	for _, odd := range []string{"a<b", "a>b", "x&y", `q"uote`, "back\\slash", "tab\there", "nl\n", "ação", "\u2028", "\x7f", "\x00", string([]byte{0xff})} {
		events = append(events, Event{Code: odd}, Event{Code: "c", Door: odd}, Event{Code: "c", Tilt: odd}, Event{Code: "c", Detail: odd},
			Event{Code: "c", Who: odd}, Event{Code: "c", Role: odd}, Event{Code: "c", Action: odd}, Event{Code: "c", Key: odd},
			Event{Code: "c", Value: odd}, Event{Code: "c", Ref: odd})
	}
	for i, e := range events {
		s := NewState()
		s.Events = []Event{e}
		checkEncodeState(t, fmt.Sprintf("event %d alone", i), s)
	}
	s := NewState()
	s.Events = events
	checkEncodeState(t, "every event, no game", s)
	s.Games = games
	checkEncodeState(t, "every game and every event", s)
	s.Events = []Event{}
	checkEncodeState(t, "every game, an empty event history", s)
	s.Events = nil
	s.Games = games
	checkEncodeState(t, "every game", s)
	s.Games = []GameHistory{}
	checkEncodeState(t, "an empty history", s)
	s.Games = nil
	s.Bills = []MoneyIn{{Source: SourceBill, Ref: `,"games":null,"events":null,"bills":`}} // a field's text is no place for the histories
	checkEncodeState(t, "no history, its key in a string", s)
	s.Games = []GameHistory{full}
	checkEncodeState(t, "a game, the key in a string", s)
	s.Events = []Event{{Detail: `,"games":null,"events":null,"bills":`}}
	checkEncodeState(t, "a game and an event, the key in strings", s)
}

// appendGame and appendEvents write the fields they know: a field added
// to a game's types or to Event must be added to them (and to this list),
// or a seal would leave it out of the digest and a snapshot out of the
// state.
func TestEncodeHistoryKnowsEveryField(t *testing.T) {
	var got []string
	for _, v := range []any{GameHistory{}, GameStart{}, FreeGame{}, GameEnd{}, LevelAmount{}, Event{}} {
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			f := rt.Field(i)
			got = append(got, fmt.Sprintf("%s.%s %s `%s`", rt.Name(), f.Name, f.Type, f.Tag))
		}
	}
	want := []string{
		"GameHistory.Start meters.GameStart `json:\"start\"`",
		"GameHistory.Free []meters.FreeGame `json:\"free,omitempty\"`",
		"GameHistory.End *meters.GameEnd `json:\"end,omitempty\"`",
		"GameStart.At int64 `json:\"at\"`",
		"GameStart.Game uint64 `json:\"game\"`",
		"GameStart.Paytable string `json:\"paytable\"`",
		"GameStart.Digest string `json:\"digest\"`",
		"GameStart.Denom int64 `json:\"denom\"`",
		"GameStart.Level int `json:\"level\"`",
		"GameStart.BetCredits int64 `json:\"bet_credits\"`",
		"GameStart.BetCents int64 `json:\"bet_cents\"`",
		"GameStart.Stops []int `json:\"stops\"`",
		"GameStart.WinCents int64 `json:\"win_cents\"`",
		"GameStart.FreeAwarded int `json:\"free_awarded\"`",
		"GameStart.Progressives []int `json:\"progressives,omitempty\"`",
		"GameStart.Contributions []meters.LevelAmount `json:\"contributions,omitempty\"`",
		"GameStart.Mystery []int `json:\"mystery,omitempty\"`",
		"GameStart.Linked bool `json:\"linked,omitempty\"`",
		"GameStart.Kind string `json:\"kind,omitempty\"`",
		"GameStart.Hand *meters.TableHand `json:\"hand,omitempty\"`",
		"FreeGame.At int64 `json:\"at\"`",
		"FreeGame.Game uint64 `json:\"game\"`",
		"FreeGame.Index int `json:\"index\"`",
		"FreeGame.Stops []int `json:\"stops\"`",
		"FreeGame.WinCents int64 `json:\"win_cents\"`",
		"FreeGame.Awarded int `json:\"awarded\"`",
		"FreeGame.Progressives []int `json:\"progressives,omitempty\"`",
		"GameEnd.At int64 `json:\"at\"`",
		"GameEnd.Game uint64 `json:\"game\"`",
		"GameEnd.WinCents int64 `json:\"win_cents\"`",
		"GameEnd.Handpay bool `json:\"handpay\"`",
		"LevelAmount.Level int `json:\"level\"`",
		"LevelAmount.Millicents int64 `json:\"millicents\"`",
		"Event.At int64 `json:\"at\"`",
		"Event.Code string `json:\"code\"`",
		"Event.Door string `json:\"door,omitempty\"`",
		"Event.Tilt string `json:\"tilt,omitempty\"`",
		"Event.Detail string `json:\"detail,omitempty\"`",
		"Event.Who string `json:\"who,omitempty\"`",
		"Event.Role string `json:\"role,omitempty\"`",
		"Event.Action string `json:\"action,omitempty\"`",
		"Event.Key string `json:\"key,omitempty\"`",
		"Event.Value string `json:\"value,omitempty\"`",
		"Event.Cents int64 `json:\"cents,omitempty\"`",
		"Event.Ref string `json:\"ref,omitempty\"`",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the games' and events' fields are not the ones appendGame and appendEvents write: update them, then this list:\n%s", strings.Join(got, "\n"))
	}
}

// FuzzEncodeHistory holds encodeState to encoding/json on games and
// events made of arbitrary strings and numbers.
func FuzzEncodeHistory(f *testing.F) {
	f.Add("lusitania-92", "9762272ab15e", "", int64(1), uint64(1), int64(20), 5, true, false)
	f.Add("a<b>&c", "\"\\", "\u2028", int64(-1), uint64(0), int64(0), 0, false, true)
	f.Fuzz(func(t *testing.T, paytable, digest, kind string, at int64, game uint64, cents int64, n int, linked, end bool) {
		n = n % 8
		if n < 0 {
			n = -n
		}
		g := GameHistory{Start: GameStart{At: at, Game: game, Paytable: paytable, Digest: digest, Kind: kind, Denom: cents, Level: n,
			BetCredits: -cents, BetCents: cents, WinCents: at, FreeAwarded: -n, Linked: linked}}
		for i := range n {
			g.Start.Stops = append(g.Start.Stops, i*int(at%1000))
			g.Start.Contributions = append(g.Start.Contributions, LevelAmount{Level: i, Millicents: cents - int64(i)})
			g.Free = append(g.Free, FreeGame{At: at, Game: game, Index: i, Stops: g.Start.Stops[:i], WinCents: cents, Awarded: i, Progressives: g.Start.Stops[:i]})
		}
		if n%3 == 1 {
			g.Start.Progressives, g.Start.Mystery = g.Start.Stops, g.Start.Stops[:n/2]
		}
		if end {
			g.End = &GameEnd{At: at, Game: game, WinCents: cents, Handpay: linked}
		}
		e := Event{At: at, Code: paytable, Door: digest, Tilt: kind, Detail: paytable + kind, Who: digest, Role: kind,
			Action: paytable, Key: kind, Value: digest, Cents: cents, Ref: kind + digest}
		s := NewState()
		s.Games = []GameHistory{g, g}
		s.Events = []Event{e, {Code: kind}}
		checkEncodeState(t, "a fuzzed game and event", s)
	})
}
