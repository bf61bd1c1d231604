package main

// A small driver of Debian's chromium through its DevTools protocol, over
// the WebSocket library the server already uses. The browser test needs
// five things of it: open a window, go to a page, read the page with a
// script, wait for an element, and click like a person (a trusted mouse
// press and release at the element's centre). That is less code than a
// full DevTools client library brings, and adds no dependency.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// chromium is a headless browser this test started.
type chromium struct {
	t       testing.TB
	cmd     *exec.Cmd
	port    string
	browser *devtools // the browser's own endpoint: windows are opened there
}

// devtools is one DevTools connection. Calls are made one at a time by one
// goroutine, so a reply is simply the next message with the call's id
// (events are not enabled, and any that come are skipped).
type devtools struct {
	conn *websocket.Conn
	next int64
}

// findChromium is Debian's chromium (installed by make deps), or "".
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startChromium starts the browser headless with a fresh profile and an
// ephemeral DevTools port, which chromium writes to DevToolsActivePort in
// the profile once it listens.
func startChromium(t testing.TB, path string) *chromium {
	t.Helper()
	profile := t.TempDir()
	cmd := exec.Command(path,
		"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		// Two players' windows play at once: neither may be slowed as hidden.
		"--disable-background-timer-throttling", "--disable-renderer-backgrounding",
		"--disable-backgrounding-occluded-windows",
		"--user-data-dir="+profile, "--remote-debugging-port=0", "--window-size=1400,900", "about:blank")
	logf, err := os.Create(filepath.Join(t.TempDir(), "chromium.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	// Its own process group: the renderers go with it at the end.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	logf.Close()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	c := &chromium{t: t, cmd: cmd}
	t.Cleanup(func() {
		if c.browser != nil {
			c.browser.call("Browser.close", nil, nil)
			c.browser.conn.Close()
		}
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
		if lines := strings.Split(string(b), "\n"); err == nil && len(lines) >= 2 {
			c.port = strings.TrimSpace(lines[0])
			break
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("chromium exited before listening:\n%s", log)
		default:
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("chromium did not listen within a minute:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var version struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	if err := getJSON("http://127.0.0.1:"+c.port+"/json/version", &version); err != nil {
		t.Fatalf("chromium's DevTools: %v", err)
	}
	c.browser = dial(t, version.WS)
	return c
}

func getJSON(url string, v any) error {
	r, err := http.Get(url)
	if err != nil {
		return err
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, r.Status)
	}
	return json.NewDecoder(r.Body).Decode(v)
}

func dial(t testing.TB, url string) *devtools {
	t.Helper()
	d := websocket.Dialer{HandshakeTimeout: 30 * time.Second}
	conn, _, err := d.Dial(url, nil)
	if err != nil {
		t.Fatalf("DevTools %s: %v", url, err)
	}
	return &devtools{conn: conn}
}

// call sends a DevTools command and decodes its result into out (if not nil).
func (d *devtools) call(method string, params, out any) error {
	d.next++
	id := d.next
	if params == nil {
		params = struct{}{}
	}
	d.conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if err := d.conn.WriteJSON(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	d.conn.SetReadDeadline(time.Now().Add(60 * time.Second))
	for {
		var m struct {
			ID     int64           `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := d.conn.ReadJSON(&m); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		if m.ID != id {
			continue
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	}
}

// tab is a browser window with one page.
type tab struct {
	t  testing.TB
	dt *devtools
}

// window opens a new window (not a background tab, which a browser may
// slow down) and connects to its page.
func (c *chromium) window() *tab {
	c.t.Helper()
	var r struct {
		TargetID string `json:"targetId"`
	}
	if err := c.browser.call("Target.createTarget", map[string]any{"url": "about:blank", "newWindow": true}, &r); err != nil {
		c.t.Fatal(err)
	}
	tb := &tab{t: c.t, dt: dial(c.t, "ws://127.0.0.1:"+c.port+"/devtools/page/"+r.TargetID)}
	c.t.Cleanup(func() { tb.dt.conn.Close() })
	return tb
}

func (tb *tab) navigate(url string) {
	tb.t.Helper()
	var r struct {
		ErrorText string `json:"errorText"`
	}
	if err := tb.dt.call("Page.navigate", map[string]any{"url": url}, &r); err != nil || r.ErrorText != "" {
		tb.t.Fatalf("opening %s: %v %s", url, err, r.ErrorText)
	}
}

// eval runs a script in the page and decodes its value (a promise is
// awaited) into out.
func (tb *tab) eval(script string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := tb.dt.call("Runtime.evaluate", map[string]any{"expression": script, "returnByValue": true, "awaitPromise": true}, &r)
	if err != nil {
		return err
	}
	if r.Exception != nil {
		return fmt.Errorf("script %q: %s %s", script, r.Exception.Text, r.Exception.Exception.Description)
	}
	if out == nil {
		return nil
	}
	if len(r.Result.Value) == 0 {
		return fmt.Errorf("script %q returned nothing", script)
	}
	return json.Unmarshal(r.Result.Value, out)
}

// must is eval that fails the test on an error.
func (tb *tab) must(script string, out any) {
	tb.t.Helper()
	if err := tb.eval(script, out); err != nil {
		tb.t.Fatal(err)
	}
}

// visibleJS is true when the selector's element is on screen: in the
// document, under no hidden ancestor, and laid out.
const visibleJS = `((sel) => { const e = document.querySelector(sel);
  return !!e && !e.closest("[hidden]") && e.getClientRects().length > 0; })`

// waitVisible waits for the element to be shown.
func (tb *tab) waitVisible(sel string) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf("%s(%q)", visibleJS, sel), sel+" shown")
}

// waitFor waits until the script's value is true: what a click does is
// seen on the page a little after the click.
func (tb *tab) waitFor(script, what string) {
	tb.t.Helper()
	if !tb.poll(script, 60*time.Second) {
		tb.failWithPage("not %s within a minute", what)
	}
}

// poll says whether the script's value turned true within d.
func (tb *tab) poll(script string, d time.Duration) bool {
	tb.t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(50 * time.Millisecond) {
		var ok bool
		tb.must(script, &ok)
		if ok {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// failWithPage fails the test with the page's text.
func (tb *tab) failWithPage(format string, args ...any) {
	tb.t.Helper()
	var body string
	tb.eval("document.body.innerText", &body)
	tb.t.Fatalf(format+"; the page:\n%s", append(args, body)...)
}

var errNotShown = errors.New("not shown")

// clickGuardJS keeps a click that lands on another element than the one
// the test aimed at (the page moved between aiming and clicking, as it
// does when a state arrives) from acting: a person would have seen the
// button move, and a stray click on "rest" or "fold" would change the game
// the test plays. Only the aimed element's click goes through, once.
const clickGuardJS = `if (!window.__guard) { window.__guard = true;
  window.addEventListener("click", (e) => {
    if (window.__aim && window.__aim.contains(e.target)) { window.__aim = null; return; }
    e.stopImmediatePropagation(); e.preventDefault(); window.__stray = (window.__stray || 0) + 1;
  }, true); }`

// click presses and releases the left mouse button at the centre of the
// element, as a person would: the page gets trusted events, and a hidden
// or covered button cannot be clicked this way. The element must be shown
// and enabled now; errNotShown if it is not. The click acts only if it
// lands on the element (clickGuardJS); the caller sees on the page whether
// it did.
func (tb *tab) click(sel string) error {
	var at struct {
		OK bool    `json:"ok"`
		X  float64 `json:"x"`
		Y  float64 `json:"y"`
	}
	script := fmt.Sprintf(`%s; ((sel) => { const e = document.querySelector(sel);
  if (!%s(sel) || e.disabled) return {ok: false};
  e.scrollIntoView({block: "center"}); const r = e.getBoundingClientRect(); window.__aim = e;
  return {ok: true, x: r.left + r.width / 2, y: r.top + r.height / 2}; })(%q)`, clickGuardJS, visibleJS, sel)
	if err := tb.eval(script, &at); err != nil {
		return err
	}
	if !at.OK {
		return fmt.Errorf("%s: %w", sel, errNotShown)
	}
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		ev := map[string]any{"type": typ, "x": at.X, "y": at.Y}
		if typ != "mouseMoved" {
			ev["button"], ev["clickCount"] = "left", 1
		}
		if err := tb.dt.call("Input.dispatchMouseEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}

// clickUntil clicks an element until the script's value is true: a click
// the guard swallowed (the page moved as a state arrived, which a loaded
// machine makes likely) is clicked again, as a person would, for up to a
// minute.
func (tb *tab) clickUntil(sel, script, what string) {
	tb.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; {
		if err := tb.click(sel); err != nil && !errors.Is(err, errNotShown) {
			tb.t.Fatal(err)
		}
		if tb.poll(script, 3*time.Second) {
			return
		}
		if time.Now().After(deadline) {
			tb.failWithPage("not %s within a minute of clicking %s", what, sel)
		}
	}
}

// mustClick clicks an element that must be shown.
func (tb *tab) mustClick(sel string) {
	tb.t.Helper()
	if err := tb.click(sel); err != nil {
		tb.t.Fatal(err)
	}
}

// text is the element's text as shown (innerText).
func (tb *tab) text(sel string) string {
	tb.t.Helper()
	var s string
	tb.must(fmt.Sprintf("document.querySelector(%q).innerText", sel), &s)
	return s
}
