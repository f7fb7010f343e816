// Command compare is internal/bench/compare.sh: it measures mcpsh's batch mode against
// bare go-sdk clients (internal/e2e/baseline and internal/e2e/baseline/calls)
// doing the same work over one stdio session to the same server, and prints
// the ratios issues 11 and 23 set goals for; and it measures what mcpsh proxy
// adds to each call of a bare go-sdk host (issue 19).
//
// Each comparison runs against two servers: the embedded demo server, whose
// own work per call (about 1.3 ms) is what a real server's might be, and the
// fast server (internal/e2e/baseline/fastserver), whose tools answer with a
// constant, so that the client's own cost shows.
//
// Runs alternate (mcpsh, yardstick, mcpsh, ...) so that noise on the machine
// hits both alike; each ratio is the median of the rounds' ratios. CPU is the
// client's own user+sys time: the server reports its usage when it exits (the
// demo is this program, re-run as "serve-demo"), and that is taken off the
// child's total, which counts the server it waited for.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/e2e/baseline/serverusage"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve-demo" {
		serve()
		return
	}
	var o options
	flag.IntVar(&o.runs, "runs", 15, "rounds per comparison (medians are reported; fewer than 15 spread widely on a small VM)")
	flag.IntVar(&o.calls, "calls", 500, "calls in the batch script, and proxied calls per round")
	flag.StringVar(&o.protocol, "protocol", "2026-07-28", "protocol version both clients ask for")
	flag.StringVar(&o.mcpshBin, "mcpsh", os.Getenv("MCPSH_BIN"), "an mcpsh binary to measure instead of building ./cmd/mcpsh")
	flag.StringVar(&o.only, "only", "", "run only these comparisons, comma-separated: nolog, log, tools, proxy")
	flag.StringVar(&o.servers, "servers", "demo,fast", "against these servers, comma-separated: demo, fast")
	flag.StringVar(&o.proxyFlags, "proxy-flags", "", "flags for mcpsh proxy in the proxy row, space-separated (e.g. --no-log)")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary folder (binaries, script, logs)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: internal/bench/compare.sh [flags]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

type options struct {
	runs, calls                       int
	protocol, mcpshBin, only, servers string
	proxyFlags                        string
	keep                              bool
	bins                              map[string]string // built already (the tests share one build); nil builds them
}

// serve is the demo server over stdio. On its way out it reports its own CPU
// time, so the benchmark can count the client's alone.
func serve() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := demo.ServeStdio(ctx, demo.New())
	serverusage.Report()
	if err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type comparison struct {
	key        string // for -only
	name, goal string
	goalRatio  float64
	calls      int // calls made, for the per-call CPU; 0 for none
	mcpsh      []string
	baseline   []string
	logDir     string // the session log's folder when the log is on
}

// server is one server the comparisons run against: its command, and the
// read-only calls the script and the proxied host cycle through.
type server struct {
	key, title string
	argv       []string
	lines      []string // "TOOL" or "TOOL {json}", as mcpsh run reads them
	goals      map[string]float64
	cpuGoal    float64 // for run --no-log; 0 for none
}

func run(o options) error {
	dir, err := os.MkdirTemp("", "mcpsh-bench-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintln(os.Stderr, "compare: keeping", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	bins := o.bins
	if bins == nil {
		if bins, err = build(dir, o.mcpshBin); err != nil {
			return err
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	servers := []server{
		// Issue 11's goals, against the demo.
		{key: "demo", title: "the demo server", argv: []string{self, "serve-demo"},
			lines: []string{`get_note {"id": 1}`, `search_notes {"query": "release"}`, `list_notes`},
			goals: map[string]float64{"nolog": 1.15, "log": 1.5, "tools": 1.25}},
		// Issue 23's, against a server that does no work.
		{key: "fast", title: "the fast server (constant answers)", argv: []string{bins["fastserver"]},
			lines: []string{`echo`},
			goals: map[string]float64{"nolog": 1.15, "log": 1.3, "tools": 1.15}, cpuGoal: 1.5},
	}
	want := func(list, key string) bool { return list == "" || slices.Contains(strings.Split(list, ","), key) }
	env := benchEnv(dir, o.protocol)
	fmt.Printf("mcpsh vs bare go-sdk over stdio: %d calls, %d rounds, protocol %s\n", o.calls, o.runs, o.protocol)
	fmt.Printf("times are medians; ratios are the medians of each round's mcpsh/bare; cpu is the client's user+sys\n")
	var proxyRows []proxyResult
	for _, srv := range servers {
		if !want(o.servers, srv.key) {
			continue
		}
		script := filepath.Join(dir, srv.key+"-calls.txt")
		if err := os.WriteFile(script, []byte(batchScript(srv.lines, o.calls)), 0o600); err != nil {
			return err
		}
		if err := compareBatch(o, srv, bins, script, env, dir, want); err != nil {
			return err
		}
		if want(o.only, "proxy") {
			r, err := measureProxy(o, srv, bins["mcpsh"], env, dir)
			if err != nil {
				return fmt.Errorf("proxy, %s: %w", srv.title, err)
			}
			proxyRows = append(proxyRows, r)
		}
	}
	if len(proxyRows) > 0 {
		printProxy(o, proxyRows)
	}
	return nil
}

// compareBatch runs run --no-log, run and tools --json against srv, each
// alternating with its bare go-sdk yardstick, and prints a table.
func compareBatch(o options, srv server, bins map[string]string, script string, env []string, dir string, want func(list, key string) bool) error {
	runArgs := func(extra ...string) []string {
		a := append([]string{bins["mcpsh"], "run"}, extra...)
		return append(append(a, "--protocol", o.protocol, script, "--"), srv.argv...)
	}
	calls := append([]string{bins["calls"], script}, srv.argv...)
	goal := func(key string) (string, float64) {
		g := srv.goals[key]
		return fmt.Sprintf("≤ %.2f×", g), g
	}
	var all []comparison
	for _, c := range []comparison{
		{key: "nolog", name: "run --no-log", calls: o.calls, mcpsh: runArgs("--no-log"), baseline: calls},
		{key: "log", name: "run (log on)", calls: o.calls, mcpsh: runArgs(), baseline: calls, logDir: filepath.Join(dir, "state")},
		{key: "tools", name: "tools --json",
			mcpsh:    append([]string{bins["mcpsh"], "tools", "--json", "--protocol", o.protocol, "--"}, srv.argv...),
			baseline: append([]string{bins["baseline"]}, srv.argv...)},
	} {
		if want(o.only, c.key) {
			c.goal, c.goalRatio = goal(c.key)
			all = append(all, c)
		}
	}
	if len(all) == 0 {
		return nil
	}
	fmt.Printf("\nagainst %s:\n", srv.title)
	fmt.Printf("%-14s %9s %9s %7s   %9s %9s %7s   %s\n", "", "mcpsh", "bare", "wall", "mcpsh cpu", "bare cpu", "cpu", "goal (wall)")
	var perCall []string
	for _, c := range all {
		r, err := measure(c, env, dir, o.runs)
		if err != nil {
			return fmt.Errorf("%s, %s: %w", c.name, srv.title, err)
		}
		verdict := "met"
		if r.wallRatio > c.goalRatio {
			verdict = "NOT met"
		}
		if c.key == "nolog" && srv.cpuGoal > 0 {
			v := "met"
			if r.cpuRatio > srv.cpuGoal {
				v = "NOT met"
			}
			verdict += fmt.Sprintf("; cpu ≤ %.2f× %s", srv.cpuGoal, v)
		}
		fmt.Printf("%-14s %9s %9s %6.2f×   %9s %9s %6.2f×   %s %s\n", c.name, ms(r.mcpsh.wall), ms(r.bare.wall), r.wallRatio,
			ms(r.mcpsh.cpu), ms(r.bare.cpu), r.cpuRatio, c.goal, verdict)
		if c.calls > 0 {
			perCall = append(perCall, fmt.Sprintf("%-14s mcpsh %4.0f µs, bare %4.0f µs (wall %4.0f / %4.0f µs)", c.name+":",
				us(r.mcpsh.cpu)/float64(c.calls), us(r.bare.cpu)/float64(c.calls), us(r.mcpsh.wall)/float64(c.calls), us(r.bare.wall)/float64(c.calls)))
		}
	}
	if len(perCall) > 0 {
		fmt.Println("per call, start-up included: client cpu (wall)")
		for _, l := range perCall {
			fmt.Println("  " + l)
		}
	}
	return nil
}

// batchScript is n read-only calls cycling through lines.
func batchScript(lines []string, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(lines[i%len(lines)])
		b.WriteByte('\n')
	}
	return b.String()
}

// benchEnv keeps both clients away from the user's config and session
// logs, and the proxy row's proxies out of the user's mcpsh watch.
func benchEnv(dir, protocol string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "MCPSH_CONFIG", "MCPSH_PROXY", "BASELINE_PROTOCOL":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+filepath.Join(dir, "home"), "XDG_CONFIG_HOME="+filepath.Join(dir, "home", ".config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_RUNTIME_DIR="+filepath.Join(dir, "run"), "BASELINE_PROTOCOL="+protocol)
}

func build(dir, mcpshBin string) (map[string]string, error) {
	mod, _ := exec.Command("go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(mod))
	if !strings.HasSuffix(gomod, "go.mod") {
		return nil, errors.New("run it from mcpsh's repository (internal/bench/compare.sh does): it builds the binaries it compares")
	}
	pkgs := map[string]string{"mcpsh": "./cmd/mcpsh", "baseline": "./internal/e2e/baseline", "calls": "./internal/e2e/baseline/calls",
		"fastserver": "./internal/e2e/baseline/fastserver"}
	bins := map[string]string{}
	// One go build for all: it links them side by side, and each is named
	// for its package's last element, which is its key.
	args := []string{"build", "-o", dir + string(filepath.Separator)}
	for name, pkg := range pkgs {
		bins[name] = filepath.Join(dir, name)
		if name == "mcpsh" && mcpshBin != "" {
			bins[name] = mcpshBin
			continue
		}
		args = append(args, pkg)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = filepath.Dir(gomod) // the packages are named from the module's root
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building %s: %v\n%s", strings.Join(args[3:], " "), err, out)
	}
	return bins, nil
}
