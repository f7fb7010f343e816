// Package watch is mcpsh watch's full-screen view: every running mcpsh
// proxy of this user's, each one's calls as they happen, and the calls
// that wait for a person, answered here with the confirmation the
// interactive view shows before a call.
//
// It never blocks: the watcher's events reach Update as messages of a
// re-armed command, answers go back to the proxies in commands, and View
// only reads the model. Every text in an event is a server's or a host's:
// it is made safe (internal/termtext) wherever it is drawn.
package watch

import (
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/console"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// DefaultArmAfter is how long a question is on screen before its keys
// answer it.
const DefaultArmAfter = 600 * time.Millisecond

// Options configure the view.
type Options struct {
	// Events are what the watcher sees (console.Watcher.Events).
	Events <-chan console.Event
	// Answer answers a proxy's question (console.Watcher.Answer). It writes
	// to the proxy's socket, so it runs in a command, never in Update.
	Answer func(proxy, question string, c console.Choice) error
	// NoColor draws without colour (NO_COLOR).
	NoColor bool
	// Now is the clock; time.Now when nil. Location is where times are
	// shown; time.Local when nil.
	Now      func() time.Time
	Location *time.Location
	// ArmAfter is how long a question is on screen before y, n, esc or a
	// answer it: it comes up unbidden, while the person may be typing for
	// the list; DefaultArmAfter when zero.
	ArmAfter time.Duration
}

// Model is the view.
type Model struct {
	opts   Options
	st     *style.Styles
	keys   *keymap.KeyMap
	width  int
	height int

	state state
	// ended: the watcher's events ended.
	ended bool

	// sel is the proxy whose calls are shown; nil for all of them.
	sel *proxy
	// shown are the calls that pass the filter, newest first; cur is the
	// one under the cursor (nil: the newest, followed as calls come), top
	// the first row on screen.
	shown  []*call
	cur    *call
	cursor int
	top    int

	filter filter
	typing bool
	in     textinput.Model

	// open is the call opened with enter.
	open   *call
	detail scroll.Pane

	help     bool
	helpPane scroll.Pane

	// dialog is the question on screen; armed once it has been there
	// ArmAfter (armSeq tells its arming from an earlier dialog's), argTop
	// the first line of its arguments shown.
	dialog *question
	armed  bool
	armSeq int
	argTop int
	// answered are the questions this console answered, until the proxy
	// says whose answer won.
	answered map[questionKey]console.Choice

	notice notice
	// tick is tea.Tick; a test that decides when a dialog is armed
	// replaces it.
	tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
}

type questionKey struct{ proxy, id string }

// Messages.
type (
	eventsMsg      []console.Event
	eventsEndedMsg struct{}
	armMsg         struct{ seq int }
	answeredMsg    struct {
		key    questionKey
		choice console.Choice
		err    error
	}
)

// New is the view before any event.
func New(o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	if o.ArmAfter <= 0 {
		o.ArmAfter = DefaultArmAfter
	}
	st := style.NewStyles(theme.Dark(), o.NoColor)
	in := textinput.New()
	in.Prompt = "/ "
	in.Placeholder = "tool, glob or host:GLOB"
	in.SetStyles(st.TextInput())
	return &Model{opts: o, st: st, keys: keymap.Default(), state: newState(), in: in,
		answered: map[questionKey]console.Choice{}, width: 80, height: 24, tick: tea.Tick}
}

// Init asks the terminal its background and starts reading events.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, m.wait())
}

// eventBatch is how many events one message carries at most: a proxy
// making a thousand calls a second is drawn in batches, not a frame each.
const eventBatch = 256

// wait is the command that hands the next events to Update.
func (m *Model) wait() tea.Cmd {
	ch := m.opts.Events
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		e, ok := <-ch
		if !ok {
			return eventsEndedMsg{}
		}
		batch := eventsMsg{e}
		for len(batch) < eventBatch {
			select {
			case e, ok := <-ch:
				if !ok {
					return batch
				}
				batch = append(batch, e)
			default:
				return batch
			}
		}
		return batch
	}
}

// answer sends a person's answer to a question, in a command: it writes
// to the proxy's socket.
func (m *Model) answer(q *question, c console.Choice) tea.Cmd {
	fn, k := m.opts.Answer, questionKey{q.proxy.id, q.q.ID}
	return func() tea.Msg {
		if fn == nil {
			return answeredMsg{key: k, choice: c, err: errNoAnswer}
		}
		return answeredMsg{key: k, choice: c, err: fn(k.proxy, k.id, c)}
	}
}

// Update takes one message, then lays out what View draws next.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.prepare()
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return nil
	case tea.BackgroundColorMsg:
		if m.st.SetBackground(msg.IsDark()) {
			m.in.SetStyles(m.st.TextInput())
		}
		return nil
	case eventsMsg:
		for _, e := range msg {
			m.take(e)
		}
		return tea.Batch(m.wait(), m.nextDialog())
	case eventsEndedMsg:
		m.ended = true
		return nil
	case armMsg:
		if m.dialog != nil && msg.seq == m.armSeq {
			m.armed = true
		}
		return nil
	case answeredMsg:
		if msg.err != nil {
			delete(m.answered, msg.key)
			m.notice = notice{text: "your answer did not reach the proxy: " + msg.err.Error(), warn: true}
		}
		return nil
	case tea.KeyPressMsg:
		return m.onKey(msg)
	case tea.PasteMsg:
		if m.typing {
			var cmd tea.Cmd
			m.in, cmd = m.in.Update(msg)
			m.setFilterText()
			return cmd
		}
	}
	if m.typing {
		var cmd tea.Cmd
		m.in, cmd = m.in.Update(msg)
		return cmd
	}
	return nil
}

// take applies one event, and closes the dialog when its question closed.
func (m *Model) take(e console.Event) {
	closed, why := m.state.apply(e)
	if e.Kind == console.ProxyEnded && m.sel != nil && m.sel.id == e.Proxy {
		m.sel = nil
	}
	if m.open != nil && m.state.byKey[callKey{m.open.proxy.id, m.open.id}] != m.open {
		m.open = nil // its proxy ended, or it was the oldest of too many
	}
	if m.cur != nil && m.state.byKey[callKey{m.cur.proxy.id, m.cur.id}] != m.cur {
		m.cur = nil
	}
	if e.Kind == console.QuestionClosed && e.Closed != nil {
		k := questionKey{e.Proxy, e.Closed.Question}
		if mine, ok := m.answered[k]; ok {
			delete(m.answered, k)
			if e.Closed.How == console.ClosedAnswered && !e.Closed.Yours {
				m.notice = notice{text: "another console answered first (" + choiceWords(e.Closed.Choice) + "): your " + choiceWords(mine) + " was not used", warn: true}
			}
			return
		}
	}
	if closed == nil || closed != m.dialog {
		return
	}
	m.dialog = nil
	tool := toolName(closed.q.Tool)
	switch {
	case why != "":
		m.notice = notice{text: tool + ": " + why, warn: true}
	case e.Closed != nil && e.Closed.How == console.ClosedAnswered:
		m.notice = notice{text: "another console answered " + tool + " first: " + choiceWords(e.Closed.Choice), warn: true}
	case e.Closed != nil:
		m.notice = notice{text: tool + "'s question was withdrawn: " + lineOf(e.Closed.Why), warn: true}
	}
}

// nextDialog puts the next question on screen when none is, and nothing
// is being typed: the oldest of the proxy shown, else the oldest of all.
// Its keys answer only once it has been on screen ArmAfter.
func (m *Model) nextDialog() tea.Cmd {
	if m.dialog != nil || m.typing || len(m.state.questions) == 0 {
		return nil
	}
	next := m.state.questions[0]
	for _, q := range m.state.questions {
		if q.proxy == m.sel {
			next = q
			break
		}
	}
	m.dialog, m.armed, m.argTop, m.help = next, false, 0, false
	m.armSeq++
	seq := m.armSeq
	return m.tick(m.opts.ArmAfter, func(time.Time) tea.Msg { return armMsg{seq: seq} })
}

// choiceWords say what an answer did.
func choiceWords(c console.Choice) string {
	switch c {
	case console.Run:
		return "run"
	case console.Allow:
		return "allowed for the session"
	case console.Refuse:
		return "refused"
	}
	return lineOf(string(c))
}
