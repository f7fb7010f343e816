package e2e

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The measure: a session with get_note id=1, logged with the
// default --log-results, replays clean as a script; changed to id=2 it
// fails with exit 1 and a message naming the file and line.
func TestReplayFailsWhenTheResultChanges(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "session.jsonl")
	r := mcpsh(t, opts{}, "call", "--demo", "get_note", "id=1", "--log", logPath)
	wantCode(t, r, 0)
	r = mcpsh(t, opts{}, "log", logPath, "--as-script")
	wantCode(t, r, 0)
	contains(t, "script", r.out, "\nget_note {\"id\":1}\n  expect status ok\n  # result: #1 Welcome to mcpsh", "\n  expect digest sha256:")
	check := writeScript(t, dir, "check.mcpsh", r.out)
	r = mcpsh(t, opts{}, "run", "--demo", "--no-log", check)
	wantCode(t, r, 0)
	contains(t, "stderr", r.errOut, "1 call: 1 ok; 2 expectations met")

	writeScript(t, dir, "check.mcpsh", strings.Replace(mustRead(t, check), `get_note {"id":1}`, `get_note {"id":2}`, 1))
	line := slices.Index(strings.Split(mustRead(t, check), "\n"), "  expect digest "+digestIn(t, mustRead(t, check))) + 1
	r = mcpsh(t, opts{}, "run", "--demo", "--no-log", check)
	wantCode(t, r, 1)
	want := regexp.MustCompile(regexp.QuoteMeta(check) + `:` + itoa(line) +
		`: expected digest sha256:[0-9a-f]{12}…, got sha256:[0-9a-f]{12}… \(text: "#2 Shopping list tags: home`)
	if !want.MatchString(r.errOut) {
		t.Errorf("stderr lacks %s:\n%s", want, r.errOut)
	}
	contains(t, "stderr", r.errOut, "1 of 2 expectations failed")
	// mcpsh test says the same of it.
	r = mcpsh(t, opts{}, "test", "--demo", "--no-log", check)
	wantCode(t, r, 1)
	if !want.MatchString(r.out) {
		t.Errorf("stdout lacks %s:\n%s", want, r.out)
	}
}

func digestIn(t *testing.T, script string) string {
	t.Helper()
	m := regexp.MustCompile(`expect digest (sha256:[0-9a-f]{64})`).FindStringSubmatch(script)
	if m == nil {
		t.Fatalf("no digest in\n%s", script)
	}
	return m[1]
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// A suite with a passing and a failing script: exit 1, JUnit XML with one
// failure; --update rewrites that one line (the rest of the file, comments
// and CRLF endings included, byte for byte) and exits 0, and so does the
// suite after it. --protocol runs it at another version.
func TestTestSuiteJUnitAndUpdate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	suite := filepath.Join(dir, "mcpsh-tests")
	os.MkdirAll(filepath.Join(suite, "notes"), 0o700)
	writeScript(t, suite, "a.mcpsh", "# the welcome note\nget_note id=1\n  expect status ok\n  expect text \"Welcome to mcpsh\"\n")
	failing := "# search finds the list\r\nsearch_notes query=milk\r\n\t# one match\r\n\texpect json .total == 1\r\n" +
		"  expect json .matches[0].title == \"Groceries\"   \r\nlist_notes\r\n  expect status ok"
	b := writeScript(t, filepath.Join(suite, "notes"), "b.mcpsh", failing)
	report := filepath.Join(dir, "junit.xml")
	r := mcpsh(t, opts{dir: dir}, "test", "--demo", "--no-log", "--junit", report)
	wantCode(t, r, 1)
	rel := filepath.Join("mcpsh-tests", "notes", "b.mcpsh")
	contains(t, "stdout", r.out, "FAIL "+rel, rel+`:5: expected json .matches[0].title == "Groceries", got "Shopping list"`,
		"2 scripts: 1 passed, 1 failed; 3 calls; 5 expectations: 4 passed, 1 failed")

	var x struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name     string `xml:"name,attr"`
				Line     int    `xml:"line,attr"`
				Failures []struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(mustRead(t, report)), &x); err != nil {
		t.Fatalf("the JUnit report does not parse: %v\n%s", err, mustRead(t, report))
	}
	if x.Tests != 3 || x.Failures != 1 || len(x.Suites) != 2 || x.Suites[1].Name != rel || x.Suites[1].Failures != 1 {
		t.Fatalf("report %+v", x)
	}
	c := x.Suites[1].Cases[0]
	if c.Name != "search_notes (line 2)" || c.Line != 2 || len(c.Failures) != 1 || !strings.HasPrefix(c.Failures[0].Message, rel+":5: expected json") {
		t.Errorf("the failing case %+v", c)
	}

	r = mcpsh(t, opts{dir: dir}, "test", "--demo", "--no-log", "--update")
	wantCode(t, r, 0)
	contains(t, "stdout", r.out, "updated "+rel+`:5: expect json .matches[0].title == "Shopping list"`, "1 updated")
	if got, want := mustRead(t, b), strings.Replace(failing, `"Groceries"`, `"Shopping list"`, 1); got != want {
		t.Errorf("--update wrote\n%q\nwant\n%q", got, want)
	}
	logPath := filepath.Join(dir, "suite.jsonl")
	r = mcpsh(t, opts{dir: dir}, "test", "--demo", "--protocol", "2025-06-18", "--log", logPath, "--json")
	wantCode(t, r, 0)
	var sum struct {
		Scripts, Passed, Calls int
		ExitCode               int
	}
	if err := json.Unmarshal([]byte(r.out), &sum); err != nil || sum.Scripts != 2 || sum.Passed != 2 || sum.Calls != 3 || sum.ExitCode != 0 {
		t.Errorf("--json %+v %v:\n%s", sum, err, r.out)
	}
	var protocols []string
	for _, l := range strings.Split(strings.TrimSpace(mustRead(t, logPath)), "\n") {
		var e struct{ Protocol string }
		json.Unmarshal([]byte(l), &e)
		protocols = append(protocols, e.Protocol)
	}
	if len(protocols) != 3 || slices.IndexFunc(protocols, func(p string) bool { return p != "2025-06-18" }) >= 0 {
		t.Errorf("the calls went at %q, want 2025-06-18", protocols)
	}
}

// room is a tool server's meeting point: a call to meet waits there until
// another call is in flight at the same moment, so scripts that ran one
// after the other can never both meet.
type room struct {
	mu      sync.Mutex
	here    map[string]bool // the calls in flight
	met     map[string]bool // those another call found in flight
	changed chan struct{}
}

func (rm *room) meet(ctx context.Context, who string) string {
	rm.mu.Lock()
	for other := range rm.here {
		rm.met[other], rm.met[who] = true, true
	}
	rm.here[who] = true
	close(rm.changed)
	rm.changed = make(chan struct{})
	rm.mu.Unlock()
	defer func() { rm.mu.Lock(); delete(rm.here, who); rm.mu.Unlock() }()
	// Bounded only so a failing run ends; a passing one never waits for it.
	giveUp := time.After(patience)
	for {
		rm.mu.Lock()
		if rm.met[who] {
			rm.mu.Unlock()
			return "met"
		}
		ch := rm.changed
		rm.mu.Unlock()
		select {
		case <-ch:
		case <-giveUp:
			return "alone"
		case <-ctx.Done():
			return "alone"
		}
	}
}

func meetingServer(t *testing.T) string {
	rm := &room{here: map[string]bool{}, met: map[string]bool{}, changed: make(chan struct{})}
	srv := mcp.NewServer(&mcp.Implementation{Name: "meeting", Version: "1"}, nil)
	type in struct {
		Who string `json:"who"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "meet", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: rm.meet(ctx, a.Who)}}}, nil, nil
		})
	h := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(h.Close)
	return h.URL
}

// Scripts run side by side with --jobs 2: the two that meet on the server
// are in flight at once (one at a time, the first would meet nobody). A
// script's target line beats the command line's: the demo script reaches
// the demo although the command line names the meeting server, which has
// no get_note.
func TestTestRunsScriptsInParallelWithPinnedTargets(t *testing.T) {
	t.Parallel()
	url := meetingServer(t)
	dir := t.TempDir()
	writeScript(t, dir, "a-demo.mcpsh", "# target: --demo\nget_note id=1\n  expect text \"Welcome to mcpsh\"\n")
	writeScript(t, dir, "b-meet.mcpsh", "meet who=b\n  expect text \"met\"\n")
	writeScript(t, dir, "c-meet.mcpsh", "# target: --url "+url+"\nmeet who=c\n  expect text \"met\"\n")
	r := mcpsh(t, opts{}, "test", "--url", url, "--no-log", "--jobs", "2", "--json", dir)
	wantCode(t, r, 0)
	var sum struct {
		Passed  int
		Results []struct {
			File, Target string
			OK           bool
		}
	}
	if err := json.Unmarshal([]byte(r.out), &sum); err != nil || sum.Passed != 3 || len(sum.Results) != 3 {
		t.Fatalf("%+v %v:\n%s", sum, err, r.out)
	}
	if sum.Results[0].Target != "--demo" || sum.Results[1].Target != "" || sum.Results[2].Target != "--url "+url {
		t.Errorf("targets %+v", sum.Results)
	}
}
