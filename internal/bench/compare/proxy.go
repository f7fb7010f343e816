package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/internal/e2e/baseline/serverusage"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The proxy row (issue 19): a bare go-sdk host, this program, holds two
// sessions at once, one to the server directly and one through
// `mcpsh proxy -- SERVER` (session log on, as a host entry runs it), and
// makes the same read-only calls on both, one after the other, alternating
// which goes first, so that noise on the machine hits both sides alike. Each
// round starts both afresh; the figures are the medians of the rounds'.

// proxyWarmup calls on each session are not timed: the first calls pay for
// the proxy's listing and the runtime's warm-up, which a host pays once.
const proxyWarmup = 20

// proxyGoal is issue 19's: what the proxy adds at the median, on the fast server.
const proxyGoal = time.Millisecond

type proxyResult struct {
	server                       string
	direct, proxied              quantiles // medians over rounds
	addedMedian, addedP90, ratio float64   // medians over rounds; added in µs
	proxyCPU, serverCPU          float64   // µs per call, start-up included
	goal                         bool      // whether the goal applies (the fast server)
}

type quantiles struct{ median, p90 float64 } // µs

func measureProxy(o options, srv server, mcpshBin string, env []string, dir string) (proxyResult, error) {
	params, err := callParams(srv.lines)
	if err != nil {
		return proxyResult{}, err
	}
	var dMed, dP90, pMed, pP90, added, added90, ratios, pCPU, sCPU []float64
	for round := -1; round < o.runs; round++ {
		r, err := proxyRound(o, srv, mcpshBin, env, dir, params)
		if err != nil {
			return proxyResult{}, err
		}
		os.RemoveAll(filepath.Join(dir, "state")) // each round's proxy starts a log of its own
		if round < 0 {
			continue // warms the page cache for both binaries
		}
		d, p := quantilesOf(r.direct), quantilesOf(r.proxied)
		dMed, dP90, pMed, pP90 = append(dMed, d.median), append(dP90, d.p90), append(pMed, p.median), append(pP90, p.p90)
		added, added90 = append(added, p.median-d.median), append(added90, p.p90-d.p90)
		ratios = append(ratios, p.median/d.median)
		n := float64(len(r.direct) + proxyWarmup)
		pCPU, sCPU = append(pCPU, us(r.proxyCPU)/n), append(sCPU, us(r.serverCPU)/n)
	}
	return proxyResult{
		server: srv.key,
		direct: quantiles{medianOf(dMed), medianOf(dP90)}, proxied: quantiles{medianOf(pMed), medianOf(pP90)},
		addedMedian: medianOf(added), addedP90: medianOf(added90), ratio: medianOf(ratios),
		proxyCPU: medianOf(pCPU), serverCPU: medianOf(sCPU), goal: srv.key == "fast",
	}, nil
}

type roundResult struct {
	direct, proxied     []time.Duration
	proxyCPU, serverCPU time.Duration
}

func proxyRound(o options, srv server, mcpshBin string, env []string, dir string, params []*mcp.CallToolParams) (roundResult, error) {
	ctx := context.Background()
	directUsage, proxyUsage := filepath.Join(dir, "direct-usage"), filepath.Join(dir, "proxy-usage")
	os.Remove(directUsage)
	os.Remove(proxyUsage)
	direct, err := connectHost(ctx, srv.argv, slices.Concat(env, []string{serverusage.Env + "=" + directUsage}), o.protocol)
	if err != nil {
		return roundResult{}, fmt.Errorf("direct: %w", err)
	}
	proxyArgv := slices.Concat([]string{mcpshBin, "proxy", "--protocol", o.protocol}, strings.Fields(o.proxyFlags), []string{"--"}, srv.argv)
	proxied, err := connectHost(ctx, proxyArgv, slices.Concat(env, []string{serverusage.Env + "=" + proxyUsage}), o.protocol)
	if err != nil {
		direct.close()
		return roundResult{}, fmt.Errorf("mcpsh proxy: %w", err)
	}
	var r roundResult
	for i := range proxyWarmup {
		for _, h := range []*host{direct, proxied} {
			if _, err := h.call(ctx, params[i%len(params)]); err != nil {
				direct.close()
				proxied.close()
				return roundResult{}, err
			}
		}
	}
	for i := range o.calls {
		p := params[i%len(params)]
		order := []*host{direct, proxied}
		if i%2 == 1 {
			order = []*host{proxied, direct}
		}
		for _, h := range order {
			d, err := h.call(ctx, p)
			if err != nil {
				direct.close()
				proxied.close()
				return roundResult{}, err
			}
			if h == direct {
				r.direct = append(r.direct, d)
			} else {
				r.proxied = append(r.proxied, d)
			}
		}
	}
	if err := direct.close(); err != nil {
		proxied.close()
		return roundResult{}, fmt.Errorf("direct: %w", err)
	}
	if err := proxied.close(); err != nil {
		return roundResult{}, fmt.Errorf("mcpsh proxy: %w", err)
	}
	if r.serverCPU, err = serverCPU(directUsage); err != nil {
		return roundResult{}, fmt.Errorf("direct: %w", err)
	}
	upstream, err := serverCPU(proxyUsage)
	if err != nil {
		return roundResult{}, fmt.Errorf("mcpsh proxy's server: %w", err)
	}
	// The proxy's usage counts the server it waited for; take the server's off.
	r.proxyCPU = proxied.cmd.ProcessState.UserTime() + proxied.cmd.ProcessState.SystemTime() - upstream
	return r, nil
}

// host is one go-sdk client session over stdio, as a host would hold it.
type host struct {
	cmd    *exec.Cmd
	cs     *mcp.ClientSession
	stderr *strings.Builder
	name   string
}

func connectHost(ctx context.Context, argv, env []string, protocol string) (*host, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	h := &host{cmd: cmd, stderr: &strings.Builder{}, name: filepath.Base(argv[0])}
	cmd.Stderr = h.stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "bench-host", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		if cmd.Process != nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
		return nil, fmt.Errorf("%v\n%s", err, h.stderr)
	}
	h.cs = cs
	return h, nil
}

func (h *host) call(ctx context.Context, p *mcp.CallToolParams) (time.Duration, error) {
	start := time.Now()
	res, err := h.cs.CallTool(ctx, p)
	d := time.Since(start)
	if err == nil && res.IsError {
		err = fmt.Errorf("the call returned an error: %v", resultText(res))
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %s: %w", h.name, p.Name, err)
	}
	return d, nil
}

func (h *host) close() error {
	if err := h.cs.Close(); err != nil {
		return fmt.Errorf("%v\n%s", err, h.stderr)
	}
	return nil
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// callParams reads script lines ("TOOL" or "TOOL {json}") as call params.
func callParams(lines []string) ([]*mcp.CallToolParams, error) {
	var ps []*mcp.CallToolParams
	for _, l := range lines {
		tool, rest, _ := strings.Cut(l, " ")
		args := map[string]any{}
		if rest != "" {
			if err := json.Unmarshal([]byte(rest), &args); err != nil {
				return nil, fmt.Errorf("%q: %w", l, err)
			}
		}
		ps = append(ps, &mcp.CallToolParams{Name: tool, Arguments: args})
	}
	return ps, nil
}

func quantilesOf(ds []time.Duration) quantiles {
	s := slices.Clone(ds)
	slices.Sort(s)
	return quantiles{median: us(s[len(s)/2]), p90: us(s[len(s)*9/10])}
}

func printProxy(o options, rows []proxyResult) {
	fmt.Printf("\nwhat mcpsh proxy %s adds to a bare go-sdk host's read-only call: %d calls a round alternating with\n", proxyLabel(o), o.calls)
	fmt.Printf("direct calls to the same server, %d rounds; latencies per call in µs, medians of the rounds' median and p90\n", o.runs)
	fmt.Printf("%-6s %15s %15s %15s %7s   %16s   %s\n", "", "direct med/p90", "proxied med/p90", "added med/p90", "ratio", "cpu/call prx/srv", "goal (added, median)")
	for _, r := range rows {
		verdict := "—"
		if r.goal {
			verdict = fmt.Sprintf("< %.0f µs ", us(proxyGoal))
			if r.addedMedian < us(proxyGoal) {
				verdict += "met"
			} else {
				verdict += "NOT met"
			}
		}
		fmt.Printf("%-6s %7.0f/%-7.0f %7.0f/%-7.0f %7.0f/%-7.0f %6.2f×   %7.0f/%-7.0f    %s\n", r.server,
			r.direct.median, r.direct.p90, r.proxied.median, r.proxied.p90, r.addedMedian, r.addedP90, r.ratio, r.proxyCPU, r.serverCPU, verdict)
	}
	fmt.Println("cpu/call: the proxy's own user+sys and the direct server's, start-up included, per call")
}

func proxyLabel(o options) string {
	if o.proxyFlags == "" {
		return "(log on)"
	}
	return o.proxyFlags
}
