package tableledger

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/tabledef"
)

// Report is the inspector's report of a table server's ledger: the
// verdict, every table's sessions and definitions, its money (caves and
// re-buys, fees, rake, cash-outs) and counts, the players seated, the
// money each source moved, every transfer, every void hand.
type Report struct {
	Verdict   *Verdict        `json:"verdict"`
	Tables    []TableReport   `json:"tables"`
	Sources   []SourceReport  `json:"sources"`
	Transfers []TransferState `json:"transfers"`
	Voided    []VoidReport    `json:"voided"`
	// PoAwards are the carried pós paid to the last player at a table.
	PoAwards []PoAwardReport `json:"po_awards"`
	// Closes are the chemin de fer partidas told their closing hour
	// (rule 107).
	Closes []CloseReport `json:"closes"`
	Events []ServerEvent `json:"events"`
}

// CloseReport is a chemin de fer partida's close (rule 107): its closing
// hour, when the table was told it, whether its sabot played on past the
// hour, the coups dealt after it, and when the partida ended (zero: not
// yet).
type CloseReport struct {
	Table   string    `json:"table"`
	Session int       `json:"session"`
	Hour    time.Time `json:"hour"`
	Told    time.Time `json:"told"`
	PlaysOn bool      `json:"plays_on"`
	Coups   int       `json:"coups_after"`
	Ended   time.Time `json:"ended,omitzero"`
}

// TableReport is one table.
type TableReport struct {
	ID       string          `json:"id"`
	Game     string          `json:"game"`
	Open     bool            `json:"open"`
	Sessions []SessionReport `json:"sessions"`
	Meters   Meters          `json:"meters"`
	Players  []PlayerReport  `json:"players"`
	Hand     uint64          `json:"hand_in_play,omitempty"`
	Carried  int64           `json:"carried,omitempty"`
	// A chemin de fer table: the bank and garage on the table; its
	// Meters.Rake is the cagnotte, the house's only take.
	Bank   int64 `json:"bank,omitempty"`
	Garage int64 `json:"garage,omitempty"`
	// InPot is what the hand or coup in play holds (a ledger read while a
	// table plays, or cut by a stop).
	InPot int64 `json:"in_pot,omitempty"`
}

// SessionReport is a session and the definition it played.
type SessionReport struct {
	Session    int       `json:"session"`
	OpenedAt   time.Time `json:"opened_at"`
	Definition string    `json:"definition"` // id and version
	Digest     string    `json:"digest"`
	KeyID      string    `json:"key_id"`
	Hands      int64     `json:"hands"`
}

// PlayerReport is a player seated.
type PlayerReport struct {
	Player string       `json:"player"`
	Seat   int          `json:"seat"`
	Source string       `json:"source"`
	Stack  int64        `json:"stack"`
	Totals poker.Totals `json:"totals"`
}

// SourceReport is the money a source moved.
type SourceReport struct {
	Source string `json:"source"`
	In     int64  `json:"in"`
	Out    int64  `json:"out"`
}

// VoidReport is a hand voided when the server resumed (SRIJ rule 86).
type VoidReport struct {
	Table    string        `json:"table"`
	Session  int           `json:"session"`
	Hand     uint64        `json:"hand"`
	At       time.Time     `json:"at"`
	Returned []poker.Share `json:"returned"`
	Carried  int64         `json:"carried,omitempty"`
}

// PoAwardReport is a pó paid to the last player at a table as he left.
type PoAwardReport struct {
	Table   string    `json:"table"`
	Session int       `json:"session"`
	Player  string    `json:"player"`
	At      time.Time `json:"at"`
	Amount  int64     `json:"amount"`
	Rake    int64     `json:"rake"`
	Paid    int64     `json:"paid"`
}

// MakeReport verifies the ledger in dir (Verify) and reports it.
func MakeReport(dir string, pub ed25519.PublicKey, trusted []ed25519.PublicKey) (*Report, error) {
	v, err := Verify(dir, pub, trusted)
	if err != nil {
		return nil, err
	}
	rep := &Report{Verdict: v, Transfers: []TransferState{}, Voided: []VoidReport{}, PoAwards: []PoAwardReport{}, Sources: []SourceReport{},
		Closes: []CloseReport{}}
	st := v.State
	if st == nil {
		return rep, nil
	}
	sessions := map[string][]SessionReport{}
	err = Records(dir, func(seq uint64, r Record) error {
		switch x := r.(type) {
		case SessionOpen:
			id := "?"
			if d, err := tabledef.Parse(x.Table, x.Definition); err == nil {
				id = fmt.Sprintf("%s v%d", d.ID, d.Version)
			}
			sessions[x.Table] = append(sessions[x.Table], SessionReport{Session: x.Session, OpenedAt: x.At, Definition: id, Digest: x.Digest, KeyID: x.KeyID})
		case Step:
			var cl *CloseReport
			for i := range rep.Closes {
				if c := &rep.Closes[i]; c.Table == x.Table && c.Session == x.Session {
					cl = c
				}
			}
			if x.Event.Kind == "closing" {
				rep.Closes = append(rep.Closes, CloseReport{Table: x.Table, Session: x.Session, Hour: x.Event.Hour, Told: x.Event.At})
				cl = &rep.Closes[len(rep.Closes)-1]
			}
			for _, rec := range x.Records {
				switch {
				case cl == nil:
				case rec.Kind == chemin.KindAnnounce && chemin.Message(rec.Action) == chemin.MsgPlaysOn:
					cl.PlaysOn = true
				case rec.Kind == poker.KindHandStart:
					cl.Coups++
				case rec.Kind == poker.KindEnd:
					cl.Ended = rec.At
				}
				switch rec.Kind {
				case poker.KindHandEnd:
					if l := sessions[x.Table]; len(l) > 0 {
						l[len(l)-1].Hands++
					}
				case poker.KindVoid:
					rep.Voided = append(rep.Voided, VoidReport{Table: x.Table, Session: x.Session, Hand: rec.Hand, At: rec.At, Returned: rec.Shares, Carried: rec.Amount})
				case poker.KindPoAward:
					rep.PoAwards = append(rep.PoAwards, PoAwardReport{Table: x.Table, Session: x.Session, Player: rec.Player, At: rec.At,
						Amount: rec.Amount, Rake: rec.Rake, Paid: rec.Amount - rec.Rake})
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, id := range st.TableIDs() {
		t := st.Tables[id]
		tr := TableReport{ID: id, Game: t.Game, Open: t.Open, Sessions: sessions[id], Meters: t.Meters, Hand: t.Hand, Carried: t.Carried,
			Bank: t.Bank, Garage: t.Garage, InPot: t.InPot, Players: []PlayerReport{}}
		for _, p := range t.Seated() {
			s := t.Players[p]
			tr.Players = append(tr.Players, PlayerReport{Player: p, Seat: s.Seat, Source: s.Source, Stack: s.Stack, Totals: s.Totals})
		}
		rep.Tables = append(rep.Tables, tr)
	}
	for id, s := range st.Sources {
		rep.Sources = append(rep.Sources, SourceReport{Source: id, In: s.In, Out: s.Out})
	}
	sort.Slice(rep.Sources, func(i, j int) bool { return rep.Sources[i].Source < rep.Sources[j].Source })
	for _, tr := range st.Transfers {
		rep.Transfers = append(rep.Transfers, *tr)
	}
	sort.SliceStable(rep.Transfers, func(i, j int) bool {
		if !rep.Transfers[i].At.Equal(rep.Transfers[j].At) {
			return rep.Transfers[i].At.Before(rep.Transfers[j].At)
		}
		return rep.Transfers[i].ID < rep.Transfers[j].ID
	})
	rep.Events = st.Events
	return rep, nil
}

// WriteText writes the report for people, in Portuguese ("pt") or English.
func (rep *Report) WriteText(w io.Writer, lang string) {
	tr := func(pt, en string) string {
		if lang == "en" {
			return en
		}
		return pt
	}
	eur := func(c int64) string { return money.Euro(lang, c) }
	v := rep.Verdict
	verdict := tr("VERIFICADO", "VERIFIED")
	if !v.OK {
		verdict = tr("NÃO VERIFICADO", "NOT VERIFIED")
	}
	fmt.Fprintf(w, "%s: %s\n", tr("Registo do servidor de mesas", "Table server ledger"), verdict)
	fmt.Fprintf(w, "  %s %s · %d %s · %d %s · %d %s · %d %s %d %s\n", tr("chave", "key"), v.KeyID, v.Records, tr("registos", "records"),
		v.Checkpoints, tr("pontos de controlo", "checkpoints"), v.Seals, tr("selos", "seals"),
		v.Sessions, tr("sessões e", "sessions and"), v.Steps, tr("passos repetidos pelos motores", "steps re-run by the engines"))
	for _, p := range v.Problems {
		fmt.Fprintf(w, "  %s: %s\n", tr("PROBLEMA", "PROBLEM"), p)
	}
	for _, t := range rep.Tables {
		m := t.Meters
		fmt.Fprintf(w, "\n%s %s (%s)\n", tr("Mesa", "Table"), t.ID, t.Game)
		for _, s := range t.Sessions {
			fmt.Fprintf(w, "  %s %d: %s, %s %s…, %s %s, %s %s, %d %s\n", tr("sessão", "session"), s.Session, s.Definition, tr("resumo", "digest"), s.Digest[:16],
				tr("chave", "key"), s.KeyID, tr("aberta", "opened"), s.OpenedAt.Format(time.RFC3339), s.Hands, tr("mãos", "hands"))
		}
		if t.Game == string(tabledef.Chemin) {
			// The house takes no side at chemin de fer: its take is the
			// cagnotte on the bankers' winnings (rule 47).
			fmt.Fprintf(w, "  %s %s · %s %s · %s %s\n", tr("caves e reposições", "caves and re-buys"), eur(m.PaidIn),
				tr("cagnotte (receita da casa)", "cagnotte (the house's take)"), eur(m.Rake), tr("levantado", "cashed out"), eur(m.PaidOut))
			fmt.Fprintf(w, "  %d %s, %d %s, %d %s, %d %s, %d %s\n", m.Hands, tr("golpes", "coups"), m.Showdowns, tr("com cartas", "with cards dealt"),
				m.Pots, tr("ganhos pela banca ou pelos pontos (os outros, igualdades)", "won by the bank or the pontos (the others tied)"), m.Voided, tr("anulados (regra 86 SRIJ)", "void (SRIJ rule 86)"), m.Timeouts, tr("decisões pelo relógio", "decisions by the timer"))
		} else {
			fmt.Fprintf(w, "  %s %s · %s %s · %s %s · %s %s\n", tr("caves e reposições", "caves and re-buys"), eur(m.PaidIn),
				tr("comissão na cave", "fees"), eur(m.Fees), tr("comissão dos potes", "rake"), eur(m.Rake), tr("levantado", "cashed out"), eur(m.PaidOut))
			fmt.Fprintf(w, "  %d %s, %d %s, %d %s, %d %s, %d %s\n", m.Hands, tr("mãos", "hands"), m.Showdowns, tr("com cartas mostradas", "to a showdown"),
				m.Voided, tr("anuladas (regra 86 SRIJ)", "void (SRIJ rule 86)"), m.Carries, tr("pós", "pós"), m.Timeouts, tr("decisões pelo relógio", "decisions by the timer"))
		}
		var stacks int64
		for _, p := range t.Players {
			stacks += p.Stack
			fmt.Fprintf(w, "  %s %d: %s (%s) %s\n", tr("lugar", "seat"), p.Seat, p.Player, p.Source, eur(p.Stack))
		}
		if t.Game == string(tabledef.Chemin) {
			fmt.Fprintf(w, "  %s: %s = %s + %s %s + %s %s + %s %s + %s %s + %s\n", tr("conservação", "conservation"), eur(m.PaidIn), eur(stacks),
				eur(t.Bank), tr("(banca)", "(bank)"), eur(t.Garage), tr("(garage)", "(garage)"), eur(t.InPot), tr("(em jogo)", "(staked)"),
				eur(m.Rake), tr("(cagnotte)", "(cagnotte)"), eur(m.PaidOut))
		} else {
			fmt.Fprintf(w, "  %s: %s = %s + %s %s + %s + %s + %s\n", tr("conservação", "conservation"), eur(m.PaidIn), eur(stacks),
				eur(t.Carried), tr("(pó)", "(pó)"), eur(m.Fees), eur(m.Rake), eur(m.PaidOut))
		}
	}
	if len(rep.Sources) > 0 {
		fmt.Fprintf(w, "\n%s\n", tr("Origens do dinheiro", "Sources of the money"))
		for _, s := range rep.Sources {
			fmt.Fprintf(w, "  %s: %s %s, %s %s\n", s.Source, tr("entrou", "in"), eur(s.In), tr("saiu", "out"), eur(s.Out))
		}
	}
	if len(rep.Voided) > 0 {
		fmt.Fprintf(w, "\n%s\n", tr("Mãos anuladas", "Void hands"))
		for _, x := range rep.Voided {
			var parts []string
			for _, sh := range x.Returned {
				parts = append(parts, fmt.Sprintf("%s %d %s", tr("lugar", "seat"), sh.Seat, eur(sh.Amount)))
			}
			fmt.Fprintf(w, "  %s %s %d: %s %s\n", x.At.Format(time.RFC3339), x.Table, x.Hand, tr("devolvido", "returned"), strings.Join(parts, ", "))
		}
	}
	if len(rep.PoAwards) > 0 {
		fmt.Fprintf(w, "\n%s\n", tr("Pós pagos ao último jogador da mesa", "Pós paid to the last player at a table"))
		for _, x := range rep.PoAwards {
			fmt.Fprintf(w, "  %s %s %s: %s %s, %s %s, %s %s\n", x.At.Format(time.RFC3339), x.Table, x.Player,
				tr("pó", "pó"), eur(x.Amount), tr("comissão", "rake"), eur(x.Rake), tr("pago", "paid"), eur(x.Paid))
		}
	}
	if len(rep.Closes) > 0 {
		fmt.Fprintf(w, "\n%s\n", tr("Encerramento das partidas de banca francesa (regra 107)", "Chemin de fer partidas closed at the closing hour (rule 107)"))
		for _, c := range rep.Closes {
			how := tr("golpes depois da hora, o último anunciado «Último golpe»", "coups after the hour, the last announced «Último golpe»")
			if c.PlaysOn {
				how = tr("golpes depois da hora, o sabot jogado até ao fim (iniciado 20 minutos antes)", "coups after the hour, the sabot played to its end (begun 20 minutes before)")
			}
			end := tr("partida ainda em jogo", "partida still playing")
			if !c.Ended.IsZero() {
				end = tr("fim da partida ", "partida over ") + c.Ended.Format(time.RFC3339)
			}
			fmt.Fprintf(w, "  %s %s %d: %s %s, %s %s; %d %s; %s\n", c.Table, tr("sessão", "session"), c.Session, tr("hora", "hour"), c.Hour.Format(time.RFC3339),
				tr("dita às", "told at"), c.Told.Format(time.RFC3339), c.Coups, how, end)
		}
	}
	fmt.Fprintf(w, "\n%s: %d\n", tr("Transferências", "Transfers"), len(rep.Transfers))
	for _, x := range rep.Transfers {
		status := tr("feita", "done")
		if !x.Done {
			status = tr("pendente", "pending")
		}
		fmt.Fprintf(w, "  %s %s %s %s %s %s %s (%s)\n", x.At.Format(time.RFC3339), x.ID, x.Kind, x.Table, x.Player, x.Source, eur(x.Amount), status)
	}
}
