package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestToolsOnATerminalGroupsBySafety(t *testing.T) {
	t.Parallel()
	r, _ := run(t, env{tty: true, width: 100}, "tools", "--demo")
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "demo · 17 tools (7 read-only, 5 write, 5 destructive)", "reports itself as mcpsh-demo 1.0.0",
		"Read-only (7)", "Write (5)", "Destructive (5)", "Weather forecast", "weather_forecast", "implied:destructive", "implied:all")
	if strings.Contains(r.out, "\x1b[") {
		t.Error("colour codes without colour enabled")
	}
	ro, wr, de := strings.Index(r.out, "Read-only"), strings.Index(r.out, "Write ("), strings.Index(r.out, "Destructive (")
	if !(ro < wr && wr < de) {
		t.Error("groups are not in read-only, write, destructive order")
	}
	// The archive tool sits under Destructive although its author meant "write".
	if i := strings.Index(r.out, "archive_notes"); i < de {
		t.Error("archive_notes (destructiveHint left out) is not listed as destructive")
	}
	for _, l := range lines(r.out) {
		if len([]rune(l)) > 100 {
			t.Errorf("line wider than the terminal: %q", l)
		}
	}
	narrow, _ := run(t, env{tty: true, width: 60}, "tools", "--demo")
	for _, l := range lines(narrow.out) {
		if n := len([]rune(l)); n > 60 && !strings.HasPrefix(l, "demo · ") { // the server's line is not cut
			t.Errorf("line of %d cells at width 60: %q", n, l)
		}
	}
}

func TestToolsPipedIsTabSeparated(t *testing.T) {
	t.Parallel()
	r, _ := run(t, env{}, "tools", "--demo")
	wantCode(t, r, ExitOK)
	ls := lines(r.out)
	if len(ls) != 17 {
		t.Fatalf("%d lines, want 17", len(ls))
	}
	want := map[string]string{
		"add_note":    "add_note\twrite\tAdd a note\t",
		"delete_note": "delete_note\tdestructive\tDelete a note\tidempotent",
		"echo":        "echo\tdestructive\techo\topen-world,implied:all",
	}
	for _, l := range ls {
		name := strings.SplitN(l, "\t", 2)[0]
		if w, ok := want[name]; ok && l != w {
			t.Errorf("line %q, want %q", l, w)
		}
	}
}

func TestToolsJSON(t *testing.T) {
	t.Parallel()
	r, _ := run(t, env{}, "tools", "--demo", "--json")
	wantCode(t, r, ExitOK)
	var tools []map[string]any
	if err := json.Unmarshal([]byte(r.out), &tools); err != nil {
		t.Fatal(err)
	}
	by := map[string]map[string]any{}
	for _, tool := range tools {
		by[tool["name"].(string)] = tool
		for _, k := range []string{"name", "title", "description", "class", "readOnly", "destructive", "idempotent", "openWorld", "declared", "inputExamples", "inputSchema", "outputSchema"} {
			if _, ok := tool[k]; !ok {
				t.Errorf("%s lacks %q", tool["name"], k)
			}
		}
	}
	archive := by["archive_notes"]
	if archive["class"] != "destructive" || archive["destructive"] != true {
		t.Errorf("archive_notes: %v", archive)
	}
	if _, sent := archive["declared"].(map[string]any)["destructiveHint"]; sent {
		t.Error("declared shows a destructiveHint the server never sent")
	}
	if d := by["echo"]["declared"].(map[string]any); len(d) != 0 {
		t.Errorf("echo declared %v, want {}", d)
	}
	if by["weather_forecast"]["title"] != "Weather forecast" {
		t.Errorf("title precedence: %v", by["weather_forecast"]["title"])
	}
	if by["get_note"]["title"] != "Read a note" {
		t.Errorf("annotations.title fallback: %v", by["get_note"]["title"])
	}
	if ex := by["add_note"]["inputExamples"].([]any); len(ex) != 2 {
		t.Errorf("add_note examples %v", ex)
	}
	if ex := by["list_notes"]["inputExamples"].([]any); len(ex) != 0 {
		t.Errorf("list_notes examples %v, want []", ex)
	}
	if by["search_notes"]["outputSchema"] == nil || by["list_notes"]["outputSchema"] != nil {
		t.Error("outputSchema: want it on search_notes only")
	}
	if by["get_note"]["idempotent"] != true || by["add_note"]["idempotent"] != false {
		t.Error("effective idempotent wrong")
	}
}

func TestBareMcpshWithoutATerminal(t *testing.T) {
	t.Parallel()
	// Piped, bare mcpsh prints the grouped table instead of the full-screen view.
	r, _ := run(t, env{}, "--demo")
	wantCode(t, r, ExitOK)
	contains(t, "stdout", r.out, "Read-only (7)", "Destructive (5)")
	cfg := configWithDemo(t)
	r, _ = run(t, env{}, "--config", cfg)
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, "name one with -s NAME (opening them all at once needs a terminal)")
	r, _ = run(t, env{}, "--config", writeConfig(t, `{"mcpServers":{}}`))
	wantCode(t, r, ExitOK)
	contains(t, "help", r.out, "Exit codes:")
}
