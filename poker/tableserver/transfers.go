package tableserver

import (
	"net/http"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
)

func (s *Server) result(id string) (seatmsg.TransferResult, bool) {
	var r seatmsg.TransferResult
	var ok bool
	s.led.View(func(st *tableledger.State) {
		tr := st.Transfers[id]
		if tr == nil {
			return
		}
		ok = true
		r.TransferState = *tr
		r.Status = "pending"
		if tr.Done {
			r.Status = "done"
		}
		if t := st.Tables[tr.Table]; t != nil {
			if p := t.Players[tr.Player]; p != nil {
				r.Seat, r.Stack = p.Seat, p.Stack
				if tr.Kind == tableledger.BuyIn && p.BuyIn == tr.ID {
					r.Token = s.token(tr.Table, tr.Player, tr.ID)
				}
			}
		}
	})
	return r, ok
}

// repeated answers a request whose transfer ID the ledger knows: the same
// request gets the recorded transfer, another one is refused.
func (s *Server) repeated(table, kind string, req seatmsg.MoneyRequest) (seatmsg.TransferResult, bool, error) {
	r, ok := s.result(req.TransferID)
	if !ok {
		return r, false, nil
	}
	same := r.Table == table && r.Kind == kind && r.Player == req.Player
	if kind == tableledger.CashOut {
		same = same && (req.Source == "" || r.Source == req.Source) // a cash-out goes to the buy-in's source anyway
	} else {
		same = same && r.Source == req.Source && r.Amount == req.Amount
	}
	if !same {
		return r, true, refused(http.StatusConflict, "transfer %q was a %s of %d cents for %q at %s from %q: an ID names one transfer",
			req.TransferID, r.Kind, r.Amount, r.Player, r.Table, r.Source)
	}
	return r, true, nil
}

func (s *Server) checkRequest(req seatmsg.MoneyRequest, needAmount bool) error {
	switch {
	case !idPattern.MatchString(req.TransferID):
		return refused(http.StatusBadRequest, "transfer_id %q: 1-100 letters, digits or . _ : @ -", req.TransferID)
	case req.Source != "" && !idPattern.MatchString(req.Source):
		return refused(http.StatusBadRequest, "source %q: 1-100 letters, digits or . _ : @ -", req.Source)
	case !playerPattern.MatchString(req.Player):
		return refused(http.StatusBadRequest, "player %q: 1-32 letters, digits, spaces or . _ -", req.Player)
	case needAmount && req.Amount <= 0:
		return refused(http.StatusBadRequest, "amount %d: a positive number of cents", req.Amount)
	case !needAmount && req.Amount != 0:
		return refused(http.StatusBadRequest, "amount %d: a cash-out takes the whole stack, give no amount", req.Amount)
	}
	return nil
}

func (s *Server) table(id string) (*table, error) {
	t := s.tables[id]
	if t == nil {
		return nil, refused(http.StatusNotFound, "no table %q", id)
	}
	return t, nil
}

// BuyIn seats a player with the cave his source paid.
func (s *Server) BuyIn(tableID string, req seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkRequest(req, true); err != nil {
		return seatmsg.TransferResult{}, err
	}
	if req.Source == "" {
		return seatmsg.TransferResult{}, refused(http.StatusBadRequest, "source: missing (whose money is the cave)")
	}
	if r, ok, err := s.repeated(tableID, tableledger.BuyIn, req); ok || err != nil {
		return r, err
	}
	t, err := s.table(tableID)
	if err != nil {
		return seatmsg.TransferResult{}, err
	}
	if t.cert == nil {
		return seatmsg.TransferResult{}, refused(http.StatusConflict, "table %s is closing: it takes no new players", t.id)
	}
	tr := &tableledger.Transfer{ID: req.TransferID, Kind: tableledger.BuyIn, Source: req.Source, Player: req.Player, Amount: req.Amount}
	if _, err := s.step(t, poker.Join{At: s.at(t, s.opts.Now()), Player: req.Player, Seat: req.Seat, Amount: req.Amount}, tr); err != nil {
		return seatmsg.TransferResult{}, err
	}
	r, _ := s.result(req.TransferID)
	return r, nil
}

// Rebuy adds a re-buy to a seated player's cave, between the hands he
// plays.
func (s *Server) Rebuy(tableID string, req seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkRequest(req, true); err != nil {
		return seatmsg.TransferResult{}, err
	}
	if r, ok, err := s.repeated(tableID, tableledger.Rebuy, req); ok || err != nil {
		return r, err
	}
	t, err := s.table(tableID)
	if err != nil {
		return seatmsg.TransferResult{}, err
	}
	var source string
	var seated bool
	s.led.View(func(st *tableledger.State) {
		if p := st.Tables[t.id].Players[req.Player]; p != nil {
			seated, source = true, p.Source
		}
	})
	switch {
	case !seated:
		return seatmsg.TransferResult{}, refused(http.StatusNotFound, "player %q is not at table %s", req.Player, t.id)
	case req.Source != source:
		return seatmsg.TransferResult{}, refused(http.StatusConflict, "player %q's money comes from %q, not %q: his cash-out goes back there", req.Player, source, req.Source)
	}
	tr := &tableledger.Transfer{ID: req.TransferID, Kind: tableledger.Rebuy, Source: source, Player: req.Player, Amount: req.Amount}
	if _, err := s.step(t, poker.Rebuy{At: s.at(t, s.opts.Now()), Player: req.Player, Amount: req.Amount}, tr); err != nil {
		return seatmsg.TransferResult{}, err
	}
	r, _ := s.result(req.TransferID)
	return r, nil
}

// CashOut takes a player away with his whole stack, back to the source of
// his buy-in. During a hand he plays, he folds (if he still can) and the
// cash-out is paid when the hand ends: the result is then "pending".
func (s *Server) CashOut(tableID string, req seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cashOut(tableID, req)
}

func (s *Server) cashOut(tableID string, req seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	if err := s.checkRequest(req, false); err != nil {
		return seatmsg.TransferResult{}, err
	}
	t, err := s.table(tableID)
	if err != nil {
		return seatmsg.TransferResult{}, err
	}
	var source, pending string
	var seated bool
	s.led.View(func(st *tableledger.State) {
		if lt := st.Tables[t.id]; lt != nil {
			if p := lt.Players[req.Player]; p != nil {
				seated, source, pending = true, p.Source, p.CashOut
			}
		}
	})
	if r, ok, err := s.repeated(tableID, tableledger.CashOut, req); ok || err != nil {
		return r, err
	}
	if req.Source == "" {
		req.Source = source
	}
	switch {
	case !seated:
		return seatmsg.TransferResult{}, refused(http.StatusNotFound, "player %q is not at table %s", req.Player, t.id)
	case req.Source != source:
		return seatmsg.TransferResult{}, refused(http.StatusConflict, "player %q's money goes back to %q, not %q", req.Player, source, req.Source)
	case pending != "":
		return seatmsg.TransferResult{}, refused(http.StatusConflict, "player %q leaves at the end of the hand: cash-out %q is pending", req.Player, pending)
	}
	tr := &tableledger.Transfer{ID: req.TransferID, Kind: tableledger.CashOut, Source: source, Player: req.Player, AuthorizedBy: req.AuthorizedBy}
	ev := poker.Leave{At: s.at(t, s.opts.Now()), Player: req.Player, Authorized: req.AuthorizedBy != ""}
	if _, err := s.step(t, ev, tr); err != nil {
		return seatmsg.TransferResult{}, err
	}
	r, _ := s.result(req.TransferID)
	return r, nil
}

// Transfer is a transfer the ledger holds.
func (s *Server) Transfer(id string) (seatmsg.TransferResult, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.result(id)
}

// TransfersOf lists a source's transfers in time order: the cash-outs its
// players asked at the table, too.
func (s *Server) TransfersOf(source string) []seatmsg.TransferResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	s.led.View(func(st *tableledger.State) {
		for id, tr := range st.Transfers {
			if tr.Source == source {
				ids = append(ids, id)
			}
		}
	})
	out := make([]seatmsg.TransferResult, 0, len(ids))
	for _, id := range ids {
		r, _ := s.result(id)
		out = append(out, r)
	}
	sortTransfers(out)
	return out
}
