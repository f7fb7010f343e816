package ui

import (
	"context"
	"io"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

// Options configure the TUI.
type Options struct {
	// Target is the server to open alone; when nil, the view opens every
	// one of Choices at once (a workspace), each connecting on its own.
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
	// LogPath is the session log's file, shown in the log pane; empty when
	// off. There is one log for the whole workspace.
	LogPath string
	// LogArgs is how much of a call's arguments the log keeps (--log-args),
	// so the log pane says what an opened call's arguments are; "" is the
	// default, redact.
	LogArgs sessionlog.ArgsMode
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

// Choice is a configured server of the workspace.
type Choice struct {
	Name, Transport, Where string
	// Origin is where the server was configured, such as "cursor
	// (~/.cursor/mcp.json)"; the picker shows it.
	Origin string
	// Problem, when set, is why the server cannot be used as configured.
	Problem string
	Target  client.Target
	// Auth is the OAuth configuration for this server, when it has one, and
	// Roots the directories it may see: Client's are for Options.Target.
	Auth  *client.Auth
	Roots []client.Root
}

// Run shows the TUI until the user quits, then closes the sessions (and
// with them each stdio server's whole process group).
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
	m.Close()
	if err == tea.ErrProgramKilled && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// Close ends what the view started, once it is off the screen: requests
// still waiting get no answer, calls in flight are cancelled (and waited
// for, so a task's server hears it cancelled), connects in flight are
// stopped and waited for, and every session is closed, the servers in
// parallel.
func (m *Model) Close() {
	m.inbox.close()
	var pending []*connecting
	var calls []*callRun
	for _, s := range m.servers {
		if s.running != nil {
			s.running.cancel()
			if s.running.run.begun.Load() {
				calls = append(calls, s.running.run)
			}
		}
		if s.connecting != nil {
			pending = append(pending, s.connecting)
			s.connecting = nil
		}
		pending = append(pending, s.abandoned...)
		s.abandoned = nil
	}
	for _, c := range pending {
		c.cancel()
	}
	give := time.After(5 * time.Second)
	for _, c := range pending {
		select {
		case <-c.done:
		case <-give:
		}
	}
	// A call cancelled above ends in moments; one the server runs as a task
	// first asks the server to cancel the task (tasks/cancel), which needs
	// the session open.
	give = time.After(callEndWait)
	for _, r := range calls {
		select {
		case <-r.done:
		case <-give:
		}
	}
	var wg sync.WaitGroup
	for _, s := range append(m.Sessions(), m.retired...) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Close()
		}()
	}
	wg.Wait()
}

// Init starts reading the inbox (the servers' requests, OAuth notices) and
// every server: each connects in its own command.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{waitInbox(m.inbox), tea.RequestBackgroundColor}
	for _, s := range m.servers {
		cmds = append(cmds, s.start())
	}
	return tea.Batch(cmds...)
}

// callEndWait bounds how long Close waits for the calls it cancelled: longer
// than the client gives tasks/cancel (5 s), so the server hears it.
const callEndWait = 6 * time.Second

// DefaultConnectTimeout is the batch commands' default too.
const DefaultConnectTimeout = 30 * time.Second

func (s *serverState) connect() tea.Cmd { return s.connectWith(s.connectTimeout()) }

func (s *serverState) connectTimeout() time.Duration {
	if s.opts.ConnectTimeout > 0 {
		return s.opts.ConnectTimeout
	}
	return DefaultConnectTimeout
}

// connectWith connects the server, unless it may not be
// started (startProblem: every way of starting one comes through here). Its
// session answers the
// server's requests through the inbox, naming the server, and its traffic
// goes to the server's traffic pane (and to Options.Client.Trace).
func (s *serverState) connectWith(timeout time.Duration) tea.Cmd {
	if p := s.startProblem(); p != "" {
		s.status, s.mode = p, modeConnectFailed
		return nil
	}
	s.dropConnect()
	s.closeConfirm() // decided on the session being replaced
	s.mode, s.connErr = modeConnecting, nil
	s.connReq = s.nextID()
	opts := s.opts.Client
	opts.Auth = s.auth
	opts.Roots = s.spec.Roots
	if s.viewElicit {
		opts.Elicit, opts.ElicitURL = s.inbox.elicitFor(s), true
	}
	if s.viewSample {
		opts.Sample = s.inbox.sampleFor(s)
	}
	opts.Trace = s.traffic.Tracer(s.opts.Client.Trace)
	ctx, cancel := context.WithTimeout(s.ctx, timeout)
	s.connecting = &connecting{cancel: cancel, done: make(chan struct{})}
	return tea.Batch(s.cmd(connectCmd(ctx, s.connReq, *s.target, &opts, s.connecting.done)), s.spinner.Tick)
}

// connecting is a connect command in flight.
type connecting struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when the command has returned
}

// dropConnect stops a connect in flight without waiting for it (Update must
// not wait): its answer is dropped by its request ID, and Close waits for it.
func (s *serverState) dropConnect() {
	live := s.abandoned[:0]
	for _, c := range s.abandoned {
		select {
		case <-c.done:
		default:
			live = append(live, c)
		}
	}
	s.abandoned = live
	if c := s.connecting; c != nil {
		s.connecting = nil
		c.cancel()
		s.abandoned = append(s.abandoned, c)
	}
}
