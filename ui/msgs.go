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

// sessionEventMsg is an event with the session it came from: after a
// reconnect, the old session's last events are dropped, and not read further.
type sessionEventMsg struct {
	eventMsg
	from *client.Session
}

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

// taskMsg is the task the server runs the call with this ID as: once when it
// is created, then at each change of its status or status message.
type taskMsg struct {
	id   int
	task client.Task
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

// resourcesListedMsg answers resources/list (with the templates).
type resourcesListedMsg struct {
	id      int
	listing *client.ResourceListing
	err     error
}

// promptsListedMsg answers prompts/list.
type promptsListedMsg struct {
	id      int
	listing *client.PromptListing
	err     error
}

// resourceReadMsg answers resources/read of uri.
type resourceReadMsg struct {
	id       int
	uri      string
	contents []client.ResourceContent
	err      error
}

// subscribedMsg answers resources/subscribe (on) or unsubscribe.
type subscribedMsg struct {
	id  int
	uri string
	on  bool
	err error
}

// promptGotMsg answers prompts/get.
type promptGotMsg struct {
	id     int
	result *client.PromptResult
	err    error
}

// completeDueMsg says the user stopped typing long enough for the completion
// request with this ID to be sent.
type completeDueMsg struct{ id int }

// completedMsg answers completion/complete.
type completedMsg struct {
	id         int
	completion *client.Completion
	err        error
}

// openedMsg says whether the browser was started for a URL.
type openedMsg struct {
	id  int
	err error
}

// askMsg is a server's request for the user (elicitation, sampling).
type askMsg struct{ ask *serverAsk }

// askGoneMsg says the request with this ID ended before the user answered:
// the server cancelled it, or its call or the session ended.
type askGoneMsg struct{ id int }

// noticeMsg is something the OAuth flow needs the user to see, from the
// server srv's login (nil: the server on screen).
type noticeMsg struct {
	text string
	srv  *serverState
}
