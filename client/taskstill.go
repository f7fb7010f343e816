package client

import (
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stillness is the call's timeout over a followed task: the time the task
// may go without moving (a change of status or message, progress on the
// call's token). While one of its questions is put to an answerer it does
// not run: a person may take minutes to answer, and the task waits for
// them, not the other way round; it starts afresh once they answered.
type stillness struct {
	mu     sync.Mutex
	after  time.Duration
	t      *time.Timer
	asking int
}

// start arms the bound; fire runs when it passes. A nil stillness or a
// bound of 0 bounds nothing.
func (st *stillness) start(after time.Duration, fire func()) {
	if st == nil || after <= 0 {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.after = after
	st.t = time.AfterFunc(after, fire)
	if st.asking > 0 {
		st.t.Stop()
	}
}

// stop disarms it for good: the follow is over.
func (st *stillness) stop() {
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.t != nil {
		st.t.Stop()
		st.t = nil
	}
}

// moved restarts the bound: the task moved.
func (st *stillness) moved() {
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.t != nil && st.asking == 0 {
		st.t.Reset(st.after)
	}
}

// ask stops the bound while a question is answered; the function it
// returns restarts it (once the last open question is answered).
func (st *stillness) ask() (answered func()) {
	if st == nil {
		return func() {}
	}
	st.mu.Lock()
	st.asking++
	if st.t != nil {
		st.t.Stop()
	}
	st.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			st.mu.Lock()
			defer st.mu.Unlock()
			st.asking--
			if st.asking == 0 && st.t != nil {
				st.t.Reset(st.after)
			}
		})
	}
}

// relatedTaskKey is the _meta member a 2025-11-25 server puts on a request
// it sends about a task.
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// askingAbout pauses the timeouts of the 2025-11-25 tasks a server's request
// (elicitation, sampling) is about, while it is answered: the task its _meta
// names when it names one mcpsh follows, else every task followed on the
// session (the request came while their tasks/result waited, and mcpsh
// cannot tell which asked). go-sdk hands such a request to mcpsh's handler
// with nothing that ties it to the tasks/result it came on.
func (s *Session) askingAbout(meta mcp.Meta) (answered func()) {
	named := ""
	if rt, ok := meta[relatedTaskKey].(map[string]any); ok {
		named, _ = rt["taskId"].(string)
	}
	if named != "" {
		known := false
		s.followed.Range(func(_, v any) bool {
			known = v.(string) == named
			return !known
		})
		if !known {
			named = ""
		}
	}
	var about []func()
	s.followed.Range(func(k, v any) bool {
		if named == "" || v.(string) == named {
			about = append(about, k.(*stillness).ask())
		}
		return true
	})
	return func() {
		for _, f := range about {
			f()
		}
	}
}
