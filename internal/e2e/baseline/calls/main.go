// Command calls is the yardstick for mcpsh's batch benchmark (internal/bench/compare.sh):
// the least a go-sdk program can do to run a script of calls over one stdio
// session: start the server, connect, send each call in turn, print the text
// of each result, and stop the server. No checks, no log, no policy.
//
//	calls SCRIPT COMMAND ARGS...
//
// SCRIPT has one call a line, "TOOL" or "TOOL {json arguments}", the form
// `mcpsh run` reads too; '#' lines and blank lines are skipped. It exits 1
// if any call fails or returns isError, so a broken comparison is noticed.
// $BASELINE_PROTOCOL picks the protocol version (go-sdk's latest when empty),
// so the comparison with mcpsh is made at the same version.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type call struct {
	tool string
	args map[string]any
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: calls SCRIPT COMMAND ARGS...")
		os.Exit(2)
	}
	calls, err := readScript(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "baseline-calls", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	t := &mcp.CommandTransport{Command: exec.Command(os.Args[2], os.Args[3:]...)}
	cs, err := c.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: os.Getenv("BASELINE_PROTOCOL")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out := bufio.NewWriter(os.Stdout)
	failed := 0
	for _, cl := range calls {
		args := cl.args
		if args == nil {
			args = map[string]any{}
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: cl.tool, Arguments: args})
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", cl.tool, err)
			failed++
			continue
		}
		if res.IsError {
			failed++
		}
		for _, blk := range res.Content {
			if tc, ok := blk.(*mcp.TextContent); ok {
				out.WriteString(tc.Text)
				out.WriteByte('\n')
			}
		}
		out.Flush() // as a script runner would: each result as it comes
	}
	cs.Close()
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "%d of %d calls failed\n", failed, len(calls))
		os.Exit(1)
	}
}

func readScript(path string) ([]call, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var calls []call
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		tool, rest, _ := strings.Cut(line, " ")
		cl := call{tool: tool}
		if rest = strings.TrimSpace(rest); rest != "" {
			if err := json.Unmarshal([]byte(rest), &cl.args); err != nil {
				return nil, fmt.Errorf("%s:%d: arguments are not a JSON object: %v", path, n+1, err)
			}
		}
		calls = append(calls, cl)
	}
	return calls, nil
}
