package cli

import (
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

func TestTestParsesItsCommandLine(t *testing.T) {
	t.Parallel()
	o, err := parse(t, newTestCmd, "tests", "b.mcpsh", "-j", "3", "--junit", "r.xml", "--update", "--json", "--yes", "--", "srv", "--flag")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(o.paths, " ") != "tests b.mcpsh" || o.jobs != 3 || o.junit != "r.xml" || !o.update || !o.calls.json || !o.calls.yes {
		t.Errorf("parsed %+v", o)
	}
	if strings.Join(o.command, " ") != "srv --flag" {
		t.Errorf("the server's command is %q", o.command)
	}
	if o, err := parse(t, newTestCmd); err != nil || len(o.paths) != 0 || o.jobs < 1 || o.jobs > 4 {
		t.Errorf("defaults: %+v %v", o, err)
	}
	if o, err := parse(t, newTestCmd, "--jobs", "0"); o != nil || err == nil || !strings.Contains(err.Error(), "--jobs 0: want 1 or more") {
		t.Errorf("--jobs 0: ran %v, error %v", o != nil, err)
	}
}

// --update changes the expectation on the lines it names and nothing else:
// not the indentation, the blanks after it, the line ending, the comments,
// nor a last line without an ending.
func TestRewriteLinesKeepsEveryOtherByte(t *testing.T) {
	t.Parallel()
	in := "# target: --demo\r\n" +
		"get_note id=2\r\n" +
		"  # why: the shopping list\r\n" +
		"\texpect text \"Welcome\"  \r\n" +
		"  expect status ok\r\n" +
		"search_notes query=milk\n" +
		"    expect json .total == 2"
	got := string(rewriteLines([]byte(in), map[int]string{4: `text "Shopping list"`, 7: "json .total == 1"}))
	want := "# target: --demo\r\n" +
		"get_note id=2\r\n" +
		"  # why: the shopping list\r\n" +
		"\texpect text \"Shopping list\"  \r\n" +
		"  expect status ok\r\n" +
		"search_notes query=milk\n" +
		"    expect json .total == 1"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := rewriteLines([]byte(in), nil); string(got) != in {
		t.Error("no edits changed the file")
	}
}

func TestTargetLine(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ script, pin, err string }{
		{"# target: --demo\nlist_notes\n", "--demo", ""},
		{"#!comment\n\n#target:   -s notes  \n# more\nlist_notes\n", "-s notes", ""},
		{"list_notes\n", "", ""},
		{"list_notes\n# target: --demo\n", "", "s.mcpsh:2: the target line comes before the first call"},
		{"# target: --demo\n# target: -s x\n", "", "s.mcpsh:2: a second target line (the first is line 1)"},
	} {
		pin, _, err := targetLine("s.mcpsh", []byte(tt.script))
		if pin != tt.pin || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("%q: pin %q, error %v; want %q, %q", tt.script, pin, err, tt.pin, tt.err)
		}
	}
	base := targetFlags{server: "cli", protocol: "2025-06-18", untrusted: true, headers: []string{"A: b"}}
	got, cmd, err := pinned(base, `--url https://x.example/mcp --header 'X-Team: a b'`)
	if err != nil || got.url != "https://x.example/mcp" || got.server != "" || strings.Join(got.headers, "|") != "X-Team: a b" ||
		got.protocol != "2025-06-18" || !got.untrusted || cmd != nil {
		t.Errorf("pinned: %+v %q %v", got, cmd, err)
	}
	if got, cmd, err := pinned(base, "-- node ./server.js --stdio"); err != nil || got.server != "" || strings.Join(cmd, " ") != "node ./server.js --stdio" {
		t.Errorf("a command: %+v %q %v", got, cmd, err)
	}
	for pin, want := range map[string]string{
		"":                "names no server",
		"--untrusted":     "names no server",
		"--protocol auto": "unknown flag: --protocol",
		"notes":           `"notes" is not a flag`,
		"-s 'notes":       "unterminated ' quote",
	} {
		if _, _, err := pinned(base, pin); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", pin, err, want)
		}
	}
}

func TestFindScripts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, p := range []string{"b.mcpsh", "a/z.mcpsh", "a/notes.txt", "c.mcpsh"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o700)
		os.WriteFile(filepath.Join(dir, p), nil, 0o600)
	}
	got, err := findScripts([]string{dir, filepath.Join(dir, "c.mcpsh"), filepath.Join(dir, "a/notes.txt")})
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i], _ = filepath.Rel(dir, got[i])
	}
	if want := []string{"a/z.mcpsh", "b.mcpsh", "c.mcpsh", "a/notes.txt"}; !cmp.Equal(want, got) {
		t.Errorf("scripts %q, want %q", got, want)
	}
	empty := t.TempDir()
	if _, err := findScripts([]string{empty}); err == nil || !strings.Contains(err.Error(), "no *.mcpsh scripts in "+empty) {
		t.Errorf("an empty folder: %v", err)
	}
}

// A passing and a failing script: exit 1 with the failure by file and line
// and JUnit XML with one failure; --update rewrites that line alone, says
// so, and exits 0; the suite then passes as it is.
func TestTestSuiteUpdate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pass := "get_note id=1\n  expect status ok\n  expect text \"Welcome\"\n"
	fail := "# checks the search\r\nsearch_notes query=milk\r\n  expect json .total == 1\r\n\texpect json .matches[0].title == \"Groceries\"  \r\nlist_notes\r\n"
	os.WriteFile(filepath.Join(dir, "a.mcpsh"), []byte(pass), 0o600)
	os.WriteFile(filepath.Join(dir, "b.mcpsh"), []byte(fail), 0o640)
	report := filepath.Join(t.TempDir(), "junit.xml")
	r, _ := run(t, env{}, "test", "--demo", "-j", "1", dir, "--junit", report)
	wantCode(t, r, ExitFailure)
	b := filepath.Join(dir, "b.mcpsh")
	contains(t, "stdout", r.out, "FAIL "+b, b+`:4: expected json .matches[0].title == "Groceries", got "Shopping list"`,
		"2 scripts: 1 passed, 1 failed; 3 calls; 4 expectations: 3 passed, 1 failed")
	var x struct {
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name     string   `xml:"name,attr"`
				Failures []string `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	data, _ := os.ReadFile(report)
	if err := xml.Unmarshal(data, &x); err != nil || x.Failures != 1 || len(x.Suites) != 2 || len(x.Suites[1].Cases) != 2 ||
		x.Suites[1].Cases[0].Name != "search_notes (line 2)" || len(x.Suites[1].Cases[0].Failures) != 1 {
		t.Errorf("junit %+v %v:\n%s", x, err, data)
	}

	r, _ = run(t, env{}, "test", "--demo", "-j", "1", dir, "--update")
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "updated "+b+`:4: expect json .matches[0].title == "Shopping list"`, `(was: expect json .matches[0].title == "Groceries")`,
		"4 expectations: 3 passed, 0 failed, 1 updated")
	got, _ := os.ReadFile(b)
	if want := strings.Replace(fail, `"Groceries"`, `"Shopping list"`, 1); string(got) != want {
		t.Errorf("the script is now\n%q\nwant\n%q", got, want)
	}
	if st, _ := os.Stat(b); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", st.Mode())
	}
	r, _ = run(t, env{}, "test", "--demo", "-j", "1", dir)
	wantCode(t, r, ExitOK)
}

// What --update cannot rewrite it leaves, and says why; the suite still
// fails.
func TestTestUpdateLeavesWhatItCannot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := "pop_note\n  expect status ok\n  expect text \"popped\"\nget_note id=1\n  expect json .x == 1\n"
	os.WriteFile(filepath.Join(dir, "a.mcpsh"), []byte(script), 0o600)
	r, _ := run(t, env{}, "test", "--demo", dir, "--update")
	wantCode(t, r, ExitFailure)
	p := filepath.Join(dir, "a.mcpsh")
	contains(t, "stdout", r.out, "updated "+p+":2: expect status refused",
		p+":3: left as it is: the call has no result: it ended refused",
		p+":5: left as it is: the result has no structuredContent")
	got, _ := os.ReadFile(p)
	if want := strings.Replace(script, "status ok", "status refused", 1); string(got) != want {
		t.Errorf("the script is now %q", got)
	}
}

// On a terminal each script that finishes says so on stderr; piped, only
// the report is printed.
func TestTestProgressOnATerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.mcpsh"), []byte("get_note id=1\n  expect text \"Welcome\"\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "b.mcpsh"), []byte("get_note id=1\n  expect text \"Goodbye\"\n"), 0o600)
	r, _ := run(t, env{tty: true, width: 80}, "test", "--demo", "-j", "1", "--no-log", dir)
	wantCode(t, r, ExitFailure)
	a, b := filepath.Join(dir, "a.mcpsh"), filepath.Join(dir, "b.mcpsh")
	contains(t, "stderr", r.errOut, "[1/2]", "ok   "+a+" (1 call, 1 expectation, ", "[2/2]", "FAIL "+b+" (1 call, 1 of 1 expectation failed, ")
	r, _ = run(t, env{}, "test", "--demo", "-j", "1", "--no-log", dir)
	wantCode(t, r, ExitFailure)
	if r.errOut != "" {
		t.Errorf("piped, stderr has %q", r.errOut)
	}
	contains(t, "stdout", r.out, "FAIL "+b, b+`:2: expected text "Goodbye"`)
	if strings.Contains(r.out, "ok   "+a) {
		t.Errorf("the report lists a script that passed:\n%s", r.out)
	}
}

// Scripts side by side share the factory's session log and nothing that
// changes; under -race this is the test that says so.
func TestTestScriptsSideBySide(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"a", "b", "c", "d"} {
		os.WriteFile(filepath.Join(dir, name+".mcpsh"), []byte("add_note title="+name+"\n  expect text \"Added note #4\"\nlist_notes\n"), 0o600)
	}
	f, out, errOut := testFactory(t, env{})
	f.newDemo = demo.New // each script its own demo: the closure run() sets is not for several
	logPath := filepath.Join(t.TempDir(), "s.jsonl")
	code := execute(context.Background(), f, []string{"test", "--demo", "-j", "4", "--log", logPath, dir})
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	contains(t, "stdout", out.String(), "4 scripts: 4 passed, 0 failed; 8 calls; 4 expectations: 4 passed, 0 failed")
	entries, _, err := sessionlog.ReadFile(logPath)
	if err != nil || len(entries) != 8 {
		t.Errorf("the log has %d entries, %v; want the 8 calls", len(entries), err)
	}
}
