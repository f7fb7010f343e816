package client

import (
	"encoding/json"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// Status is how a call ended.
type Status string

const (
	StatusOK        Status = "ok"
	StatusToolError Status = "tool_error" // the tool ran and answered isError
	StatusFailed    Status = "failed"     // connect, transport or protocol failure
	StatusRefused   Status = "refused"    // policy or the user said no; nothing was sent
	StatusCancelled Status = "cancelled"  // the user interrupted it
	// StatusTask: the server runs the call as a task, and the caller did
	// not wait for it (Call.Detach); Outcome.Task names it.
	StatusTask Status = "task"
)

// Flags are a tool's effective hints.
type Flags struct {
	ReadOnly    bool `json:"readOnly"`
	Destructive bool `json:"destructive"`
	Idempotent  bool `json:"idempotent"`
	OpenWorld   bool `json:"openWorld"`
}

func flagsOf(e policy.Effective) Flags {
	return Flags{ReadOnly: e.ReadOnly, Destructive: e.Destructive, Idempotent: e.Idempotent, OpenWorld: e.OpenWorld}
}

// Attempt is one sending of a call.
type Attempt struct {
	N          int     `json:"n"`
	DurationMS float64 `json:"durationMs"`
	// Failure is the failure class, empty when the attempt got an answer.
	Failure string `json:"failure,omitempty"`
	Error   string `json:"error,omitempty"`
	// WaitMS is the pause before the next attempt, if there is one.
	WaitMS float64 `json:"waitMs,omitempty"`
	// Round is the round this attempt sent, when the server asked for more
	// input before it (SEP-2322); 0 for the first.
	Round int `json:"round,omitempty"`
}

// Outcome is the record of one call: what was asked, what policy decided and
// why, every attempt, and how it ended. It is the machine-readable output of a call
// and, without content, one line of the session log.
type Outcome struct {
	Time   time.Time `json:"time"`
	Server string    `json:"server"`
	Via    string    `json:"via"`
	// Protocol is the MCP protocol version the session speaks.
	Protocol   string                     `json:"protocol,omitempty"`
	Tool       string                     `json:"tool"`
	Title      string                     `json:"title"`
	Class      policy.Class               `json:"class"`
	Flags      Flags                      `json:"flags"`
	Declared   map[string]json.RawMessage `json:"declared"`
	Trust      policy.Trust               `json:"trust"`
	Decision   policy.Verdict             `json:"decision"`
	Reason     string                     `json:"reason"`
	ApprovedBy policy.Approver            `json:"approvedBy,omitempty"`
	// Need is what a refused call lacked (policy.Need), for the caller to
	// say how a person can let it run.
	Need policy.Need `json:"need,omitempty"`
	Rule string      `json:"rule,omitempty"`
	// Basis says, for each hint that bears on the tool, what the server
	// declared, the value the decision used and why (policy.Basis); absent
	// from entries written before it was recorded.
	Basis      []policy.Basis `json:"basis,omitempty"`
	ReplaySafe bool           `json:"replaySafe"`
	// OpenWorld flags the call for review: the tool may reach outside entities,
	// or the server is untrusted so its claim otherwise is not believed.
	OpenWorld  bool      `json:"openWorld"`
	Attempts   []Attempt `json:"attempts"`
	Status     Status    `json:"status"`
	DurationMS float64   `json:"durationMs"`
	ResultSize int       `json:"resultSize"`
	IsError    bool      `json:"isError"`
	// Content is the result's content array exactly as the server sent it.
	Content           json.RawMessage `json:"content,omitempty"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	// Conflict: the server declared readOnlyHint and destructiveHint both true;
	// the stricter reading (destructive) decided.
	Conflict bool `json:"conflict,omitempty"`
	// HintsChanged says how the server re-declared the tool's hints after it
	// was listed (a tools/list_changed, or a restart); the decision is made on
	// the new ones.
	HintsChanged string `json:"hintsChanged,omitempty"`
	// Rounds counts the rounds sent when the server answered with requests
	// for more input and the call was sent again with the answers (protocol
	// 2026-07-28, SEP-2322); 0 when the server answered the first. Rounds are
	// not attempts: a retry sends a round again.
	Rounds int `json:"rounds,omitempty"`
	// RoundNotSent is the round that was not sent, and why is in Reason and
	// Error: the decision made again before it was not to run, or the tool
	// was gone. The rounds before it reached the server.
	RoundNotSent int `json:"roundNotSent,omitempty"`
	// Task is the task the server ran the call as, as last seen: its ID,
	// and the status the call ended with. A call whose task was created is
	// never sent again.
	Task *Task `json:"task,omitempty"`
	// OutputSchemaError says how structuredContent breaks the tool's output schema.
	OutputSchemaError string `json:"outputSchemaError,omitempty"`
	Error             string `json:"error,omitempty"`
	// LogError says the session log could not record this call.
	LogError string `json:"logError,omitempty"`
	// Host is the agent's host a proxy made the call for (its claim), and
	// Proxy marks such a call.
	Host  *Peer `json:"host,omitempty"`
	Proxy bool  `json:"proxy,omitempty"`

	// Args are the arguments sent; the session log redacts them.
	Args map[string]any `json:"-"`
	// Result is the parsed result, when there is one.
	Result *Result `json:"-"`
	// Err is the failure behind Status, typed for exit codes.
	Err error `json:"-"`
}

// RefusedError is a call that policy or the user refused; it was not sent.
type RefusedError struct {
	Tool   string
	Reason string
}

func (e *RefusedError) Error() string { return "refused " + termtext.Line(e.Tool) + ": " + e.Reason }

func (s *Session) newOutcome(c *Call, t *Tool, d policy.Decision) *Outcome {
	label, via := s.shown()
	return &Outcome{
		Time:       s.now(),
		Server:     label,
		Via:        via,
		Protocol:   s.current().protocol(),
		Tool:       t.Name,
		Title:      t.Title,
		Class:      t.Class(),
		Flags:      flagsOf(t.Effective()),
		Declared:   t.Declared,
		Conflict:   t.Hints.Conflict(),
		Trust:      s.Target.Trust,
		Decision:   d.Verdict,
		Reason:     d.Reason,
		ApprovedBy: d.By,
		Need:       d.Need,
		Rule:       d.Rule,
		Basis:      d.Basis,
		ReplaySafe: d.ReplaySafe,
		OpenWorld:  d.OpenWorld,
		Attempts:   []Attempt{},
		Args:       c.Args,
		Host:       c.Host,
		Proxy:      c.Host != nil,
	}
}

// shown is how outcomes name the server and how it is reached, worked out
// once: the target does not change under a session, and redacting its
// command line for every call would be work for nothing.
func (s *Session) shown() (label, via string) {
	s.shownOnce.Do(func() { s.label, s.via = s.Target.Label(), s.Target.Via() })
	return s.label, s.via
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
