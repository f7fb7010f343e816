package ui

import (
	"context"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/mcpsh/mcpsh/client"
)

// Options configure the TUI.
type Options struct {
	// Target is the server to open; when nil, the user picks one of Choices.
	Target  *client.Target
	Choices []Choice
	// Client configures the session. Its ServerStderr and OnWarning must be
	// nil: nothing may write over the screen. Unless set, its Elicit, ElicitURL
	// and Sample are the view's: the user answers a server's requests.
	Client client.Options
	// ConnectTimeout bounds starting the server and the handshake;
	// DefaultConnectTimeout when zero.
	ConnectTimeout time.Duration
	// Yes, ReadOnly and the limits are the flags the user gave, as in batch mode.
	Yes, ReadOnly bool
	Timeout       time.Duration
	MaxDuration   time.Duration
	Attempts      int
	RetryMax      time.Duration
	// LogPath is the session log's file, shown in the log pane; empty when off.
	LogPath string
	// NoColor draws without colour (NO_COLOR).
	NoColor bool
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Login, when set, gives an Auth that can log in with a browser, for
	// the failure screen to offer when a server asks for a login
	// (Client.Auth cannot: its notices would print under the screen).
	// Its Notify is replaced: the view shows what it says. It is called in
	// Update, so it must not do I/O (the login itself runs in a command).
	Login func(client.Target) *client.Auth
	// OpenBrowser opens a URL the user chose to open (a server's URL
	// elicitation); client.OpenBrowser(os.LookupEnv) when nil.
	OpenBrowser func(ctx context.Context, url string) error
}

// Choice is a configured server offered by the picker.
type Choice struct {
	Name, Transport, Where string
	// Problem, when set, is why the server cannot be used as configured.
	Problem string
	Target  client.Target
	// Auth is the OAuth configuration for this server, when it has one, and
	// Roots the directories it may see: Client's are for Options.Target.
	Auth  *client.Auth
	Roots []client.Root
}

// Run shows the TUI until the user quits, then closes the session (and with
// it a stdio server's whole process group).
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	// Nothing may write over the screen: the server's stderr and mcpsh's
	// warnings reach the server pane as events instead.
	opts.Client.ServerStderr, opts.Client.OnWarning = nil, nil
	m := New(ctx, opts)
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out)}
	if opts.NoColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	_, err := tea.NewProgram(m, popts...).Run()
	m.inbox.close() // a server's requests still waiting get no answer now
	if m.running != nil {
		m.running.cancel()
	}
	m.abandonConnect()
	if s := m.Session(); s != nil {
		s.Close()
	}
	if err == tea.ErrProgramKilled && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// Init starts reading the inbox (a server's requests, OAuth notices) and
// connecting, unless the user must pick a server first.
func (m *Model) Init() tea.Cmd {
	inbox := waitInbox(m.inbox)
	if m.mode == modePicker || m.target == nil {
		return inbox
	}
	return tea.Batch(inbox, m.connect())
}

// DefaultConnectTimeout is the batch commands' default too.
const DefaultConnectTimeout = 30 * time.Second

func (m *Model) connect() tea.Cmd { return m.connectWith(m.connectTimeout()) }

func (m *Model) connectTimeout() time.Duration {
	if m.opts.ConnectTimeout > 0 {
		return m.opts.ConnectTimeout
	}
	return DefaultConnectTimeout
}

func (m *Model) connectWith(timeout time.Duration) tea.Cmd {
	m.abandonConnect()
	m.mode, m.connErr = modeConnecting, nil
	m.connReq = m.nextID()
	opts := m.opts.Client
	opts.Auth = m.auth
	if m.choice != nil {
		opts.Roots = m.choice.Roots
	}
	ctx, cancel := context.WithTimeout(m.ctx, timeout)
	m.connecting = &connecting{cancel: cancel, done: make(chan struct{})}
	return tea.Batch(connectCmd(ctx, m.connReq, *m.target, &opts, m.connecting.done), m.spinner.Tick)
}

// connecting is a connect command in flight.
type connecting struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when the command has returned
}

// abandonConnect stops a connect in flight and waits for it to finish, so a
// stdio server being started is ended with its whole process group before
// mcpsh exits, not left behind.
func (m *Model) abandonConnect() {
	c := m.connecting
	if c == nil {
		return
	}
	m.connecting = nil
	c.cancel()
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
	}
}
