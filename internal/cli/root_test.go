package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/spf13/cobra"
)

// Each entry of the table builds the command it is named for: the name is
// what finds the command to build alone.
func TestCommandsTableNamesEachCommand(t *testing.T) {
	t.Parallel()
	f, _, _ := testFactory(t, env{})
	for _, c := range commands(f) {
		if got := c.build().Name(); got != c.name {
			t.Errorf("the entry %q builds the command %q", c.name, got)
		}
	}
}

// A command line that runs a command gets that command alone; one that runs
// none of them (bare mcpsh, help, completion, a mistyped name, a server's
// command after --) gets them all.
func TestOnlyTheCommandRunIsBuilt(t *testing.T) {
	t.Parallel()
	f, _, _ := testFactory(t, env{})
	var every []string
	for _, c := range commands(f) {
		every = append(every, c.name)
	}
	slices.Sort(every)
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"tools", "--json", "--", "server"}, []string{"tools"}},
		{[]string{"--config", "call", "call", "tool"}, []string{"call"}},
		{[]string{"--protocol", "2025-11-25", "-s", "x", "task", "get", "ID"}, []string{"task"}},
		{[]string{"proxy", "config", "claude:x"}, []string{"proxy"}},
		{[]string{"tools", "--help"}, []string{"tools"}},
		{nil, every},
		{[]string{"--demo"}, every},
		{[]string{"--", "tools"}, every},
		{[]string{"help", "tools"}, every},
		{[]string{"tols"}, every},
		{[]string{"completion", "bash"}, every},
		{[]string{"__complete", "to"}, every},
	}
	for _, tt := range tests {
		f, _, _ := testFactory(t, env{})
		var got []string
		for _, c := range newRootCmd(f, tt.args).Commands() {
			got = append(got, c.Name())
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("mcpsh %s built %v, want %v", strings.Join(tt.args, " "), got, tt.want)
		}
	}
}

// A command built alone reads its command line as it does among the others:
// its help (its flags, the shared ones, its subcommands) and its mistakes
// come out the same, for every command and subcommand.
func TestACommandBuiltAloneActsAsInTheWholeTree(t *testing.T) {
	t.Parallel()
	f, _, _ := testFactory(t, env{})
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			p := append(slices.Clone(path), sub.Name())
			paths = append(paths, p)
			walk(sub, p)
		}
	}
	walk(newRootCmd(f, nil), nil)
	if len(paths) < len(commands(f)) {
		t.Fatalf("the whole tree has %d commands", len(paths))
	}
	for _, p := range paths {
		for _, tail := range [][]string{{"--help"}, {"--no-such-flag"}} {
			args := append(slices.Clone(p), tail...)
			alone := executeWith(t, args, func(f *factory) *cobra.Command { return newRootCmd(f, args) })
			whole := executeWith(t, args, func(f *factory) *cobra.Command { return newRootCmd(f, nil) })
			if alone != whole {
				t.Errorf("mcpsh %s, built alone:\n%s\nin the whole tree:\n%s", strings.Join(args, " "), alone, whole)
			}
		}
	}
}

// executeWith runs args on the root newRoot builds and returns what it wrote.
func executeWith(t *testing.T, args []string, newRoot func(*factory) *cobra.Command) string {
	t.Helper()
	f, out, errOut := testFactory(t, env{})
	root := newRoot(f)
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(errOut)
	var b bytes.Buffer
	if err := root.ExecuteContext(context.Background()); err != nil {
		b.WriteString("error: " + err.Error() + "\n")
	}
	return b.String() + out.String() + errOut.String()
}

// No command starts before main's interrupt handler is in place: the wait
// WithSignalsCaught carries comes before the command's first step (here the
// demo server it builds), once.
func TestCommandsStartOnceSignalsAreCaught(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"tools", "--demo", "--json"}, {"call", "--demo", "get_note", "id=2"}, {"--demo"}} {
		f, _, errOut := testFactory(t, env{})
		var steps []string
		f.newDemo = func() *demo.Server { steps = append(steps, "demo built"); return demo.New() }
		ctx := WithSignalsCaught(context.Background(), func() { steps = append(steps, "caught") })
		code := execute(ctx, f, args)
		if len(steps) < 2 || steps[0] != "caught" || steps[1] != "demo built" || strings.Count(strings.Join(steps, ","), "caught") != 1 {
			t.Errorf("%q (exit %d, %s): steps %q, want the wait once, then the demo built", args, code, errOut, steps)
		}
	}
}

// Building only the command run leaves shell completion whole: the
// completion command and cobra's completion requests still answer, and a
// command's own flags are completed.
func TestCompletionSurvivesBuildingOneCommand(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"completion", "bash"}, "# bash completion V2 for mcpsh"},
		{[]string{"__complete", "tools", "--js"}, "--json"},
		{[]string{"__complete", "to"}, "tools"},
	} {
		r, _ := run(t, env{}, tt.args...)
		if r.code != 0 || !strings.Contains(r.out, tt.want) {
			t.Errorf("%q: exit %d, stdout %q, want %q", tt.args, r.code, r.out, tt.want)
		}
	}
}
