package console

import (
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// Version is the version of the protocol this package speaks.
const Version = 1

// MaxLine bounds one message either way. A longer line ends the link.
const MaxLine = 4 << 20

// Message is one line of the link; Type says which of the others is set.
type Message struct {
	Type     string     `json:"type"`
	Version  int        `json:"version,omitempty"`
	Proxy    *Info      `json:"proxy,omitempty"`
	Call     *CallEvent `json:"call,omitempty"`
	Question *Question  `json:"question,omitempty"`
	Closed   *Closed    `json:"closed,omitempty"`
	Dropped  int        `json:"dropped,omitempty"`
	Answer   *Answer    `json:"answer,omitempty"`
	Error    string     `json:"error,omitempty"`
	// Token is the proxy's token, in a console's hello on the token link.
	Token string `json:"token,omitempty"`
}

// Message types.
const (
	TypeHello    = "hello"
	TypeProxy    = "proxy"
	TypeCall     = "call"
	TypeQuestion = "question"
	TypeClosed   = "closed"
	TypeDropped  = "dropped"
	TypeAnswer   = "answer"
	TypeError    = "error"
)

// Info is a running proxy: its registration, and its hello.
type Info struct {
	// ID names the entry and the socket in the folder.
	ID      string    `json:"id"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
	// Socket is the proxy's Unix domain socket; Addr its loopback address
	// on the token link (Windows). One of the two.
	Socket string `json:"socket,omitempty"`
	Addr   string `json:"addr,omitempty"`
	// Mcpsh is the proxy's mcpsh version.
	Mcpsh string `json:"mcpsh,omitempty"`
	// Host is the agent's host, as it introduced itself (its claim), once
	// it has.
	Host   *client.Peer `json:"host,omitempty"`
	Server Server       `json:"server"`
}

// Server is the server a proxy fronts.
type Server struct {
	// Name is the server's name as configured (Target.Label).
	Name string `json:"name"`
	// Transport is how the proxy reaches it: stdio, http, sse.
	Transport string `json:"transport"`
	// Protocol is the version the proxy's session with it speaks, once
	// connected.
	Protocol string `json:"protocol,omitempty"`
}

// Call events.
const (
	CallStarted = "started"
	CallDecided = "decided"
	CallEnded   = "ended"
)

// CallEvent is a call of the host's as it starts, as it is decided, as it
// ends. Every text in it is the server's or the host's: make it safe
// before showing it.
type CallEvent struct {
	Event string    `json:"event"`
	ID    uint64    `json:"id"`
	Time  time.Time `json:"time"`
	// Started.
	Tool  string       `json:"tool,omitempty"`
	Title string       `json:"title,omitempty"`
	Class policy.Class `json:"class,omitempty"`
	// Facets are the marks the tool list shows, as policy's words
	// (idempotent, open-world, implied, conflict).
	Facets    []string     `json:"facets,omitempty"`
	OpenWorld bool         `json:"openWorld,omitempty"`
	Host      *client.Peer `json:"host,omitempty"`
	// Args are the arguments as the session log keeps them.
	Args any `json:"args,omitempty"`
	// Decision is policy's verdict: before anyone is asked (started), and
	// final (decided).
	Decision   policy.Verdict  `json:"decision,omitempty"`
	ApprovedBy policy.Approver `json:"approvedBy,omitempty"`
	Reason     string          `json:"reason,omitempty"`
	Rule       string          `json:"rule,omitempty"`
	Basis      []policy.Basis  `json:"basis,omitempty"`
	// Ended.
	Status     client.Status `json:"status,omitempty"`
	DurationMS float64       `json:"durationMs,omitempty"`
	Attempts   int           `json:"attempts,omitempty"`
	Error      string        `json:"error,omitempty"`
}

// Question is a call that waits for a person: everything the confirmation
// shows.
type Question struct {
	ID string `json:"id"`
	// Call is the call's id in the proxy's call events.
	Call   uint64       `json:"call"`
	Tool   string       `json:"tool"`
	Title  string       `json:"title,omitempty"`
	Server string       `json:"server"`
	Host   client.Peer  `json:"host"`
	Class  policy.Class `json:"class"`
	Facets []string     `json:"facets,omitempty"`
	// OpenWorld: the call may reach outside entities (or the server is
	// untrusted, and its claim otherwise is not believed).
	OpenWorld bool `json:"openWorld,omitempty"`
	// Why mcpsh asks, and the basis of each hint.
	Why   string         `json:"why"`
	Rule  string         `json:"rule,omitempty"`
	Basis []policy.Basis `json:"basis,omitempty"`
	// Args are all the arguments, redacted as the session log redacts them.
	Args any `json:"args"`
	// Text is the question as the host's user would read it.
	Text string `json:"text"`
	// Deadline is when the proxy stops waiting and refuses.
	Deadline time.Time `json:"deadline"`
}

// How a question closed.
const (
	ClosedAnswered  = "answered"
	ClosedWithdrawn = "withdrawn"
)

// Closed says a question is no longer open.
type Closed struct {
	Question string `json:"question"`
	How      string `json:"how"`
	// Choice is the answer that won (answered).
	Choice Choice `json:"choice,omitempty"`
	// Yours: this console's answer won.
	Yours bool `json:"yours,omitempty"`
	// Why it was withdrawn.
	Why string `json:"why,omitempty"`
}

// Choice is a console's answer to a question.
type Choice string

const (
	Run    Choice = "run"
	Refuse Choice = "refuse"
	// Allow runs the call and lets later calls of the tool in the host's
	// session run unasked, while its hints stay as shown.
	Allow Choice = "allow"
)

// Answer is a console's answer.
type Answer struct {
	Question string `json:"question"`
	Choice   Choice `json:"choice"`
}
