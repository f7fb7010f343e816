package ui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
)

// newAsk is a server's request as the inbox hands it to the model.
func newAsk(ctx context.Context, e *client.ElicitRequest, s *client.SampleRequest) *serverAsk {
	return &serverAsk{ctx: ctx, elicit: e, sample: s, reply: make(chan askReply, 1), answered: make(chan struct{})}
}

func formAsk() *serverAsk {
	return newAsk(context.Background(), &client.ElicitRequest{Server: "features", Mode: "form", Message: "Tell us about you", Schema: json.RawMessage(featureForm)}, nil)
}

func urlAsk(u string) *serverAsk {
	return newAsk(context.Background(), &client.ElicitRequest{Server: "features", Mode: "url", Message: "Connect your account", URL: u, ElicitationID: "url-1"}, nil)
}

func sampleAsk() *serverAsk {
	return newAsk(context.Background(), nil, &client.SampleRequest{Server: "features", SystemPrompt: "You are a test.", MaxTokens: 100,
		ModelHints: []string{"test-model"}, SpeedPriority: 0.5,
		Messages: []client.SampleMessage{{Role: "user", Block: client.Block{Type: "text", Text: "Say hello"}}}})
}

// testAsks is one request of each kind, for the screens that show them.
func testAsks() map[string]*serverAsk {
	return map[string]*serverAsk{
		"elicit form": formAsk(),
		"elicit url":  urlAsk("https://bank.example@login.example.com/connect?session=1"),
		"sample":      sampleAsk(),
	}
}

// answer is the reply the model gave a, if it gave one.
func answer(t *testing.T, a *serverAsk) (askReply, bool) {
	t.Helper()
	select {
	case r := <-a.reply:
		select {
		case <-a.answered:
		default:
			t.Error("answered but not marked so")
		}
		return r, true
	default:
		return askReply{}, false
	}
}

func TestElicitationFormDialog(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	a := formAsk()
	m.Update(askMsg{ask: a})
	if m.shown().asking() == nil {
		t.Fatal("no dialog for the request")
	}
	mustShow(t, m, "features asks for input", "Tell us about you", "Email*", "ctrl+s accept")
	golden(t, "dialog/elicit-form-80x24", m.render())
	// Enter and Space type or move; they never answer. Accepting without the
	// required email does not either: the form says what is missing.
	send(m, "enter", "space", "ctrl+s")
	if _, ok := answer(t, a); ok {
		t.Fatal("answered without a valid form")
	}
	m.shown().asking().(*elicitDialog).form.FocusField(0)
	send(m, strings.Split("ada@example.com", "")...)
	send(m, "ctrl+s")
	r, ok := answer(t, a)
	if !ok || m.shown().asking() != nil {
		t.Fatalf("ctrl+s with the email: answered %v, dialog %v", ok, m.shown().asking() != nil)
	}
	got, _ := json.Marshal(r.elicit)
	want := `{"Action":"accept","Content":{"age":30,"color":"green","email":"ada@example.com","nickname":"ada","subscribe":true}}`
	if string(got) != want {
		t.Errorf("answer %s, want %s", got, want)
	}
	for k, action := range map[string]string{"ctrl+x": client.ElicitDecline, "esc": client.ElicitCancel} {
		a := formAsk()
		m.Update(askMsg{ask: a})
		send(m, k)
		if r, ok := answer(t, a); !ok || r.elicit.Action != action || r.elicit.Content != nil {
			t.Errorf("%s: answer %+v, want %s without content", k, r.elicit, action)
		}
	}
}

func TestURLElicitationOpensOnlyOnCtrlO(t *testing.T) {
	var opened []string
	m, _ := connected(t, true, 80, 24)
	m.opts.OpenBrowser = func(_ context.Context, u string) error { opened = append(opened, u); return nil }
	a := urlAsk("https://bank.example@login.example.com/connect?session=1")
	m.Update(askMsg{ask: a})
	mustShow(t, m, "features asks you to visit a page", "https://bank.example@login.example.com/connect?session=1", "host login.example.com")
	golden(t, "dialog/url-80x24", m.render())
	// A key typed for another screen as the request came up answers
	// nothing: no single letter, enter or space is one of its keys.
	for _, k := range []string{"enter", "space", "x", "q", "tab", "o", "y", "n", "a"} {
		if cmd := send(m, k); cmd != nil {
			t.Fatalf("%q did something", k)
		}
	}
	if _, ok := answer(t, a); ok || len(opened) > 0 {
		t.Fatalf("answered or opened before a key asked for it (opened %v)", opened)
	}
	cmd := send(m, "ctrl+o")
	if cmd == nil {
		t.Fatal("ctrl+o opened nothing")
	}
	m.Update(cmd())
	if len(opened) != 1 || opened[0] != "https://bank.example@login.example.com/connect?session=1" {
		t.Fatalf("opened %v", opened)
	}
	mustShow(t, m, "opened in the browser")
	send(m, "ctrl+s")
	if r, ok := answer(t, a); !ok || r.elicit.Action != client.ElicitAccept {
		t.Fatalf("ctrl+s: %+v", r.elicit)
	}
	// Not a web address: never handed to a browser.
	b := urlAsk("file:///etc/passwd")
	m.Update(askMsg{ask: b})
	if cmd := send(m, "ctrl+o"); cmd != nil {
		t.Fatal("ctrl+o opened a file URL")
	}
	mustShow(t, m, "not an http or https address")
	send(m, "ctrl+x")
	if r, _ := answer(t, b); r.elicit.Action != client.ElicitDecline {
		t.Fatalf("ctrl+x: %+v", r.elicit)
	}
}

func TestEmphasiseHost(t *testing.T) {
	em := func(s ...string) string { return "[" + strings.Join(s, "") + "]" }
	plain := func(s ...string) string { return strings.Join(s, "") }
	for in, want := range map[string]string{
		"https://bank.example@evil.example/x": "https://bank.example@[evil.example]/x",
		"http://host:8080?q=1":                "http://[host:8080]?q=1",
		"https://h.example":                   "https://[h.example]",
		"mailto:x@y":                          "mailto:x@y",
		"https://e.example/\x1b[31mred":       "https://[e.example]/red",
	} {
		if got := emphasiseHost(in, plain, em); got != want {
			t.Errorf("emphasiseHost(%q) = %q, want %q", in, got, want)
		}
	}
	if h, _ := urlHost("https://xn--80ak6aa92e.com/"); h != "xn--80ak6aa92e.com" {
		t.Errorf("host %q", h)
	}
	if h, _ := urlHost("https://аpple.com/"); !strings.HasPrefix(h, `"\u0430`) {
		t.Errorf("a look-alike host is not quoted: %q", h)
	}
}

func TestSamplingDialog(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	a := sampleAsk()
	m.Update(askMsg{ask: a})
	mustShow(t, m, "features asks for a completion", "mcpsh calls no model", "You are a test.", "hints test-model · speed 0.5", "at most 100 tokens", "user", "Say hello", "ctrl+s send the reply")
	golden(t, "dialog/sample-80x24", m.render())
	send(m, "ctrl+s")
	mustShow(t, m, "write a reply first")
	send(m, "enter", "space", "ctrl+s")
	if _, ok := answer(t, a); ok {
		t.Fatal("an empty reply was sent")
	}
	send(m, strings.Split("Hello there", "")...)
	send(m, "ctrl+s")
	if r, ok := answer(t, a); !ok || r.sample == nil || strings.TrimSpace(r.sample.Text) != "Hello there" {
		t.Fatalf("reply %+v", r)
	}
	b := sampleAsk()
	m.Update(askMsg{ask: b})
	send(m, "ctrl+x")
	if r, ok := answer(t, b); !ok || !errors.Is(r.err, client.ErrDeclined) {
		t.Fatalf("ctrl+x: %+v", r)
	}
}

func TestRequestsQueueAndWithdraw(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	ctx, cancel := context.WithCancel(context.Background())
	first := newAsk(ctx, &client.ElicitRequest{Server: "features", Mode: "url", Message: "first", URL: "https://a.example/"}, nil)
	second := sampleAsk()
	m.Update(askMsg{ask: first})
	m.Update(askMsg{ask: second})
	mustShow(t, m, "1 more request wait")
	// The server withdraws the first: its dialog closes and the next shows.
	cancel()
	m.Update(askGoneMsg{id: first.id})
	if _, ok := m.shown().asking().(*sampleDialog); !ok {
		t.Fatalf("after the withdrawal the dialog is %T", m.shown().asking())
	}
	mustShow(t, m, "features withdrew its request")
	// One already withdrawn when it arrives is never shown.
	gone, stop := context.WithCancel(context.Background())
	stop()
	m.Update(askMsg{ask: newAsk(gone, &client.ElicitRequest{Server: "x", Mode: "form"}, nil)})
	if len(m.shown().asks) != 1 {
		t.Fatalf("%d requests queued, want 1", len(m.shown().asks))
	}
	send(m, "esc")
	if m.shown().asking() != nil || len(m.shown().asks) != 0 {
		t.Fatal("the queue did not empty")
	}
}

func TestDialogOverARunningCall(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	tool, _ := m.shown().session.Tool("slow_count")
	m.shown().running = &runningCall{run: newCallRun(99), call: m.shown().newCall(tool, nil), cancel: func() {}, started: fixedNow.Add(-1500 * time.Millisecond)}
	m.shown().mode = modeRunning
	m.Update(askMsg{ask: formAsk()})
	mustShow(t, m, "slow_count runs on under this request (1.5 s)", "features asks for input")
	// Esc answers the dialog, not the call underneath.
	send(m, "esc")
	if m.shown().running == nil || m.shown().running.cancelling {
		t.Fatal("esc in the dialog cancelled the call")
	}
	m.shown().running = nil
}

// The inbox's callbacks wait for the user's answer, or for the request to end.
func TestInboxCallbacks(t *testing.T) {
	b := newInbox(nil)
	type result struct {
		r   *client.ElicitResponse
		err error
	}
	got := make(chan result, 1)
	go func() {
		r, err := b.elicit(context.Background(), &client.ElicitRequest{Mode: "form"})
		got <- result{r, err}
	}()
	a := <-b.asks
	a.reply <- askReply{elicit: &client.ElicitResponse{Action: client.ElicitDecline}}
	if r := <-got; r.err != nil || r.r.Action != client.ElicitDecline {
		t.Fatalf("got %+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := b.sample(ctx, &client.SampleRequest{})
		errs <- err
	}()
	<-b.asks
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("a withdrawn request answered %v", err)
	}
	b.close()
	if _, err := b.elicit(context.Background(), &client.ElicitRequest{}); err == nil {
		t.Fatal("a request after the view ended was not refused")
	}
	b.notify("x")
	for range 20 {
		b.notify("more than the inbox holds never blocks")
	}
}

func TestLoginFromTheFailureScreen(t *testing.T) {
	var asked []client.Target
	target := &client.Target{Name: "tracker", Kind: client.KindHTTP, URL: "http://127.0.0.1:1/mcp"}
	m := New(context.Background(), Options{Target: target, NoColor: true, Now: func() time.Time { return fixedNow },
		Login: func(t client.Target) *client.Auth {
			asked = append(asked, t)
			return &client.Auth{Login: &client.BrowserLogin{}}
		}})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.shown().mode, m.shown().connErr = modeConnectFailed, &client.LoginRequiredError{Server: "tracker", Hint: "mcpsh login --url http://127.0.0.1:1/mcp"}
	mustShow(t, m, "asks you to log in", "l log in")
	golden(t, "screen/login-offer-80x24", m.render())
	cmd := send(m, "l")
	if m.shown().mode != modeLogin || len(asked) != 1 || cmd == nil || m.shown().auth == nil || m.shown().auth.Notify == nil {
		t.Fatalf("l: mode %v, asked %d", m.shown().mode, len(asked))
	}
	m.Update(noticeMsg{text: "tracker asks you to log in at auth.example. Open this URL in a browser if none opens:\n  https://auth.example/authorize?client_id=mcpsh&state=\x1b[2Jxyz\nWaiting up to 5m for the browser to come back (Ctrl-C to give up)."})
	mustShow(t, m, "logging in to tracker", "https://auth.example/authorize?client_id=mcpsh&state=", "esc cancel the login")
	golden(t, "screen/login-80x24", m.render())
	checkScreen(t, "login", m.render(), 80, 24)
	if strings.Contains(m.render(), "\x1b[2J") {
		t.Fatal("an escape sequence from the notice reached the screen")
	}
	// Esc gives up: the connect command ends with the cancellation.
	send(m, "esc")
	m.Update(connectCmd(context.Background(), m.shown().connReq, *target, &client.Options{}, m.shown().connecting.done)())
	if m.shown().mode != modeConnectFailed || m.shown().auth != nil {
		t.Fatalf("after esc: mode %v, auth %v (want the one from before the login)", m.shown().mode, m.shown().auth)
	}
	// Without Options.Login there is no offer.
	m.opts.Login = nil
	m.shown().connErr = &client.LoginRequiredError{Server: "tracker", Hint: "mcpsh login"}
	if strings.Contains(screen(m), "l log in") || send(m, "l") != nil {
		t.Fatal("a login was offered without Options.Login")
	}
}
