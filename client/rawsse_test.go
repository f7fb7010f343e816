package client

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
)

// rawSSE is a legacy SSE server (protocol 2024-11-05) written by hand, so a
// test chooses every byte of it: GET /sse opens the stream and names the
// endpoint in its first event; POST /message?session=N carries one message
// and is answered 202, the answer going on session N's stream. It serves two
// tools, delete_all (destructive, not idempotent) and read (read-only).
type rawSSE struct {
	*httptest.Server
	// endpoint is the endpoint event's data for session n; "/message?session=n"
	// when nil.
	endpoint func(n int) string

	mu       sync.Mutex
	streams  map[int]chan string
	sessions int
	ran      map[string]int
	// fail is how many more calls of each tool are answered, once they have
	// run, with 502 to the POST and no answer on the stream, as a proxy in
	// front of the server would.
	fail map[string]int
	// redirect, when set, answers every POST with a 307 to it, the
	// request's path and query appended.
	redirect string
}

const rawSSETools = `[{"name":"delete_all","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":false}},` +
	`{"name":"read","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false}}]`

func newRawSSE(t *testing.T) *rawSSE {
	s := &rawSSE{streams: map[int]chan string{}, ran: map[string]int{}, fail: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /sse", s.serveStream)
	mux.HandleFunc("POST /message", s.serveMessage)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// executions is how often a tool has run.
func (s *rawSSE) executions(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ran[name]
}

func (s *rawSSE) failNext(name string, n int) {
	s.mu.Lock()
	s.fail[name] = n
	s.mu.Unlock()
}

func (s *rawSSE) serveStream(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.sessions++
	n := s.sessions
	out := make(chan string, 16)
	s.streams[n] = out
	endpoint := "/message?session=" + strconv.Itoa(n)
	if s.endpoint != nil {
		endpoint = s.endpoint(n)
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "event: endpoint\ndata: %s\n\n", endpoint)
	w.(http.Flusher).Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case msg := <-out:
			fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
			w.(http.Flusher).Flush()
		}
	}
}

func (s *rawSSE) serveMessage(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Query().Get("session"))
	s.mu.Lock()
	out, redirect := s.streams[n], s.redirect
	s.mu.Unlock()
	if redirect != "" {
		http.Redirect(w, r, redirect+r.URL.RequestURI(), http.StatusTemporaryRedirect)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if out == nil || json.Unmarshal(body, &m) != nil {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	if len(m.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	answer := func(result string) string {
		return `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + `}`
	}
	var reply string
	switch m.Method {
	case "initialize":
		reply = answer(`{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"raw-sse","version":"1"}}`)
	case "tools/list":
		reply = answer(`{"tools":` + rawSSETools + `}`)
	case "tools/call":
		s.mu.Lock()
		s.ran[m.Params.Name]++
		failing := s.fail[m.Params.Name] > 0
		if failing {
			s.fail[m.Params.Name]--
		}
		s.mu.Unlock()
		if failing {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		reply = answer(`{"content":[{"type":"text","text":"ran ` + m.Params.Name + `"}]}`)
	case "ping":
		reply = answer(`{}`)
	default:
		reply = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"method not found"}}`
	}
	w.WriteHeader(http.StatusAccepted)
	out <- reply
}
