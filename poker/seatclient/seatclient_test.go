package seatclient

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/openegm/cabinet/poker/seatmsg"
)

// What an owner may take as the end of a request: the server's own
// refusal, never a failure that leaves the request's fate open.
func TestDefinitive(t *testing.T) {
	for status, want := range map[int]bool{
		400: true, 404: true, 409: true, 413: true,
		401: false, 403: false, 408: false, 429: false, 500: false, 502: false, 503: false,
	} {
		if got := Definitive(&APIError{Status: status}); got != want {
			t.Errorf("status %d: definitive %v, want %v", status, got, want)
		}
	}
	if Definitive(errors.New("connection refused")) {
		t.Error("a network failure taken as a refusal")
	}
}

// The client sends the bearer token and the request as JSON, escapes the
// IDs in the path, and reads the server's error message.
func TestClientRequestsAndErrors(t *testing.T) {
	var got *http.Request
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		b := new(strings.Builder)
		buf := make([]byte, 512)
		n, _ := r.Body.Read(buf)
		b.Write(buf[:n])
		body = b.String()
		if strings.Contains(r.URL.EscapedPath(), "full") {
			w.WriteHeader(http.StatusConflict)
			w.Write([]byte(`{"error":"table full"}`))
			return
		}
		w.Write([]byte(`{"id":"x:1","kind":"buy_in","status":"done","token":"tok","stack":500}`))
	}))
	defer srv.Close()
	c := &Client{URL: srv.URL, Token: "secret"}
	res, err := c.BuyIn("a/b", seatmsg.MoneyRequest{TransferID: "x:1", Source: "egm", Player: "p", Amount: 500})
	if err != nil || res.Token != "tok" || res.Status != "done" {
		t.Fatalf("%+v %v", res, err)
	}
	if got.Header.Get("Authorization") != "Bearer secret" || got.URL.EscapedPath() != "/api/v1/tables/a%2Fb/buyin" ||
		!strings.Contains(body, `"transfer_id":"x:1"`) {
		t.Fatalf("request %s %s %q", got.URL.EscapedPath(), got.Header.Get("Authorization"), body)
	}
	_, err = c.CashOut("full", seatmsg.MoneyRequest{TransferID: "out:x:1", Player: "p"})
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 409 || ae.Msg != "table full" || !Definitive(err) {
		t.Fatalf("refusal: %v", err)
	}
}
