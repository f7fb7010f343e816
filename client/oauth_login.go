package client

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/modelcontextprotocol/go-sdk/auth"
)

// LoginRequiredError is a server asking for authorization when no one can
// give it: there is no browser login (a script without a terminal or
// $BROWSER), or the grant needs a person.
type LoginRequiredError struct {
	// Server is how the person knows the server.
	Server string
	// Hint is how a person logs in, as the caller words it (a command,
	// say); empty when the caller gave none.
	Hint string
	// Scopes are the scopes the server asked for on top of the token's (a
	// step-up), when that is why; the server's words, made safe when shown.
	Scopes []string
}

func (e *LoginRequiredError) Error() string {
	why := "asks you to log in"
	if len(e.Scopes) > 0 {
		scopes := make([]string, len(e.Scopes))
		for i, s := range e.Scopes {
			scopes[i] = termtext.Truncate(termtext.Line(s), 60)
		}
		why = "asks for more access (" + strings.Join(scopes, " ") + ")"
	}
	if e.Hint == "" {
		return fmt.Sprintf("%s %s, and no one here can log in", termtext.Line(e.Server), why)
	}
	return fmt.Sprintf("%s %s: run %s", termtext.Line(e.Server), why, e.Hint)
}

// loopback receives the authorization server's redirect on 127.0.0.1, on a
// port the system picks, at /callback. Only an answer carrying the state of
// the flow in progress ends the wait: anything else on the machine can reach
// the port, and must not be able to end the login, let alone choose its code.
type loopback struct {
	ln  net.Listener
	srv *http.Server

	mu     sync.Mutex
	state  string
	answer chan callback
}

type callback struct {
	res *auth.AuthorizationResult
	err error
}

func listenLoopback() (*loopback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("opening a port on 127.0.0.1 for the browser to come back to: %w", err)
	}
	lb := &loopback{ln: ln, answer: make(chan callback, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc("/callback", lb.serve)
	lb.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go lb.srv.Serve(ln)
	return lb, nil
}

func (lb *loopback) redirectURL() string {
	return "http://" + lb.ln.Addr().String() + "/callback"
}

func (lb *loopback) close() { lb.srv.Close() }

func (lb *loopback) expect(state string) {
	lb.mu.Lock()
	lb.state = state
	lb.mu.Unlock()
}

func (lb *loopback) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	lb.mu.Lock()
	want := lb.state
	lb.mu.Unlock()
	if want == "" || subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(want)) != 1 {
		page(w, http.StatusBadRequest, "This is not the login mcpsh is waiting for.")
		return
	}
	var cb callback
	switch {
	case q.Get("error") != "":
		// The authorization server's words: made safe where they are shown.
		msg := q.Get("error")
		if d := q.Get("error_description"); d != "" {
			msg += ": " + d
		}
		cb.err = fmt.Errorf("the authorization server refused: %s", termtext.Truncate(termtext.Line(msg), 300))
		page(w, http.StatusOK, "The login did not work; mcpsh says why in the terminal.")
	case q.Get("code") == "":
		cb.err = errors.New("the browser came back without an authorization code")
		page(w, http.StatusBadRequest, "No authorization code came back; mcpsh says so in the terminal.")
	default:
		cb.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		page(w, http.StatusOK, "mcpsh is logged in. You can close this tab.")
	}
	select {
	case lb.answer <- cb:
	default: // a second answer to the same flow: the first one counts
	}
}

func page(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><title>mcpsh</title><p>%s</p>\n", html.EscapeString(msg))
}

// fetchCode is the SDK's AuthorizationCodeFetcher: it shows the person the
// authorization URL (printed always, opened in a browser when it can be) and
// waits for the redirect, within the login's bound and the caller's context.
func (h *authorizer) fetchCode(ctx context.Context, lb *loopback, authURL string) (*auth.AuthorizationResult, error) {
	u, err := url.Parse(authURL)
	// The URL comes from the server's metadata, and goes to a browser command:
	// only a web URL may, never a file, a script or something read as an option.
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("the authorization server gave an authorization URL that is not an http or https URL: %s", termtext.Truncate(termtext.Line(authURL), 200))
	}
	lb.expect(u.Query().Get("state"))
	login := h.auth.Login
	wait := login.Wait
	if wait <= 0 {
		wait = DefaultLoginWait
	}
	h.auth.notify(fmt.Sprintf("%s asks you to log in at %s. Open this URL in a browser if none opens:\n  %s\nWaiting up to %s for the browser to come back.",
		termtext.Line(h.target.Label()), plainHost(u), termtext.Line(authURL), units.Duration(wait)))
	if login.Open != nil {
		if err := login.Open(ctx, authURL); err != nil {
			h.auth.notify("no browser opened (" + termtext.Line(err.Error()) + "): open the URL above yourself")
		}
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case cb := <-lb.answer:
		return cb.res, cb.err
	case <-ctx.Done():
		return nil, fmt.Errorf("the login was abandoned: %w", ctx.Err())
	case <-timer.C:
		return nil, fmt.Errorf("the browser did not come back within %s; run the login again", wait)
	}
}

// plainHost is the URL's host as a person should check it: ASCII, with
// anything else quoted, so a look-alike letter from another script shows.
func plainHost(u *url.URL) string {
	host := u.Hostname()
	for _, r := range host {
		if r >= utf8.RuneSelf || r < ' ' {
			return strconv.QuoteToASCII(host)
		}
	}
	return host
}
