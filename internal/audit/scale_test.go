package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// sameTitle makes n annotated tools that all share one title.
func sameTitle(n int) []*client.Tool {
	tools := make([]*client.Tool, n)
	for i := range tools {
		tools[i] = &client.Tool{Name: fmt.Sprintf("tool_%05d", i), Title: "Do it", ToolTitle: "Do it", Description: "Does it.",
			HasAnnotations: true, Hints: policy.Hints{ReadOnly: policy.True, OpenWorld: policy.False},
			Declared: map[string]json.RawMessage{"readOnlyHint": json.RawMessage("true"), "openWorldHint": json.RawMessage("false")}}
	}
	return tools
}

func dupFindings(t *testing.T, tools []*client.Tool) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range Check(tools) {
		if f.Rule == RuleDuplicateTitle {
			out[f.Tool] = f.Message
		}
	}
	if len(out) != len(tools) {
		t.Fatalf("%d duplicate-title findings for %d tools sharing a title", len(out), len(tools))
	}
	return out
}

// A title shared by k tools used to give each a message naming the k-1 others:
// k² names in all. Each message now names three and counts the rest.
func TestDuplicateTitleMessageIsBounded(t *testing.T) {
	const n = 2000
	msgs := dupFindings(t, sameTitle(n))
	want := `the display title "Do it" is shared with 1,999 other tools (tool_00001, tool_00002, tool_00003 and 1,996 more): ` +
		"people cannot tell them apart in a client's tool list; give each tool its own title"
	if got := msgs["tool_00000"]; got != want {
		t.Errorf("message:\n got %q\nwant %q", got, want)
	}
	if got := msgs["tool_00002"]; !strings.Contains(got, "(tool_00000, tool_00001, tool_00003 and 1,996 more)") {
		t.Errorf("a tool does not name itself among the others: %q", got)
	}
	for name, m := range msgs {
		if len(m) > len(want) {
			t.Fatalf("%s: message of %d bytes, more than %d: its size depends on how many tools share the title", name, len(m), len(want))
		}
	}
}

func TestDuplicateTitleSmallGroupsNameEveryOther(t *testing.T) {
	for n, want := range map[int]string{
		2: "is shared with tool_00001: people",
		4: "is shared with tool_00001, tool_00002, tool_00003: people",
		5: "is shared with 4 other tools (tool_00001, tool_00002, tool_00003 and 1 more): people",
	} {
		if got := dupFindings(t, sameTitle(n))["tool_00000"]; !strings.Contains(got, want) {
			t.Errorf("%d tools: %q lacks %q", n, got, want)
		}
	}
	if got := thousands(1234567); got != "1,234,567" {
		t.Errorf("thousands: %s", got)
	}
}

// outputs renders every format the audit has: text, Markdown and the JSON of
// `mcpsh audit --json`.
func outputs(t *testing.T, tools []*client.Tool) map[string]int {
	t.Helper()
	r := New("s", "stdio", policy.Trusted, tools)
	var text, markdown bytes.Buffer
	r.WriteText(&text, 100, Paint{})
	r.WriteMarkdown(&markdown)
	js, err := json.Marshal(r.Findings)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]int{"text": text.Len(), "markdown": markdown.Len(), "json": len(js)}
}

// Doubling the tools at most doubles every report, whatever their titles: the
// size of the output is what made the audit quadratic in time.
func TestReportsGrowLinearly(t *testing.T) {
	small, large := outputs(t, sameTitle(300)), outputs(t, sameTitle(600))
	for format, n := range small {
		if ratio := float64(large[format]) / float64(n); ratio > 2.05 {
			t.Errorf("%s: %d bytes for 300 tools, %d for 600 (×%.2f)", format, n, large[format], ratio)
		}
	}
}

func TestByToolKeepsEachToolsFindingsInOrder(t *testing.T) {
	fs := []Finding{
		{Tool: "a", Rule: "1"}, {Tool: "a", Rule: "2"}, {Tool: "b", Rule: "1"},
		{Tool: "a", Rule: "3"}, {Tool: "c", Rule: "1"}, {Tool: "b", Rule: "2"},
	}
	by := ByTool(fs)
	for _, name := range []string{"a", "b", "c", "d"} {
		if diff := cmp.Diff(ForTool(fs, name), by[name]); diff != "" {
			t.Errorf("%s (-ForTool +ByTool):\n%s", name, diff)
		}
	}
	// The runs share the findings' array; adding to one must not spill into the next.
	if by["a"][2].Rule != "3" || fs[2].Tool != "b" {
		t.Errorf("a later run of a tool overwrote another tool's finding: %v", fs)
	}
}

// mcpsh reads a Conflict the strict way (policy.Hints.Effective); the hosts
// that follow the spec's letter believe readOnlyHint and run it unasked.
func TestConflictIsExplainedAndPreviewedPerHost(t *testing.T) {
	conflict := policy.Hints{ReadOnly: policy.True, Destructive: policy.True, Idempotent: policy.True, OpenWorld: policy.False}
	scan := &client.Tool{Name: "get_disk_usage", Title: "Disk", ToolTitle: "Disk", Description: "Reports disk usage.", HasAnnotations: true, Hints: conflict,
		Declared: map[string]json.RawMessage{"readOnlyHint": json.RawMessage("true"), "destructiveHint": json.RawMessage("true"),
			"idempotentHint": json.RawMessage("true"), "openWorldHint": json.RawMessage("false")}}
	fs := Check([]*client.Tool{scan})
	var rules []string
	for _, f := range fs {
		rules = append(rules, f.Rule)
	}
	// A read verb on a destructive tool is name-suggests-read, but here
	// readOnlyHint is already true: the contradiction is the one finding.
	if diff := cmp.Diff([]string{RuleHintsContradict}, rules); diff != "" {
		t.Fatalf("rules (-want +got):\n%s", diff)
	}
	for _, want := range []string{
		"mcpsh reads that the strict way, as destructive and not read-only, so it asks before every call",
		"replay-safe only because idempotentHint is true",
		"VS Code, Claude Code plan mode, Cursor Ask mode and Codex look at readOnlyHint and run it without asking",
		"set readOnlyHint: false, otherwise set destructiveHint: false",
	} {
		if !strings.Contains(fs[0].Message, want) {
			t.Errorf("%q lacks %q", fs[0].Message, want)
		}
	}
	scan.Hints.Idempotent = policy.False
	if m := Check([]*client.Tool{scan})[0].Message; !strings.Contains(m, "does not treat it as replay-safe") {
		t.Errorf("without idempotentHint: true: %q", m)
	}
	var got []string
	for _, h := range PreviewTool(scan, policy.Trusted) {
		got = append(got, string(h.Action))
	}
	if want := "asks runs runs runs runs"; strings.Join(got, " ") != want {
		t.Errorf("preview (mcpsh, VS Code, Claude Code plan, Cursor Ask, Codex): %s, want %s", strings.Join(got, " "), want)
	}
}
