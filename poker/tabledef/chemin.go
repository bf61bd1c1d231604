package tabledef

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
)

// Chemin is the game value of a chemin de fer (banca francesa) table
// definition (Portaria 817/2005, Title II, Section I;
// spec/chemin.md): a player holds the bank against the others
// and the house earns the cagnotte on what the banker wins.
const Chemin Game = "chemin_de_fer"

// Bounds of a chemin de fer definition.
const (
	CheminMinPlayers  = 4    // rule 16: at least 4 seated players for a partida
	CheminMaxSeats    = 12   // the seats around a chemin de fer table
	CheminMaxDecks    = 8    // the sabot; 6 is the standard practice
	CheminMaxCagnotte = 1000 // basis points: 10% of the banker's winnings at most
)

// Rounding is how the cagnotte on a banker's winnings is brought to a whole
// cent: the engine's (one definition of the rule for the table and its
// card).
type Rounding = chemin.Rounding

// The roundings a definition may state.
const (
	RoundDown   = chemin.RoundDown   // to the cent below: the banker keeps the fraction
	RoundHalfUp = chemin.RoundHalfUp // to the nearest cent, half a cent up
	RoundUp     = chemin.RoundUp     // to the cent above: the house keeps the fraction
)

var roundings = []Rounding{RoundDown, RoundHalfUp, RoundUp}

// CheminConfig is a chemin de fer table as its definition sets it. The
// engine (poker/chemin) takes these figures (Rules; NewEngine deals
// them); its exact figures are parsheet par's.
type CheminConfig struct {
	Number           int           // the table's number, on its card
	Decks            int           // decks in the sabot (rule 13)
	Seats            int           // places at the table
	MinPlayers       int           // seated players a coup needs (rule 16: at least 4)
	MinBank          int64         // cents, the least bank (rule 35); no maximum
	MinBet           int64         // cents, the least ponto's bet (rule 58)
	CagnotteBps      int64         // the house's part of the banker's winnings (rule 47)
	Rounding         Rounding      // how the cagnotte comes to a cent
	AuctionBase      int64         // cents, the first offer in the bank's auction (rules 80–90)
	AuctionIncrement int64         // cents, the least raise of an offer
	DecisionTime     time.Duration // every decision's timer; at timeout the ponto stands on 5, the banker plays the tableau
	TableauOnly      bool          // the banker draws by the tableau in both optional cases (rule 102)
	Languages        []string      // the table's messages: "pt" and optionally "en"
}

// Cagnotte is the house's part, in cents, of a banker's winnings of win
// cents: CagnotteBps of it, brought to a cent by the definition's rounding,
// in integers.
func (c *CheminConfig) Cagnotte(win int64) int64 { return c.Rules("").Cagnotte(win) }

// Rules are the engine's rules of the table this definition sets, named
// table in its messages.
func (c *CheminConfig) Rules(table string) chemin.Rules {
	return chemin.Rules{Table: table, Decks: c.Decks, Seats: c.Seats, MinSeated: c.MinPlayers, MinBank: c.MinBank,
		MinBet: c.MinBet, CagnotteBps: c.CagnotteBps, Rounding: c.Rounding, AuctionBase: c.AuctionBase,
		AuctionStep: c.AuctionIncrement, DecisionTime: c.DecisionTime, TableauOnly: c.TableauOnly,
		Languages: c.Languages}.Defaults()
}

type cheminFile struct {
	header
	Number           *int     `json:"number"`
	Decks            *int     `json:"decks"`
	Seats            *int     `json:"seats"`
	MinPlayers       *int     `json:"min_players"`
	MinBank          *int64   `json:"min_bank_cents"`
	MinBet           *int64   `json:"min_bet_cents"`
	CagnotteBps      *int64   `json:"cagnotte_bps"`
	Rounding         *string  `json:"cagnotte_rounding"`
	AuctionBase      *int64   `json:"auction_base_cents"`
	AuctionIncrement *int64   `json:"auction_increment_cents"`
	DecisionSeconds  *int     `json:"decision_seconds"`
	TableauOnly      *bool    `json:"tableau_only"`
	Languages        []string `json:"languages"`
}

// IsChemin tells a chemin de fer table definition by its content.
func IsChemin(data []byte) bool {
	var probe struct {
		Game string `json:"game"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.Game == string(Chemin)
}

func (c *checker) chemin(f cheminFile, d *Definition) {
	cfg := &CheminConfig{}
	d.Chemin = cfg
	switch {
	case f.Number == nil:
		c.bad("number", "", "missing: the table's number, on its card")
	case *f.Number < 1 || *f.Number > 999:
		c.bad("number", fmt.Sprint(*f.Number), "1 to 999")
	default:
		cfg.Number = *f.Number
	}
	switch {
	case f.Decks == nil:
		c.bad("decks", "", "missing: the decks in the sabot (6 in the standard practice, rule 13)")
	case *f.Decks < 1 || *f.Decks > CheminMaxDecks:
		c.bad("decks", fmt.Sprint(*f.Decks), fmt.Sprintf("1 to %d decks of 52 cards", CheminMaxDecks))
	default:
		cfg.Decks = *f.Decks
	}
	switch {
	case f.Seats == nil:
		c.bad("seats", "", "missing")
	case *f.Seats < CheminMinPlayers || *f.Seats > CheminMaxSeats:
		c.bad("seats", fmt.Sprint(*f.Seats), fmt.Sprintf("%d to %d: a partida needs %d seated players (rule 16)", CheminMinPlayers, CheminMaxSeats, CheminMinPlayers))
	default:
		cfg.Seats = *f.Seats
	}
	switch {
	case f.MinPlayers == nil:
		cfg.MinPlayers = CheminMinPlayers
	case *f.MinPlayers < CheminMinPlayers || cfg.Seats > 0 && *f.MinPlayers > cfg.Seats:
		c.bad("min_players", fmt.Sprint(*f.MinPlayers), fmt.Sprintf("at least %d seated players (rule 16) and at most the seats", CheminMinPlayers))
	default:
		cfg.MinPlayers = *f.MinPlayers
	}
	cfg.MinBank = c.cents("min_bank_cents", f.MinBank)
	cfg.MinBet = c.cents("min_bet_cents", f.MinBet)
	if cfg.MinBank > 0 && cfg.MinBet > cfg.MinBank {
		c.bad("min_bet_cents", fmt.Sprint(cfg.MinBet), fmt.Sprintf("at most the minimum bank %d: a ponto's least bet must fit in the least bank (rules 35, 58)", cfg.MinBank))
	}
	switch {
	case f.CagnotteBps == nil:
		c.bad("cagnotte_bps", "", "missing: the house's part of the banker's winnings in basis points (rule 47; 500 is 5%)")
	case *f.CagnotteBps < 1 || *f.CagnotteBps > CheminMaxCagnotte:
		c.bad("cagnotte_bps", fmt.Sprint(*f.CagnotteBps), fmt.Sprintf("1 to %d basis points of the banker's winnings (rule 47)", CheminMaxCagnotte))
	default:
		cfg.CagnotteBps = *f.CagnotteBps
	}
	if f.Rounding == nil {
		c.bad("cagnotte_rounding", "", `missing: "down", "half_up" or "up", stated on the table card`)
	} else {
		for _, r := range roundings {
			if string(r) == *f.Rounding {
				cfg.Rounding = r
			}
		}
		if cfg.Rounding == "" {
			c.bad("cagnotte_rounding", fmt.Sprintf("%q", *f.Rounding), `must be "down", "half_up" or "up"`)
		}
	}
	cfg.AuctionBase = c.cents("auction_base_cents", f.AuctionBase)
	if cfg.AuctionBase > 0 && cfg.MinBank > 0 && cfg.AuctionBase < cfg.MinBank {
		c.bad("auction_base_cents", fmt.Sprint(cfg.AuctionBase), fmt.Sprintf("at least the minimum bank %d: the auctioned bank is a bank (rules 35, 80)", cfg.MinBank))
	}
	cfg.AuctionIncrement = c.cents("auction_increment_cents", f.AuctionIncrement)
	if cfg.AuctionIncrement > 0 && cfg.AuctionBase > 0 && cfg.AuctionIncrement > cfg.AuctionBase {
		c.bad("auction_increment_cents", fmt.Sprint(cfg.AuctionIncrement), fmt.Sprintf("at most the auction base %d", cfg.AuctionBase))
	}
	cfg.DecisionTime = c.seconds("decision_seconds", f.DecisionSeconds, 5, "at least 5 s, SRIJ rule 51 by analogy")
	if f.TableauOnly == nil {
		c.bad("tableau_only", "", "missing: true when the banker plays the tableau in both optional cases (rule 102), false when he chooses")
	} else {
		cfg.TableauOnly = *f.TableauOnly
	}
	switch {
	case f.Languages == nil:
		c.bad("languages", "", `missing: the table's messages, ["pt"] or ["pt", "en"] (Portuguese is the default language)`)
	default:
		seen := map[string]bool{}
		for _, l := range f.Languages {
			switch {
			case l != "pt" && l != "en":
				c.bad("languages", fmt.Sprintf("%q", l), `must be "pt" or "en"`)
			case seen[l]:
				c.bad("languages", fmt.Sprintf("%q", l), "given twice")
			}
			seen[l] = true
		}
		if !seen["pt"] {
			c.bad("languages", fmt.Sprintf("%q", f.Languages), `must include "pt", the default language`)
		}
		cfg.Languages = append([]string(nil), f.Languages...)
	}
}

// CheminEngine is a chemin de fer table as the server drives it: the
// engine, whose View is the part every game shows alike (poker.View: the
// coup as the hand, the banker as the dealer, each ponto's stake as his
// bet, the seat asked and the deadline, between coups too); CheminView is
// the whole chemin view for a viewer.
type CheminEngine struct{ *chemin.Table }

// View is the table as every game shows it.
func (e *CheminEngine) View(viewer string) poker.View {
	cv := e.Table.View(viewer)
	v := poker.View{Hand: cv.Coup, Dealer: cv.Banker, Seats: cv.Seats, ToAct: cv.ToAct, Deadline: cv.Deadline}
	if len(cv.Stakes) > 0 {
		var at int64
		for _, s := range cv.Stakes {
			at += s.Amount
		}
		v.Pots = []int64{at}
	}
	return v
}

// CheminView is the chemin de fer view for viewer.
func (e *CheminEngine) CheminView(viewer string) chemin.View { return e.Table.View(viewer) }

// card is a chemin de fer table's card in the language ("pt" or "en").
func (c *CheminConfig) card(lang string, eur func(int64) string, tr func(pt, en string) string) []string {
	rounding := map[Rounding][2]string{
		RoundDown:   {"arredondada ao cêntimo abaixo", "rounded down to the cent"},
		RoundHalfUp: {"arredondada ao cêntimo mais próximo (meio cêntimo para cima)", "rounded to the nearest cent (half a cent up)"},
		RoundUp:     {"arredondada ao cêntimo acima", "rounded up to the cent"},
	}[c.Rounding]
	banker := tr("O banqueiro escolhe com 3 contra 9 e com 5 contra 4", "The banker chooses with 3 against a 9 and with 5 against a 4")
	if c.TableauOnly {
		banker = tr("O banqueiro joga segundo a tabela", "The banker plays the tableau")
	}
	return []string{
		fmt.Sprintf(tr("Mesa %d — Chemin de fer", "Table %d — Chemin de fer"), c.Number),
		fmt.Sprintf(tr("Sabot de %d baralhos", "Shoe of %d decks"), c.Decks),
		tr("Banca mínima: ", "Minimum bank: ") + eur(c.MinBank),
		tr("Aposta mínima: ", "Minimum bet: ") + eur(c.MinBet),
		tr("Cagnotte: ", "Cagnotte: ") + Percent(lang, c.CagnotteBps) + tr(" dos ganhos do banqueiro, ", " of the banker's winnings, ") + tr(rounding[0], rounding[1]),
		tr("Leilão da banca: base ", "Bank auction: base ") + eur(c.AuctionBase) + tr(", lanços de ", ", raises of ") + eur(c.AuctionIncrement),
		fmt.Sprintf(tr("Lugares: %d, mínimo %d jogadores sentados", "Seats: %d, at least %d seated players"), c.Seats, c.MinPlayers),
		banker,
		fmt.Sprintf(tr("Tempo de decisão: %d s", "Decision time: %d s"), int(c.DecisionTime.Seconds())),
	}
}
