package tableserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"sort"
	"strings"

	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
)

// A seat's token lets whoever holds it play one player's seat from a
// browser or a cabinet's screen: the buy-in's transfer ID and a MAC of the
// table, the player and that ID under the server's seat key (kept on its
// board, apart from the data). Nothing secret is in the ledger, the token
// of a repeated buy-in is the same, and it survives a restart; it stops
// working when the player leaves (his next buy-in is another transfer).
func (s *Server) token(table, player, buyIn string) string {
	m := hmac.New(sha256.New, s.opts.SeatKey)
	m.Write([]byte(table + "\x00" + player + "\x00" + buyIn))
	return base64.RawURLEncoding.EncodeToString([]byte(buyIn)) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// seatOf is the table and player a token plays, if the player still sits
// there on that buy-in.
func (s *Server) seatOf(token string) (table, player string, ok bool) {
	id64, _, found := strings.Cut(token, ".")
	raw, err := base64.RawURLEncoding.DecodeString(id64)
	if !found || err != nil {
		return "", "", false
	}
	buyIn := string(raw)
	s.led.View(func(st *tableledger.State) {
		tr := st.Transfers[buyIn]
		if tr == nil || tr.Kind != tableledger.BuyIn {
			return
		}
		t := st.Tables[tr.Table]
		if t == nil || t.Players[tr.Player] == nil || t.Players[tr.Player].BuyIn != buyIn {
			return
		}
		table, player = tr.Table, tr.Player
	})
	if player == "" || !hmac.Equal([]byte(s.token(table, player, buyIn)), []byte(token)) {
		return "", "", false
	}
	return table, player, true
}

func sortTransfers(l []seatmsg.TransferResult) {
	sort.SliceStable(l, func(i, j int) bool {
		if !l[i].At.Equal(l[j].At) {
			return l[i].At.Before(l[j].At)
		}
		return l[i].ID < l[j].ID
	})
}
