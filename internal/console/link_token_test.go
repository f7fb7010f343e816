package console

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/wait"
)

// The token link is Windows's; these run it here, through the same Hub and
// Watcher, with HubOptions.tokenLink.

// tokenOf reads the token from a proxy's entry, as a console does.
func tokenOf(t *testing.T, dir string, info Info) string {
	t.Helper()
	b, err := os.ReadFile(entryPath(dir, info.ID))
	if err != nil {
		t.Fatal(err)
	}
	var e entry
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return e.Token
}

// tcpConsole connects to a proxy's loopback address and writes lines as
// they are, all at once.
func tcpConsole(t *testing.T, addr string, lines ...string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
	return c
}

// readLine is the proxy's next line to c, or what ended the link.
func readLine(t *testing.T, c net.Conn) (string, error) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(15 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("gave up waiting for the proxy to answer or hang up")
	}
	return line, err
}

// The entry names a loopback address and holds the token (0600 where modes
// mean something); no socket. Info, as List gives it, has no token.
func TestTokenLinkEntry(t *testing.T) {
	dir := shortDir(t)
	h, err := Start(HubOptions{Dir: dir, Server: Server{Name: "gh", Transport: "stdio"}, tokenLink: true})
	if err != nil {
		t.Fatal(err)
	}
	info := h.Info()
	token := tokenOf(t, dir, info)
	if !loopbackAddr(info.Addr) || info.Socket != "" || !validToken(token) {
		t.Fatalf("the entry: %+v, token %q", info, token)
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(entryPath(dir, info.ID)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("the entry's mode: %v %v", fi.Mode(), err)
		}
	}
	list, err := List(dir)
	if err != nil || len(list) != 1 || list[0].Addr != info.Addr {
		t.Fatalf("%+v %v", list, err)
	}
	if b, _ := json.Marshal(list[0]); strings.Contains(string(b), token) {
		t.Fatalf("List's Info carries the token: %s", b)
	}
	h.Close()
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("left behind: %v", names)
	}
}

// With the token, a console is attached and answers a question end to
// end; nothing it reports (what mcpsh watch --json prints), no line the
// proxy sends and nothing the proxy warns of carries the token.
func TestTokenLinkAskedAndAnswered(t *testing.T) {
	r := newRig(t, rigOpts{tokenLink: true})
	token := tokenOf(t, r.dir, r.hub.Info())
	w := r.watch()
	var seen []Event
	see := func(what string, match func(Event) bool) Event {
		return next(t, w, what, func(e Event) bool { seen = append(seen, e); return match(e) })
	}
	see("the proxy to appear", kind(ProxyAppeared))
	done := r.call("delete_note", map[string]any{"id": 2})
	q := see("the question", kind(QuestionAsked))
	if err := w.Answer(q.Proxy, q.Question.ID, Run); err != nil {
		t.Fatal(err)
	}
	if res := wait.Recv(t, "the call", done); res.IsError {
		t.Fatalf("the call answered run at the console: %s", textOf(res))
	}
	if c := see("the answer's closing", kind(QuestionClosed)).Closed; c.Choice != Run || !c.Yours {
		t.Fatalf("closed: %+v", c)
	}
	see("the call's end", func(e Event) bool { return e.Kind == "call-ended" && e.Call.Status == client.StatusOK })
	// A console of another version, with the token: the proxy tells it why
	// it hangs up, and warns.
	c := tcpConsole(t, r.hub.Info().Addr, fmt.Sprintf(`{"type":"hello","version":99,"token":%q}`, token))
	refusal, _ := readLine(t, c)
	if !strings.Contains(refusal, "version 1 of the console protocol, not 99") {
		t.Fatalf("a console of another version read %q", refusal)
	}
	wait.Until(t, "the proxy's warning", func() bool { r.mu.Lock(); defer r.mu.Unlock(); return len(r.warns) > 0 })
	said := []string{refusal}
	for _, e := range seen {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		said = append(said, string(b))
	}
	r.mu.Lock()
	said = append(said, r.warns...)
	r.mu.Unlock()
	for _, s := range said {
		if strings.Contains(s, token) {
			t.Fatalf("the token got out: %s", s)
		}
	}
}

// Without the right token first, the proxy hangs up without a word, reads
// nothing after that line (a right hello behind it is not taken) and
// counts no console; with it, it answers.
func TestTokenLinkRefusesWithoutTheToken(t *testing.T) {
	dir := shortDir(t)
	h, err := Start(HubOptions{Dir: dir, Server: Server{Name: "x"}, tokenLink: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	token := tokenOf(t, dir, h.Info())
	other, _ := newToken()
	right := fmt.Sprintf(`{"type":"hello","version":1,"token":%q}`, token)
	for _, tc := range []struct{ name, first string }{
		{"a wrong token", fmt.Sprintf(`{"type":"hello","version":1,"token":%q}`, other)},
		{"no token", `{"type":"hello","version":1}`},
		{"an empty token", `{"type":"hello","version":1,"token":""}`},
		{"half the token", fmt.Sprintf(`{"type":"hello","version":1,"token":%q}`, token[:len(token)/2])},
		{"the token with more", fmt.Sprintf(`{"type":"hello","version":1,"token":%q}`, token+"00")},
		{"an answer before hello", fmt.Sprintf(`{"type":"answer","answer":{"question":"q1","choice":"run"},"token":%q}`, token)},
		{"not the protocol", "GET / HTTP/1.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tcpConsole(t, h.Info().Addr, tc.first, right)
			line, err := readLine(t, c)
			if line != "" || err == nil {
				t.Fatalf("read %q, %v: want the proxy to hang up without a word", line, err)
			}
			if h.Present() {
				t.Fatal("counted as a console")
			}
		})
	}
	c := tcpConsole(t, h.Info().Addr, right)
	line, err := readLine(t, c)
	var m Message
	if err != nil || json.Unmarshal([]byte(line), &m) != nil || m.Type != TypeHello || m.Proxy == nil || m.Proxy.ID != h.Info().ID {
		t.Fatalf("with the token, read %q, %v", line, err)
	}
	if strings.Contains(line, token) {
		t.Fatalf("the proxy's hello carries the token: %s", line)
	}
	wait.Until(t, "the console to count", h.Present)
}

// An answer before hello, with the token, cannot answer an open question:
// the console that said hello does.
func TestTokenLinkAnswerBeforeHelloIsRefused(t *testing.T) {
	r := newRig(t, rigOpts{tokenLink: true})
	token := tokenOf(t, r.dir, r.hub.Info())
	w := r.watch()
	r.attached(w)
	done := r.call("delete_note", map[string]any{"id": 2})
	q := next(t, w, "the question", kind(QuestionAsked))
	c := tcpConsole(t, r.hub.Info().Addr,
		fmt.Sprintf(`{"type":"answer","answer":{"question":%q,"choice":"run"},"token":%q}`, q.Question.ID, token),
		fmt.Sprintf(`{"type":"hello","version":1,"token":%q}`, token))
	if line, err := readLine(t, c); line != "" || err == nil {
		t.Fatalf("read %q, %v: want the proxy to hang up without a word", line, err)
	}
	if err := w.Answer(q.Proxy, q.Question.ID, Refuse); err != nil {
		t.Fatal(err)
	}
	if cl := next(t, w, "the closing", kind(QuestionClosed)).Closed; cl.Choice != Refuse || !cl.Yours {
		t.Fatalf("closed: %+v", cl)
	}
	if res := wait.Recv(t, "the call", done); !res.IsError {
		t.Fatalf("the call refused at the console ran: %s", textOf(res))
	}
}

// A token entry whose process lives but whose port refuses (the proxy was
// killed, its process id since reused) is dropped by a Watcher.
func TestATokenEntryWhosePortRefusesIsDropped(t *testing.T) {
	dir := shortDir(t)
	if err := EnsureDir(dir); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // no one listens there now
	token, _ := newToken()
	id := newID()
	if err := writeEntry(dir, entry{Info: Info{ID: id, PID: os.Getpid(), Addr: addr}, Token: token}); err != nil {
		t.Fatal(err)
	}
	if list, _ := List(dir); len(list) != 1 {
		t.Fatalf("a live process's entry: %+v", list)
	}
	w, err := Watch(t.Context(), dir, WatchOptions{Poll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	wait.Until(t, "the stale entry to be dropped", func() bool {
		_, err := os.Stat(entryPath(dir, id))
		return os.IsNotExist(err)
	})
}

// Token entries that are not a proxy's (an address off loopback or a name,
// no token or a short one, a socket as well) are dropped, never dialled.
func TestAForgedTokenEntryIsDropped(t *testing.T) {
	dir := shortDir(t)
	if err := EnsureDir(dir); err != nil {
		t.Fatal(err)
	}
	token, _ := newToken()
	for i, e := range []entry{
		{Info: Info{Addr: "10.1.2.3:443"}, Token: token},
		{Info: Info{Addr: "localhost:443"}, Token: token},
		{Info: Info{Addr: "127.0.0.1:0"}, Token: token},
		{Info: Info{Addr: "127.0.0.1:443"}},
		{Info: Info{Addr: "127.0.0.1:443"}, Token: token[:16]},
		{Info: Info{Addr: "127.0.0.1:443", Socket: "/tmp/x.sock"}, Token: token},
	} {
		e.ID, e.PID = fmt.Sprintf("e%d", i), os.Getpid()
		if e.Socket == "/tmp/x.sock" {
			e.Socket = socketPath(dir, e.ID)
		}
		b, _ := json.Marshal(e)
		os.WriteFile(entryPath(dir, e.ID), b, 0o600)
	}
	if list, _ := List(dir); len(list) != 0 {
		t.Fatalf("%+v", list)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("left: %v", names)
	}
}
