package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/proxy"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// proxyServeFlags are the flags of mcpsh proxy's serving: those that mean
// what they mean for call, and the approval timeout. The server is named
// by the target flags, the root's. There is no --yes: a proxy that
// approves every call has no point; allow rules say which calls need no one.
type proxyServeFlags struct {
	calls           callFlags
	approvalTimeout time.Duration
	listen          listenFlags
}

// proxyServeOptions are mcpsh proxy's flags and arguments.
type proxyServeOptions struct {
	f       *factory
	flags   proxyServeFlags
	command []string   // a stdio server's command, after --
	limits  callLimits // the call limits set on the command line
	bind    string     // --listen's address, checked; "" serves stdio
}

func (f *proxyServeFlags) register(fs *pflag.FlagSet) {
	c := &f.calls
	fs.BoolVar(&c.readOnly, "read-only", false, "refuse every call that is not effectively read-only")
	fs.DurationVar(&c.timeout, "timeout", client.DefaultTimeout, "give up on an attempt after `DURATION` without an answer or progress")
	fs.DurationVar(&c.timeoutMax, "timeout-max", client.DefaultMaxDuration, "give up on an attempt after `DURATION` however much progress it reports")
	fs.IntVar(&c.retries, "retries", client.DefaultAttempts, "the most `ATTEMPTS` a replay-safe call may take (read-only or idempotent, trusted server)")
	fs.DurationVar(&c.retryMax, "retry-max", client.DefaultRetryMax, "the most time `DURATION` retries of one call may take")
	fs.DurationVar(&f.approvalTimeout, "approval-timeout", proxy.DefaultApprovalTimeout, "refuse a call that needs a person's approval when no one answers within `DURATION`")
	f.listen.register(fs)
}

const proxyServeHelp = `Serve MCP on stdio to an agent's host, in front of one server: the host
starts mcpsh like any stdio server, sees the server's tools, resources and
prompts as the server declares them, and every call it makes goes through
mcpsh's policy on what the server declares at that moment, retries of what is
safe to retry, and the session log (naming the host).

A call that needs a person (destructive tools, untrusted servers, confirm
rules) is asked of the host's user through a form, when the host supports
elicitation, and refused otherwise, with a tool error that says why and how
to allow it; --approval-timeout bounds the wait. Deny and allow rules in
mcpsh's config decide before anyone is asked.

stdout carries nothing but JSON-RPC; mcpsh's own messages go to stderr.`

// proxyMarkEnv marks a stdio server started by mcpsh proxy, so that a proxy it
// starts in turn refuses to.
const proxyMarkEnv = "MCPSH_PROXY"

// proxyArgs parses mcpsh proxy's command line into opts: the target's
// command after --, and none of the flags that are not for a proxy.
func proxyArgs(cmd *cobra.Command, args []string, opts *proxyServeOptions) error {
	rest, command := commandAfterDash(cmd, args)
	if len(rest) > 0 {
		return &usageError{fmt.Sprintf("mcpsh proxy takes no arguments but its target (got %q): name the server with -s NAME, --url, --sse or -- COMMAND ARGS", rest[0])}
	}
	for _, name := range []string{"root", "elicit", "server-log"} {
		if cmd.Flags().Changed(name) {
			return &usageError{fmt.Sprintf("--%s is not for mcpsh proxy: the host's own roots, answers and log level are passed on", name)}
		}
	}
	bind, err := opts.flags.listen.check(cmd)
	if err != nil {
		return err
	}
	opts.command, opts.limits, opts.bind = command, opts.flags.calls.set(cmd), bind
	return nil
}

// proxyServeRun serves the host on the process's stdin and stdout until the
// host closes stdin (or the first interrupt), then ends the server.
func proxyServeRun(ctx context.Context, opts *proxyServeOptions) error {
	a, f, command := opts.f, &opts.flags, opts.command
	if f.approvalTimeout <= 0 {
		return &usageError{"--approval-timeout must be more than 0"}
	}
	if outer, ok := a.getenv(proxyMarkEnv); ok {
		// A host entry whose command is itself mcpsh proxy (a hand-edited
		// entry discovery could not unwrap) would start proxies without end.
		return &usageError{fmt.Sprintf("this server is already routed through mcpsh proxy (%s): a proxy does not start another", termtext.Line(outer))}
	}
	if err := client.ValidateProtocol(a.target.protocol); err != nil {
		return &usageError{"--protocol: " + err.Error()}
	}
	if err := a.openLog(); err != nil {
		return err
	}
	t, err := a.resolveTarget(command)
	if err != nil {
		return err
	}
	if t.Kind == client.KindStdio {
		env := make(map[string]string, len(t.Env)+1)
		for k, v := range t.Env {
			env[k] = v
		}
		env[proxyMarkEnv] = t.Label()
		t.Env = env
	}
	if a.logs.trace != "" && a.trace == nil {
		tf, err := openTrace(a.logs.trace)
		if err != nil {
			return err
		}
		a.trace = tf
	}
	// A host's calls come at an agent's pace: many quick ones, each leaving
	// go-sdk's decoding garbage behind (heapfloor.go).
	a.raiseHeapFloor()
	call := client.Call{OnlyReadOnly: f.calls.readOnly}
	call.Timeout, call.MaxDuration, call.Attempts, call.RetryMax = opts.limits.timeout, opts.limits.maxDuration, opts.limits.attempts, opts.limits.retryMax
	p := proxy.New(proxy.Options{
		Target:          t,
		Client:          *a.clientOptionsFor(t),
		Call:            call,
		ApprovalTimeout: f.approvalTimeout,
		ConnectTimeout:  a.target.connectTimeout,
		RuleRef:         a.ruleRef(t), // globalrules.go
		Version:         currentVersion().short(),
		Warn:            a.warn,
	})
	if opts.bind != "" {
		return a.proxyListen(ctx, p, &f.listen, opts.bind)
	}
	// Closing stdin is how the session ends at an interrupt (a read blocked
	// on it returns); stdout is never closed: it is the process's.
	in, ok := a.io.In.(io.ReadCloser)
	if !ok {
		in = readCloser{a.io.In}
	}
	return p.Serve(ctx, in, writeCloser{a.io.Out})
}

// readCloser and writeCloser hand the proxy streams it must not close.
type readCloser struct{ io.Reader }

func (readCloser) Close() error { return nil }

type writeCloser struct{ io.Writer }

func (writeCloser) Close() error { return nil }
