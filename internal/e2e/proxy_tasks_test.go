//go:build unix

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A host that knows nothing of tasks calls a tool the server runs as one
// (ts-server-2's tasks extension) through mcpsh proxy: the proxy follows
// the task and answers with its result, passing the task's statuses on as
// progress under the host's token; when the host gives up, the task is
// cancelled on the server.

// proxyTasksHost is a bare go-sdk host on mcpsh proxy in front of
// ts-server-2, hearing progress on progress; cancels names the file the
// server records each cancelled task in.
func proxyTasksHost(t *testing.T, progress chan<- string) (cs *mcp.ClientSession, stderr *lockedBuffer, cancels string) {
	t.Helper()
	env, _, _ := stateEnv(t)
	cancels = filepath.Join(t.TempDir(), "cancels")
	cmd := exec.Command(mcpshBin, "proxy", "--", "node", tsServer2(t))
	cmd.Env = testEnv(t, append(env, "MCPSH_TS2_CANCELS="+cancels)...)
	cs, stderr = goHost(t, cmd, "", &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- req.Params.Message:
			default:
			}
		},
	})
	t.Cleanup(func() { cs.Close() })
	return cs, stderr, cancels
}

func TestProxyFollowsATaskForAHostThatKnowsNone(t *testing.T) {
	t.Parallel()
	progress := make(chan string, 64)
	cs, stderr, _ := proxyTasksHost(t, progress)
	params := &mcp.CallToolParams{Name: "research", Arguments: map[string]any{"topic": "tides"}}
	params.SetProgressToken("host-token")
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatalf("research through the proxy: %v\n%s", err, stderr.String())
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	// The host offers no elicitation, so the task's question is declined
	// and the server goes on with no angle.
	if res.IsError || !strings.Contains(text.String(), "Report on tides (angle none)") {
		t.Fatalf("the host got %q (isError %v), want the task's result\n%s", text.String(), res.IsError, stderr.String())
	}
	// Progress is sent apart from the answer, so it may come just after.
	deadline := time.After(patience)
	for want := []string{"working: Gathering sources on tides", "completed"}; len(want) > 0; {
		select {
		case m := <-progress:
			if strings.HasPrefix(m, "task ") && strings.Contains(m, want[0]) {
				want = want[1:]
			}
		case <-deadline:
			t.Fatalf("the host never heard the task's status %q as progress", want[0])
		}
	}
}

func TestProxyCancelsTheTaskWhenTheHostGivesUp(t *testing.T) {
	t.Parallel()
	progress := make(chan string, 64)
	cs, stderr, cancels := proxyTasksHost(t, progress)
	params := &mcp.CallToolParams{Name: "wait_for_cancel", Arguments: map[string]any{}}
	params.SetProgressToken(7)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, params)
		done <- err
	}()
	select {
	case m := <-progress:
		if !strings.Contains(m, "working") {
			t.Fatalf("first progress %q, want the task working", m)
		}
	case <-time.After(patience):
		t.Fatalf("no task status reached the host\n%s", stderr.String())
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the host's cancelled call returned no error")
	}
	deadline := time.Now().Add(patience)
	for {
		b, _ := os.ReadFile(cancels)
		if strings.TrimSpace(string(b)) != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never heard tasks/cancel\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// server-everything's simulate-research-query runs only as a 2025-11-25
// task (execution.taskSupport "required"), which the TypeScript SDK's
// Client refuses to call without task augmentation. Through the proxy the
// host sees no execution member, since to it the call is a plain one, and
// its plain call gets the report: the proxy augments the call and follows
// the task.
func TestProxyHidesTaskSupportAndFollowsTheTask(t *testing.T) {
	t.Parallel()
	env, _, _ := stateEnv(t)
	evs := tsHost(t, env, "list", `call:simulate-research-query:{"topic":"tides"}`, "--stdio", mcpshBin, "proxy", "--", npmBin(t, "mcp-server-everything"))
	lists, calls := tsOnly(evs, "list"), tsOnly(evs, "call")
	if len(lists) != 1 || len(calls) != 1 {
		t.Fatalf("events: %+v", evs)
	}
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(lists[0].Tools, &tools); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tl := range tools {
		if string(tl["name"]) == `"simulate-research-query"` {
			found = true
			if ex, ok := tl["execution"]; ok {
				t.Fatalf("the host was told the tool's execution: %s", ex)
			}
		}
	}
	if !found {
		t.Fatalf("simulate-research-query is not in the listing: %s", lists[0].Tools)
	}
	if r := calls[0]; r.Result == nil || r.Result.IsError || !strings.Contains(r.text(), "# Research Report: tides") {
		t.Fatalf("the host's call: error %+v, text %q", r.Error, r.text())
	}
}
