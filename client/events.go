package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// EventKind says what a server event is.
type EventKind string

const (
	EventStderr       EventKind = "stderr"        // a line the stdio server wrote to stderr
	EventLog          EventKind = "log"           // a notifications/message from the server
	EventToolsChanged EventKind = "tools_changed" // notifications/tools/list_changed
	EventReconnected  EventKind = "reconnected"   // the session was re-established
	EventEnded        EventKind = "ended"         // the connection ended on its own (a stdio server exited); Text says how; the next request reconnects
	EventWarning      EventKind = "warning"       // mcpsh worked around something the server did

	EventResourcesChanged EventKind = "resources_changed" // notifications/resources/list_changed
	EventPromptsChanged   EventKind = "prompts_changed"   // notifications/prompts/list_changed
	EventResourceUpdated  EventKind = "resource_updated"  // notifications/resources/updated; Text is the URI
	EventRequest          EventKind = "request"           // the server asked mcpsh for something, and what came of it
)

// Event is something the server did outside any call. Events are delivered on
// a buffered channel and never block the SDK: when nobody reads, they are
// dropped and counted.
type Event struct {
	Kind   EventKind
	Time   time.Time
	Level  string // log level, for EventLog
	Logger string
	Text   string
	// Data is a log message's data as the server sent it (EventLog), its
	// known secrets taken out (Target.RedactJSON), for a caller that passes
	// it on; Text is the same made into one redacted line.
	Data json.RawMessage
}

// Progress is one progress notification for a call in flight.
type Progress struct {
	Progress float64
	Total    float64 // 0 when unknown
	Message  string
}

func (s *Session) emit(e Event) {
	if e.Time.IsZero() {
		e.Time = s.now()
	}
	if s.opts.OnEvent != nil {
		s.opts.OnEvent(e)
	}
	select {
	case s.events <- e:
	default:
		s.dropped.Add(1)
	}
}

// Events delivers server events. Read it from one goroutine. It is never
// closed (emit may run until the last transport goroutine ends): a reader
// also waits on Done.
func (s *Session) Events() <-chan Event { return s.events }

// Done is closed once the session is closed: no event that matters follows.
func (s *Session) Done() <-chan struct{} { return s.life.Done() }

// DroppedEvents counts events lost because the channel was full.
func (s *Session) DroppedEvents() int64 { return s.dropped.Load() }

func logText(data any) string {
	switch v := data.(type) {
	case string:
		return v
	case nil:
		return ""
	}
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Sprint(data)
	}
	return string(b)
}

// stderrLog keeps the tail of a stdio server's stderr, turns each line into an
// event, and copies each line, made safe for a terminal, to tee when the user
// asked (Options.ServerStderr). Nothing reaches the terminal otherwise: a TUI would
// be drawn over.
type stderrLog struct {
	mu      sync.Mutex
	partial []byte
	lines   []string
	max     int
	tee     io.Writer
	emit    func(Event)
	// redact takes the target's secrets out of each line: a server that
	// echoes its token must not put it on the screen or in a pane.
	redact func(string) string
}

func (l *stderrLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		l.addLine(string(bytes.TrimRight(l.partial[:i], "\r")))
		l.partial = l.partial[i+1:]
	}
	// A server that never writes a newline must not grow the buffer without end.
	if len(l.partial) > 64<<10 {
		l.addLine(string(l.partial))
		l.partial = nil
	}
	return len(p), nil
}

func (l *stderrLog) addLine(s string) {
	if l.redact != nil {
		s = l.redact(s)
	}
	if l.tee != nil {
		_, _ = io.WriteString(l.tee, termtext.Sanitize(s)+"\n")
	}
	l.lines = append(l.lines, s)
	if len(l.lines) > l.max {
		l.lines = l.lines[len(l.lines)-l.max:]
	}
	if l.emit != nil {
		l.emit(Event{Kind: EventStderr, Text: s})
	}
}

// Tail returns up to n of the last lines.
func (l *stderrLog) Tail(n int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n > len(l.lines) {
		n = len(l.lines)
	}
	return append([]string(nil), l.lines[len(l.lines)-n:]...)
}
