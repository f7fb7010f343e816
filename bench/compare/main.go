// Command compare is bench/compare.sh: it measures mcpsh's batch mode against
// bare go-sdk clients (internal/e2e/baseline and internal/e2e/baseline/calls)
// doing the same work over one stdio session to the same demo server, and
// prints the ratios issue 11 sets goals for.
//
// Runs alternate (mcpsh, yardstick, mcpsh, ...) so that noise on the machine
// hits both alike; each ratio is the median of the rounds' ratios. CPU is the
// client's own user+sys time: the server reports its usage when it exits (it
// is this program, re-run as "serve-demo"), and that is taken off the child's
// total, which counts the server it waited for.
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
	"time"

	"github.com/mcpsh/mcpsh/internal/demo"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve-demo" {
		serve()
		return
	}
	runs := flag.Int("runs", 15, "rounds per comparison (medians are reported; fewer than 15 spread widely on a small VM)")
	ncalls := flag.Int("calls", 500, "calls in the batch script")
	protocol := flag.String("protocol", "2026-07-28", "protocol version both clients ask for")
	mcpshBin := flag.String("mcpsh", os.Getenv("MCPSH_BIN"), "an mcpsh binary to measure instead of building ./cmd/mcpsh")
	only := flag.String("only", "", "run only these comparisons, comma-separated: nolog, log, tools")
	keep := flag.Bool("keep", false, "keep the temporary folder (binaries, script, logs)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: bench/compare.sh [flags]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(*runs, *ncalls, *protocol, *mcpshBin, *only, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

// serve is the demo server over stdio. On its way out it appends its own CPU
// time to $BENCH_SERVER_USAGE, so the benchmark can count the client's alone.
func serve() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := demo.ServeStdio(ctx, demo.New())
	if path := os.Getenv("BENCH_SERVER_USAGE"); path != "" {
		if f, ferr := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); ferr == nil {
			fmt.Fprintf(f, "%d\n", selfCPU().Microseconds())
			f.Close()
		}
	}
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

func run(runs, ncalls int, protocol, mcpshBin, only string, keep bool) error {
	dir, err := os.MkdirTemp("", "mcpsh-bench-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintln(os.Stderr, "compare: keeping", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	bins, err := build(dir, mcpshBin)
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	server := []string{self, "serve-demo"}
	script := filepath.Join(dir, "calls.txt")
	if err := os.WriteFile(script, []byte(batchScript(ncalls)), 0o600); err != nil {
		return err
	}
	runArgs := func(extra ...string) []string {
		a := append([]string{bins["mcpsh"], "run"}, extra...)
		return append(append(a, "--protocol", protocol, script, "--"), server...)
	}
	calls := append([]string{bins["calls"], script}, server...)
	all := []comparison{
		{key: "nolog", name: "run --no-log", goal: "≤ 1.15×", goalRatio: 1.15, calls: ncalls, mcpsh: runArgs("--no-log"), baseline: calls},
		{key: "log", name: "run (log on)", goal: "≤ 1.50×", goalRatio: 1.5, calls: ncalls, mcpsh: runArgs(), baseline: calls, logDir: filepath.Join(dir, "state")},
		{key: "tools", name: "tools --json", goal: "≤ 1.25×", goalRatio: 1.25,
			mcpsh:    append([]string{bins["mcpsh"], "tools", "--json", "--protocol", protocol, "--"}, server...),
			baseline: append([]string{bins["baseline"]}, server...)},
	}
	env := benchEnv(dir, protocol)
	fmt.Printf("mcpsh vs bare go-sdk over stdio to the demo server: %d calls, %d rounds, protocol %s\n", ncalls, runs, protocol)
	fmt.Printf("times are medians; ratios are the medians of each round's mcpsh/bare; cpu is the client's user+sys\n\n")
	fmt.Printf("%-14s %9s %9s %7s   %9s %9s %7s   %s\n", "", "mcpsh", "bare", "wall", "mcpsh cpu", "bare cpu", "cpu", "goal (wall)")
	var perCall []string
	for _, c := range all {
		if only != "" && !slices.Contains(strings.Split(only, ","), c.key) {
			continue
		}
		r, err := measure(c, env, dir, runs)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		verdict := "met"
		if r.wallRatio > c.goalRatio {
			verdict = "NOT met"
		}
		fmt.Printf("%-14s %9s %9s %6.2f×   %9s %9s %6.2f×   %s %s\n", c.name, ms(r.mcpsh.wall), ms(r.bare.wall), r.wallRatio,
			ms(r.mcpsh.cpu), ms(r.bare.cpu), r.cpuRatio, c.goal, verdict)
		if c.calls > 0 {
			perCall = append(perCall, fmt.Sprintf("%-14s mcpsh %4.0f µs, bare %4.0f µs (wall %4.0f / %4.0f µs)", c.name+":",
				us(r.mcpsh.cpu)/float64(c.calls), us(r.bare.cpu)/float64(c.calls), us(r.mcpsh.wall)/float64(c.calls), us(r.bare.wall)/float64(c.calls)))
		}
	}
	if len(perCall) > 0 {
		fmt.Println("\nper call, start-up included: client cpu (wall)")
		for _, l := range perCall {
			fmt.Println("  " + l)
		}
	}
	return nil
}

// batchScript is n read-only calls: a plain text result, one with
// structuredContent checked against an output schema, and a list.
func batchScript(n int) string {
	lines := []string{`get_note {"id": 1}`, `search_notes {"query": "release"}`, `list_notes`}
	var b strings.Builder
	for i := range n {
		b.WriteString(lines[i%len(lines)])
		b.WriteByte('\n')
	}
	return b.String()
}

// benchEnv keeps both clients away from the user's config and session logs.
func benchEnv(dir, protocol string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "MCPSH_CONFIG", "BASELINE_PROTOCOL":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+filepath.Join(dir, "home"), "XDG_CONFIG_HOME="+filepath.Join(dir, "home", ".config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "BASELINE_PROTOCOL="+protocol)
}

func build(dir, mcpshBin string) (map[string]string, error) {
	if mod, _ := exec.Command("go", "env", "GOMOD").Output(); !strings.HasSuffix(strings.TrimSpace(string(mod)), "go.mod") {
		return nil, errors.New("run it from mcpsh's repository (bench/compare.sh does): it builds the binaries it compares")
	}
	pkgs := map[string]string{"mcpsh": "./cmd/mcpsh", "baseline": "./internal/e2e/baseline", "calls": "./internal/e2e/baseline/calls"}
	bins := map[string]string{}
	for name, pkg := range pkgs {
		bins[name] = filepath.Join(dir, name)
		if name == "mcpsh" && mcpshBin != "" {
			bins[name] = mcpshBin
			continue
		}
		if out, err := exec.Command("go", "build", "-o", bins[name], pkg).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("building %s: %v\n%s", pkg, err, out)
		}
	}
	return bins, nil
}

type sample struct{ wall, cpu time.Duration }

type result struct {
	mcpsh, bare         sample // medians
	wallRatio, cpuRatio float64
}

// measure runs both sides once to warm the caches, then alternates. The
// ratios are taken round by round, so a change in the machine's load between
// rounds moves both sides of a ratio alike.
func measure(c comparison, env []string, dir string, runs int) (result, error) {
	var mine, bare []sample
	var walls, cpus []float64
	for i := -1; i < runs; i++ {
		var round [2]sample
		for j, side := range [][]string{c.mcpsh, c.baseline} {
			s, err := once(side, env, dir)
			for try := 1; errors.Is(err, errNoUsage) && try < 3; try++ {
				// A loaded machine can make a client give up waiting for the
				// server's exit and kill it before it reports: measure again.
				s, err = once(side, env, dir)
			}
			if err != nil {
				return result{}, err
			}
			if c.logDir != "" {
				os.RemoveAll(c.logDir) // each run starts a log of its own; keep the folder small
			}
			round[j] = s
		}
		if i < 0 {
			continue
		}
		mine, bare = append(mine, round[0]), append(bare, round[1])
		walls = append(walls, float64(round[0].wall)/float64(round[1].wall))
		cpus = append(cpus, float64(round[0].cpu)/float64(round[1].cpu))
	}
	return result{mcpsh: median(mine), bare: median(bare), wallRatio: medianOf(walls), cpuRatio: medianOf(cpus)}, nil
}

func once(argv, env []string, dir string) (sample, error) {
	usage := filepath.Join(dir, "server-usage")
	os.Remove(usage)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(env, "BENCH_SERVER_USAGE="+usage)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = discard{}, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("%s: %v\n%s", filepath.Base(argv[0]), err, stderr.String())
	}
	wall := time.Since(start)
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	// The child's usage includes the server it reaped; take the server's off.
	server, err := serverCPU(usage)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w", filepath.Base(argv[0]), err)
	}
	return sample{wall: wall, cpu: cpu - server}, nil
}

var errNoUsage = errors.New("the server did not report its cpu time")

func serverCPU(path string) (time.Duration, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errNoUsage, err)
	}
	var total time.Duration
	for _, f := range strings.Fields(string(b)) {
		var n int64
		fmt.Sscan(f, &n)
		total += time.Duration(n) * time.Microsecond
	}
	return total, nil
}

// discard takes stdout through a pipe, as a script reading it would, and keeps nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func median(s []sample) sample {
	walls, cpus := make([]time.Duration, len(s)), make([]time.Duration, len(s))
	for i, x := range s {
		walls[i], cpus[i] = x.wall, x.cpu
	}
	slices.Sort(walls)
	slices.Sort(cpus)
	return sample{wall: walls[len(s)/2], cpu: cpus[len(s)/2]}
}

func medianOf(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

func ms(d time.Duration) string  { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }
func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
