package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/policy"
	"github.com/spf13/cobra"
)

// These tests build one command, or call its run function, as cli/cli's do:
// runF takes the place of the run function to show what the command line
// parsed into, and a run function called directly takes options the test
// wrote itself.

// parse runs cmd on args with runF in place of its run function, and
// returns what runF was called with (nil when it was not) and the error.
func parse[O any](t *testing.T, newCmd func(*factory, func(context.Context, *O) error) *cobra.Command, args ...string) (*O, error) {
	t.Helper()
	f, _, _ := testFactory(t, env{})
	var got *O
	cmd := newCmd(f, func(_ context.Context, o *O) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.Execute()
	return got, err
}

func TestCallParsesItsCommandLine(t *testing.T) {
	t.Parallel()
	o, err := parse(t, newCallCmd, "add_note", "title=x", "--example", "2", "--timeout", "0", "--retries", "3", "-y", "--json", "--", "srv", "--flag")
	if err != nil {
		t.Fatal(err)
	}
	if o.tool != "add_note" || strings.Join(o.argv, " ") != "title=x" || o.example != 2 || !o.calls.yes || !o.calls.json {
		t.Errorf("tool %q argv %q example %d yes %v json %v", o.tool, o.argv, o.example, o.calls.yes, o.calls.json)
	}
	if strings.Join(o.command, " ") != "srv --flag" {
		t.Errorf("the server's command is %q, want everything after --", o.command)
	}
	// --timeout 0 is no timeout; limits not given stay zero, so the server's
	// configured ones apply.
	if want := (callLimits{timeout: -1, attempts: 3}); o.limits != want {
		t.Errorf("limits %+v, want %+v", o.limits, want)
	}
	if o, err := parse(t, newCallCmd); o != nil || err == nil || !strings.Contains(err.Error(), "call needs a TOOL name") {
		t.Errorf("no tool: ran %v, error %v", o != nil, err)
	}
}

func TestAuditChecksItsFlagsBeforeItRuns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		err  string // "" when the command runs
		want func(*auditOptions) bool
	}{
		{[]string{"--json"}, "", func(o *auditOptions) bool { return o.format == "json" }},
		{[]string{"--probe", "--probe-timeout", "5s"}, "", func(o *auditOptions) bool { return o.probeTimeoutSet && o.probeTimeout == 5*time.Second }},
		{[]string{"--probe-timeout", "5s"}, "--probe-timeout needs --probe", nil},
		{[]string{"--format", "xml"}, `--format "xml": want text, markdown, json or sarif`, nil},
		{[]string{"--fail-on", "loud"}, `--fail-on "loud"`, nil},
		{[]string{"extra"}, "audit takes no arguments before --", nil},
	} {
		o, err := parse(t, newAuditCmd, tt.args...)
		switch {
		case tt.err != "" && (o != nil || err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%q: ran %v, error %v; want %q and no run", tt.args, o != nil, err, tt.err)
		case tt.err == "" && (err != nil || o == nil || !tt.want(o)):
			t.Errorf("%q: error %v, options %+v", tt.args, err, o)
		}
	}
}

func TestLogParsesItsQuery(t *testing.T) {
	t.Parallel()
	o, err := parse(t, newLogCmd, "--since", "2h", "--status", "failed", "--tool", "delete_*", "--open-world", "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	q := o.q
	if o.file != "s.jsonl" || q.filter.Status != "failed" || q.filter.Tool != "delete_*" || !q.filter.OpenWorld || q.filter.Since.IsZero() {
		t.Errorf("file %q, filter %+v", o.file, q.filter)
	}
	if o.every != followEvery {
		t.Errorf("--follow polls every %s, want %s", o.every, followEvery)
	}
	for _, args := range [][]string{{"--as-script", "--json"}, {"--status", "weird"}, {"--session", "x", "s.jsonl"}} {
		if o, err := parse(t, newLogCmd, args...); o != nil || ExitCode(err) != ExitUsage {
			t.Errorf("%q: ran %v, error %v; want a usage error", args, o != nil, err)
		}
	}
}

func TestLoginKnowsWhichFlagsWereGiven(t *testing.T) {
	t.Parallel()
	o, err := parse(t, newLoginCmd, "--client-id", "cli", "--scope", "read write", "--no-browser")
	if err != nil {
		t.Fatal(err)
	}
	// A flag given overrides the config's key, even when it is empty; one
	// not given leaves the key alone.
	if !o.given["client-id"] || !o.given["scope"] || o.given["grant"] || o.given["client-secret"] || !o.noBrowser || o.clientID != "cli" {
		t.Errorf("given %v, flags %+v", o.given, o.loginFlags)
	}
	if o, err := parse(t, newLoginCmd, "tracker"); o != nil || err == nil || !strings.Contains(err.Error(), "login takes no arguments") {
		t.Errorf("an argument: ran %v, error %v", o != nil, err)
	}
}

func TestInteractiveParsesItsCommandLine(t *testing.T) {
	t.Parallel()
	o, err := parse(t, newInteractiveCmd, "--read-only", "--timeout-max", "1m", "--", "srv")
	if err != nil {
		t.Fatal(err)
	}
	if !o.calls.readOnly || o.calls.yes || o.limits != (callLimits{maxDuration: time.Minute}) || strings.Join(o.command, " ") != "srv" {
		t.Errorf("options %+v", o)
	}
	if o, err := parse(t, newInteractiveCmd, "tols"); o != nil || err == nil || !strings.Contains(err.Error(), `unknown command "tols"`) {
		t.Errorf("a mistyped command: ran %v, error %v", o != nil, err)
	}
}

func TestToolsRunListsTheDemosTools(t *testing.T) {
	t.Parallel()
	f, out, _ := testFactory(t, env{})
	f.target.demo = true
	if err := toolsRun(context.Background(), &toolsOptions{f: f, json: true}); err != nil {
		t.Fatal(err)
	}
	var tools []toolJSON
	if err := json.Unmarshal(out.Bytes(), &tools); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	classes := map[string]policy.Class{}
	for _, tl := range tools {
		classes[tl.Name] = tl.Class
	}
	if classes["list_notes"] != policy.ClassReadOnly || classes["delete_note"] != policy.ClassDestructive {
		t.Errorf("classes %v", classes)
	}
}

func TestRunRunPrintsEveryStep(t *testing.T) {
	t.Parallel()
	f, out, errOut := testFactory(t, env{stdin: "list_notes\nget_note id=1\n  expect status ok\n"})
	f.target.demo, f.logs.off = true, true
	if err := runRun(context.Background(), &runOptions{f: f}); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	contains(t, "stdout", out.String(), "[line 1] List notes (list_notes) · ok", "[line 2] Read a note (get_note) · ok")
	contains(t, "stderr", errOut.String(), "2 calls: 2 ok; 1 expectation met")
}

func TestPingRunCountsItsPings(t *testing.T) {
	t.Parallel()
	f, out, errOut := testFactory(t, env{})
	f.target.demo = true
	if err := pingRun(context.Background(), &pingOptions{f: f, count: 3}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "pong from demo in "); n != 3 {
		t.Errorf("%d pongs, want 3:\n%s", n, out)
	}
	contains(t, "stderr", errOut.String(), "min ", "avg ", "max ")
}

// log --follow's pace is its options', so a test need not wait 200 ms a poll.
func TestLogFollowRunPrintsWhatIsWritten(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	r, _ := run(t, env{}, "call", "--demo", "--log", p, "list_notes")
	wantCode(t, r, ExitOK)

	f, _, errOut := testFactory(t, env{})
	out := &lockedBuffer{}
	f.io.Out = out
	opts := &logOptions{f: f, file: p, every: time.Millisecond, q: logQuery{follow: true}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- logRun(ctx, opts) }()
	waitFor(t, out, "list_notes")
	r, _ = run(t, env{}, "call", "--demo", "--log", p, "get_note", "id=1")
	wantCode(t, r, ExitOK)
	waitFor(t, out, "get_note")
	cancel()
	if err := <-done; err != nil {
		t.Errorf("following ends with %v at Ctrl-C, want nil (exit 0)", err)
	}
	contains(t, "stderr", errOut.String(), "mcpsh: following log "+p+"; Ctrl-C stops")
}

// lockedBuffer is a stdout a command writes on its own goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor waits until out shows want; the test's deadline is the limit.
func waitFor(t *testing.T, out *lockedBuffer, want string) {
	t.Helper()
	for !strings.Contains(out.String(), want) {
		if d, ok := t.Deadline(); ok && time.Until(d) < time.Second {
			t.Fatalf("stdout never showed %q:\n%s", want, out)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestProxyParsesItsCommandLine(t *testing.T) {
	t.Parallel()
	o, err := parse(t, newProxyCmd, "--read-only", "--retries", "2", "--approval-timeout", "5m", "--", "srv", "-v")
	if err != nil {
		t.Fatal(err)
	}
	if !o.flags.calls.readOnly || o.flags.approvalTimeout != 5*time.Minute || o.limits != (callLimits{attempts: 2}) || strings.Join(o.command, " ") != "srv -v" {
		t.Errorf("options %+v", o)
	}
	if o, err := parse(t, newProxyCmd, "github"); o != nil || err == nil || !strings.Contains(err.Error(), "mcpsh proxy takes no arguments but its target") {
		t.Errorf("an argument: ran %v, error %v", o != nil, err)
	}
}
