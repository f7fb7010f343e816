package ui

import "github.com/mcpsh/mcpsh/client"

// Every server exchange is a command whose answer carries the ID of the request
// that asked for it, so an answer that arrives late, after the user moved on, is
// recognised and dropped.

// connectedMsg answers a connect request: the session with its tools listed.
type connectedMsg struct {
	id      int
	session *client.Session
	listing *client.Listing
	err     error
}

// listedMsg answers a tools/list refresh.
type listedMsg struct {
	id      int
	listing *client.Listing
	err     error
}

// eventMsg is one server event from the session's channel.
type eventMsg struct{ event client.Event }

// eventsClosedMsg says the session's event channel will say nothing more.
type eventsClosedMsg struct{}

// progressMsg is a progress notification for the call with this ID.
type progressMsg struct {
	id       int
	progress client.Progress
}

// retryMsg says the call with this ID failed an attempt and will try again.
type retryMsg struct {
	id     int
	notice client.RetryNotice
}

// callDoneMsg is the outcome of the call with this ID.
type callDoneMsg struct {
	id      int
	outcome *client.Outcome
	err     error
}

// callUpdatesDoneMsg says a call's update channel is finished with.
type callUpdatesDoneMsg struct{ id int }

// logLevelSetMsg answers the request for log notifications.
type logLevelSetMsg struct{ err error }
