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
	// Client configures the session. Its ServerStderr must be nil: nothing
	// from the server may write over the screen.
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
}

// Choice is a configured server offered by the picker.
type Choice struct {
	Name, Transport, Where string
	// Problem, when set, is why the server cannot be used as configured.
	Problem string
	Target  client.Target
}

// Run shows the TUI until the user quits, then closes the session (and with
// it a stdio server's whole process group).
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	opts.Client.ServerStderr = nil
	m := New(ctx, opts)
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out)}
	if opts.NoColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	_, err := tea.NewProgram(m, popts...).Run()
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

// Init starts connecting, unless the user must pick a server first.
func (m *Model) Init() tea.Cmd {
	if m.mode == modePicker || m.target == nil {
		return nil
	}
	return m.connect()
}

// DefaultConnectTimeout is the batch commands' default too.
const DefaultConnectTimeout = 30 * time.Second

func (m *Model) connect() tea.Cmd {
	m.abandonConnect()
	m.mode, m.connErr = modeConnecting, nil
	m.connReq = m.nextID()
	opts := m.opts.Client
	timeout := m.opts.ConnectTimeout
	if timeout <= 0 {
		timeout = DefaultConnectTimeout
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
