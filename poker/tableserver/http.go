package tableserver

import (
	"bytes"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"strings"

	"github.com/openegm/cabinet/internal/strictjson"
	"github.com/openegm/cabinet/poker/seatmsg"
)

// The seats' page: plain HTML, CSS and JavaScript, embedded in the program
// (no build step).
//
//go:embed web
var webFiles embed.FS

// Handler serves the page, the WebSocket and the API (docs/tablesrv.md).
// apiToken is the credential of the seats' owners (cabinets, cashiers):
// buy-ins, re-buys, cash-outs and the ledger's figures need it as a bearer
// token; the page, the tables' cards and the WebSocket (which plays a seat
// only with the seat's own token) do not.
func (s *Server) Handler(apiToken string) http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(webFiles, "web")
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /ws", s.serveWS)
	mux.HandleFunc("GET /api/v1/tables", func(w http.ResponseWriter, r *http.Request) { reply(w, s.Tables(), nil) })
	mux.HandleFunc("GET /api/v1/tables/{id}", func(w http.ResponseWriter, r *http.Request) {
		in, err := s.TableInfo(r.PathValue("id"))
		reply(w, in, err)
	})
	auth := func(h http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || apiToken == "" || subtle.ConstantTimeCompare([]byte(got), []byte(apiToken)) != 1 {
				reply(w, nil, refused(http.StatusUnauthorized, "the API needs the server's token: Authorization: Bearer TOKEN"))
				return
			}
			h(w, r)
		}
	}
	money := func(f func(string, seatmsg.MoneyRequest) (seatmsg.TransferResult, error)) http.HandlerFunc {
		return auth(func(w http.ResponseWriter, r *http.Request) {
			var req seatmsg.MoneyRequest
			if err := decode(r, &req); err != nil {
				reply(w, nil, err)
				return
			}
			res, err := f(r.PathValue("id"), req)
			reply(w, res, err)
		})
	}
	mux.HandleFunc("POST /api/v1/tables/{id}/buyin", money(s.BuyIn))
	mux.HandleFunc("POST /api/v1/tables/{id}/rebuy", money(s.Rebuy))
	mux.HandleFunc("POST /api/v1/tables/{id}/cashout", money(s.CashOut))
	mux.HandleFunc("GET /api/v1/transfers/{id}", auth(func(w http.ResponseWriter, r *http.Request) {
		res, ok := s.Transfer(r.PathValue("id"))
		if !ok {
			reply(w, nil, refused(http.StatusNotFound, "no transfer %q", r.PathValue("id")))
			return
		}
		reply(w, res, nil)
	}))
	mux.HandleFunc("GET /api/v1/transfers", auth(func(w http.ResponseWriter, r *http.Request) {
		src := r.URL.Query().Get("source")
		if src == "" {
			reply(w, nil, refused(http.StatusBadRequest, "?source= names whose transfers"))
			return
		}
		reply(w, s.TransfersOf(src), nil)
	}))
	mux.HandleFunc("GET /api/v1/tables/{id}/ledger", auth(func(w http.ResponseWriter, r *http.Request) {
		t, ok := s.LedgerTable(r.PathValue("id"))
		if !ok {
			reply(w, nil, refused(http.StatusNotFound, "no table %q in the ledger", r.PathValue("id")))
			return
		}
		reply(w, t, nil)
	}))
	return mux
}

// decode reads a request body strictly: an unknown field, a key given
// twice or data after the object is refused, naming it.
func decode(r *http.Request, v any) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<10+1))
	if err != nil {
		return refused(http.StatusBadRequest, "reading the request: %v", err)
	}
	if len(body) > 16<<10 {
		return refused(http.StatusRequestEntityTooLarge, "a request is at most 16 KiB")
	}
	if err := strictjson.DuplicateKeys(body, 2); err != nil {
		return refused(http.StatusBadRequest, "%v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return refused(http.StatusBadRequest, "%s", strictjson.Problem(err))
	}
	if dec.More() {
		return refused(http.StatusBadRequest, "data after the request object")
	}
	return nil
}

// reply writes v as JSON, or the error as {"error": ...} with its status.
func reply(w http.ResponseWriter, v any, err error) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		status := http.StatusInternalServerError
		var e *Error
		if errors.As(err, &e) {
			status = e.Status
		}
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
		return
	}
	json.NewEncoder(w).Encode(v)
}
