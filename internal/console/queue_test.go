package console

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/proxy"
)

// rawConsole is a console that speaks the protocol by hand.
type rawConsole struct {
	t  testing.TB
	c  net.Conn
	sc *bufio.Scanner
}

func dialRaw(t testing.TB, h *Hub) *rawConsole {
	t.Helper()
	c, err := net.Dial("unix", h.Info().Socket)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(c)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	return &rawConsole{t: t, c: c, sc: sc}
}

func (r *rawConsole) send(line string) {
	r.t.Helper()
	if _, err := fmt.Fprintln(r.c, line); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rawConsole) read() Message {
	r.t.Helper()
	_ = r.c.SetReadDeadline(time.Now().Add(15 * time.Second))
	if !r.sc.Scan() {
		r.t.Fatalf("the link ended: %v", r.sc.Err())
	}
	var m Message
	if err := json.Unmarshal(r.sc.Bytes(), &m); err != nil {
		r.t.Fatalf("not a message: %q", r.sc.Text())
	}
	return m
}

func attachRaw(t testing.TB, h *Hub) *rawConsole {
	r := dialRaw(t, h)
	r.send(`{"type":"hello","version":1}`)
	if m := r.read(); m.Type != TypeHello || m.Version != Version || m.Proxy == nil || m.Proxy.PID == 0 {
		t.Fatalf("the proxy's hello: %+v", m)
	}
	if !h.Present() {
		t.Fatal("the proxy said hello but does not count the console")
	}
	return r
}

func ended(i uint64) proxy.Event {
	return proxy.Event{Kind: proxy.EventEnded, Call: i, Time: time.Now(), Outcome: &client.Outcome{Tool: "read", Status: client.StatusOK, Attempts: []client.Attempt{{N: 1}}}}
}

// A console that reads nothing while the proxy publishes: the proxy goes
// on, the events past the queue are dropped, and once the console reads
// again it gets every one that was kept, in order, and the count of the
// rest: nothing is lost without being counted.
func TestAConsoleThatFallsBehindLosesEventsCounted(t *testing.T) {
	h, err := Start(HubOptions{Dir: shortDir(t), QueueLimit: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := attachRaw(t, h)
	const n = 20000
	for i := uint64(1); i <= n; i++ {
		h.Observe(ended(i)) // returns at once, read or not
	}
	got, dropped, last := 0, 0, uint64(0)
	for got+dropped < n {
		m := r.read()
		switch m.Type {
		case TypeCall:
			if m.Call.ID <= last {
				t.Fatalf("call %d after %d", m.Call.ID, last)
			}
			last = m.Call.ID
			got++
		case TypeDropped:
			dropped += m.Dropped
		}
	}
	if got+dropped != n || dropped == 0 {
		t.Fatalf("got %d, dropped %d, of %d", got, dropped, n)
	}
}

// A console of another version is told so, and hung up on.
func TestAnotherProtocolVersionIsRefused(t *testing.T) {
	h, err := Start(HubOptions{Dir: shortDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := dialRaw(t, h)
	r.send(`{"type":"hello","version":2}`)
	if m := r.read(); m.Type != TypeError || !strings.Contains(m.Error, "version 1 of the console protocol, not 2") {
		t.Fatalf("%+v", m)
	}
	if h.Present() {
		t.Fatal("a console of another version counts as attached")
	}
}

// An answer from a console that has not said hello is not taken.
func TestAnAnswerBeforeHelloIsRefused(t *testing.T) {
	h, err := Start(HubOptions{Dir: shortDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := dialRaw(t, h)
	r.send(`{"type":"answer","answer":{"question":"q1","choice":"run"}}`)
	if m := r.read(); m.Type != TypeError || !strings.Contains(m.Error, "before hello") {
		t.Fatalf("%+v", m)
	}
}
