package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/internal/e2e/baseline/serverusage"
)

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
	cmd.Env = append(env, serverusage.Env+"="+usage)
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
