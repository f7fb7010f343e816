package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpPath is where ServeHTTP answers MCP requests; every other path is 404.
const httpPath = "/mcp"

// shutdownGrace bounds how long ServeHTTP lets in-flight calls finish once
// its context is done (a slow_count at its maximum takes far longer).
const shutdownGrace = 3 * time.Second

// ServeStdio serves s over standard input and output until the client hangs
// up or ctx is done. Either is a normal end and returns nil.
func ServeStdio(ctx context.Context, s *Server) error {
	err := s.mcp.Run(ctx, &mcp.StdioTransport{})
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil
	}
	return err
}

// ServeHTTP serves s over streamable HTTP at path /mcp, listening only on
// addr (use 127.0.0.1: go-sdk rejects non-localhost Host headers on loopback
// listeners, which protects against DNS rebinding). ready, if not nil, is
// called with the bound address once the listener is open, so addr may use
// port 0. ServeHTTP returns nil after a graceful shutdown when ctx is done.
func ServeHTTP(ctx context.Context, s *Server, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("demo server: %w", err)
	}

	// Standalone SSE streams (the client's GET) never go idle, so
	// http.Server.Shutdown would wait on them until its deadline. They are
	// tied to stopping, which ends them as soon as shutdown begins, while
	// POSTs carrying tool calls get the grace period to finish.
	stopping, stop := context.WithCancel(context.Background())
	defer stop()
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, nil)
	mux := http.NewServeMux()
	var served sessionIDs
	mux.Handle(httpPath, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { served.add(w.Header().Get("Mcp-Session-Id")) }()
		if r.Method == http.MethodGet {
			rctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			unhook := context.AfterFunc(stopping, cancel)
			defer unhook()
			r = r.WithContext(rctx)
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if ready != nil {
		ready(ln.Addr())
	}

	select {
	case err := <-done:
		return fmt.Errorf("demo server: %w", err)
	case <-ctx.Done():
	}
	stop()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close() // the grace period ran out: drop what is left
	}
	<-done
	// The HTTP handler keeps its sessions open until the client deletes
	// them; close the ones this call served so s stops counting them as
	// connected (and stops notifying them of list changes).
	for ss := range s.mcp.Sessions() {
		if served.has(ss.ID()) {
			ss.Close()
		}
	}
	return nil
}

// sessionIDs is the set of HTTP session ids one ServeHTTP call has handed out.
type sessionIDs struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (s *sessionIDs) add(id string) {
	if id == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]bool{}
	}
	s.ids[id] = true
}

func (s *sessionIDs) has(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return id != "" && s.ids[id]
}
