package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/testing/parallel"
	"github.com/mcpsh/mcpsh/policy"
)

// The test binary doubles as a raw JSON-RPC stdio server, for the cases a go-sdk
// server cannot express: absent, null and malformed hints, repeating cursors,
// unknown content types, crashes. MCPSH_FAKE_SERVER names the scenario.
func TestMain(m *testing.M) {
	if sc := os.Getenv("MCPSH_FAKE_SERVER"); sc != "" {
		os.Exit(serveFake(sc, os.Stdin, os.Stdout))
	}
	if code, ok := fixture.ServeStdioFromEnv(); ok {
		os.Exit(code)
	}
	if os.Getenv("MCPSH_BENCH_DEMO") == "1" {
		os.Exit(serveDemo())
	}
	retryInitial = 5 * time.Millisecond
	// Most tests wait on a server (this test binary started as one, or an
	// httptest server), often for a probe's or a retry's timeout to pass.
	parallel.Raise(4)
	os.Exit(m.Run())
}

// fakeTarget runs this test binary as a stdio server playing scenario.
func fakeTarget(t *testing.T, scenario string) Target {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Target{Name: "fake-" + scenario, Kind: KindStdio, Command: exe,
		Env: map[string]string{"MCPSH_FAKE_SERVER": scenario}, Trust: policy.Trusted}
}

// fixtureTarget runs this test binary as internal/testing/fixture's server playing
// scenario over stdio; state is the folder where it notes what reached it.
func fixtureTarget(t *testing.T, scenario string) (target Target, state string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	state = t.TempDir()
	return Target{Name: "fixture-" + scenario, Kind: KindStdio, Command: exe,
		Env: fixture.Env(scenario, state), Trust: policy.Trusted}, state
}

type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// fakeTools are the tool lists of the scenarios, by name. Other test files add
// their own scenarios from an init function.
var fakeTools = map[string]string{
	"hints": `[
		{"name":"bare","inputSchema":{"type":"object"}},
		{"name":"nulls","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":null,"destructiveHint":null}},
		{"name":"stringy","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":"true","openWorldHint":false}},
		{"name":"full","title":"Full","inputSchema":{"type":"object"},"annotations":{"title":"Ann","readOnlyHint":false,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}},
		{"name":"examples","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}}},"annotations":{"readOnlyHint":true},"_meta":{"inputExamples":[{"n":1},"oops",{"n":2}]}},
		{"title":"nameless","inputSchema":{"type":"object"}},
		{"name":"full","title":"Full","inputSchema":{"type":"object"},"annotations":{"title":"Ann","readOnlyHint":false,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}
	]`,
	// The same names declared twice, the lenient definition first or last.
	"duplicates": `[
		{"name":"lenient_first","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false}},
		{"name":"strict_first","inputSchema":{"type":"object","properties":{"force":{"type":"boolean"}}},"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":true,"openWorldHint":false}},
		{"name":"mixed","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}},
		{"name":"lenient_first","title":"Wipe","inputSchema":{"type":"object"}},
		{"name":"strict_first","title":"Peek","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false}},
		{"name":"mixed","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":true}}
	]`,
	"content": `[{"name":"mixed","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},
		{"name":"crash","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]`,
	"crashy": `[{"name":"read","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}},
		{"name":"write","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":false}}]`,
}

func serveFake(scenario string, in io.Reader, out io.Writer) int {
	fmt.Fprintln(os.Stderr, "fake server starting:", scenario)
	if scenario == "exit-early" {
		fmt.Fprintln(os.Stderr, "fatal: missing API key")
		return 1
	}
	if scenario == "spawn" {
		// A grandchild in the same process group, like node under npx.
		c := exec.Command("sleep", "300")
		if err := c.Start(); err == nil {
			fmt.Fprintf(os.Stderr, "child pid %d\n", c.Process.Pid)
		}
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	enc := json.NewEncoder(out)
	reply := func(id json.RawMessage, result string) {
		enc.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": json.RawMessage(result)})
	}
	for sc.Scan() {
		var r rpc
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.ID == nil {
			continue // notifications
		}
		switch r.Method {
		case "initialize":
			if scenario == "hang-init" {
				continue
			}
			reply(r.ID, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"0"}}`)
		case "tools/list":
			var p struct{ Cursor string }
			json.Unmarshal(r.Params, &p)
			switch scenario {
			case "cursor-loop":
				reply(r.ID, fmt.Sprintf(`{"tools":[{"name":"t%s","inputSchema":{"type":"object"}}],"nextCursor":"again"}`, p.Cursor))
			case "pages":
				next := map[string]string{"": "p2", "p2": "p3", "p3": ""}[p.Cursor]
				reply(r.ID, fmt.Sprintf(`{"tools":[{"name":"tool-%s","inputSchema":{"type":"object"}}],"nextCursor":%q}`, p.Cursor, next))
			default:
				reply(r.ID, `{"tools":`+fakeTools[scenario]+`}`)
			}
		case "tools/call":
			var p struct{ Name string }
			json.Unmarshal(r.Params, &p)
			if p.Name == "crash" {
				fmt.Fprintln(os.Stderr, "panic: simulated crash")
				os.Exit(3)
			}
			if scenario == "crashy" {
				// Executions are counted in a file, across restarts: the first
				// execution of each tool dies mid-call.
				if countExecution(p.Name) == 1 {
					fmt.Fprintln(os.Stderr, "panic: crashed while running", p.Name)
					os.Exit(2)
				}
				reply(r.ID, `{"content":[{"type":"text","text":"done"}]}`)
				continue
			}
			reply(r.ID, `{"content":[{"type":"text","text":"hello \u001b[31mred"},{"type":"hologram","shape":"cube"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"isError":false}`)
		case "ping":
			reply(r.ID, `{}`)
		default:
			enc.Encode(map[string]any{"jsonrpc": "2.0", "id": r.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
		}
	}
	return 0
}

// countExecution appends one line for tool to $MCPSH_FAKE_COUNT and returns how
// many executions of it the file now records.
func countExecution(tool string) int {
	path := os.Getenv("MCPSH_FAKE_COUNT")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err == nil {
		fmt.Fprintln(f, tool)
		f.Close()
	}
	return executionsIn(path, tool)
}

func executionsIn(path, tool string) int {
	b, _ := os.ReadFile(path)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		if l == tool {
			n++
		}
	}
	return n
}

func countExecutionAs(path, tool string) {
	f, _ := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	fmt.Fprintln(f, tool)
	f.Close()
}

func readBody(r *http.Request) string {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	return string(b)
}
