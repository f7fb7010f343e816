package audit

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A server in three versions, over the real wire: unchanged (keys reordered
// and spaced otherwise: nothing), reworded and strengthened (information
// only), weakened in each way a host relies on (errors, each named).
func TestCompareBaseline(t *testing.T) {
	base := NewBaseline("notes", listFixture(t, "baseline-v1.json"))
	var buf bytes.Buffer
	if err := WriteBaseline(&buf, base); err != nil {
		t.Fatal(err)
	}
	read, err := ReadBaseline("notes.baseline.json", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(base, read); d != "" {
		t.Fatalf("a baseline read back differs (-written +read):\n%s", d)
	}

	brief := func(fs []Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, fmt.Sprintf("%s %s %s: %s", f.Tool, f.Severity, f.Rule, f.Message))
		}
		return out
	}
	for _, file := range []string{"baseline-v1.json", "baseline-v1-reordered.json"} {
		if got := CompareBaseline(read, listFixture(t, file)); len(got) != 0 {
			t.Errorf("%s: want no finding, got:\n%s", file, strings.Join(brief(got), "\n"))
		}
	}

	got := CompareBaseline(read, listFixture(t, "baseline-v2-reworded.json"))
	want := []string{
		"add_note info baseline-strengthened: now destructive: hosts ask before it runs",
		"add_note info baseline-strengthened: now open-world: its calls are flagged as reaching outside",
		"add_note info baseline-reworded: description changed",
		"delete_note info baseline-changed: declaration changed",
		"fetch_page info baseline-strengthened: no longer read-only: hosts ask or classify it as a writer",
		`fetch_page info baseline-reworded: title "Fetch a page" is now "Fetch a web page"`,
	}
	checkFindings(t, "reworded", brief(got), want)
	for _, f := range got {
		if f.Severity != Info {
			t.Errorf("reworded: a change that weakens nothing is not %s: %v", f.Severity, f)
		}
	}

	got = CompareBaseline(read, listFixture(t, "baseline-v3-weakened.json"))
	want = []string{
		"add_note error baseline-breaking-schema: input schema: text: maxLength is now 200 (it had none)",
		"add_note error baseline-breaking-schema: input schema: tag: no longer takes [\"c\"]",
		"add_note error baseline-breaking-schema: input schema: tag: now required",
		"delete_note error baseline-weakened: no longer destructive (destructiveHint)",
		"fetch_page error baseline-weakened: now claims a closed world (openWorldHint)",
		"fetch_page error baseline-breaking-schema: output schema: body: may now be null",
		"fetch_page error baseline-breaking-schema: output schema: body: no longer required",
		"purge error baseline-new-tool-unannotated: new tool with no annotations: hosts read it by the spec's defaults as destructive",
		"stats info baseline-new-tool: new tool, read-only, every hint declared",
	}
	checkFindings(t, "weakened", brief(got), want)
}

// checkFindings wants each line of want to start a finding, and no finding
// left over.
func checkFindings(t *testing.T, name string, got, want []string) {
	t.Helper()
	left := append([]string(nil), got...)
	for _, w := range want {
		found := -1
		for i, g := range left {
			if strings.HasPrefix(g, w) {
				found = i
				break
			}
		}
		if found < 0 {
			t.Errorf("%s: no finding starts %q", name, w)
			continue
		}
		left = append(left[:found], left[found+1:]...)
	}
	if len(left) > 0 {
		t.Errorf("%s: findings not expected:\n%s", name, strings.Join(left, "\n"))
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("%s: got:\n%s", name, strings.Join(got, "\n"))
	}
}

func TestReadBaselineRefusesWhatItCannotRead(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"not JSON", `{`, "b.json: not an mcpsh baseline"},
		{"another file", `{"tools": []}`, `b.json: not an mcpsh baseline (no "mcpshBaseline" key`},
		{"a later version", `{"mcpshBaseline": 2, "tools": []}`, "b.json: mcpshBaseline: version 2, this mcpsh reads version 1"},
		{"a tool without a name", `{"mcpshBaseline": 1, "tools": [{"effective": {}}]}`, "b.json: tools[0].name: missing"},
		{"a tool twice", `{"mcpshBaseline": 1, "tools": [{"name": "a", "effective": {}}, {"name": "a", "effective": {}}]}`, `b.json: tools[1].name: "a" appears twice`},
		{"no hints in effect", `{"mcpshBaseline": 1, "tools": [{"name": "a"}]}`, "b.json: tools[0].effective: missing"},
	} {
		_, err := ReadBaseline("b.json", []byte(tt.data))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to start %q", tt.name, err, tt.want)
		}
	}
}

// A recursive or enormous schema costs a bounded walk, and a schema that is
// not JSON is no schema rather than a crash.
func TestBaselineSchemaWalkIsBounded(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 5000) + `{"type":"string"}` + strings.Repeat(`}}`, 5000)
	deeper := strings.Repeat(`{"type":"object","properties":{"a":`, 5000) + `{"type":"integer"}` + strings.Repeat(`}}`, 5000)
	if got := inputBreaks([]byte(deep), []byte(deeper)); len(got) != 0 {
		t.Errorf("a change below the depth bound is reported: %v", got)
	}
	if got := inputBreaks([]byte(`{`), []byte(`{"type":"object","required":["x"]}`)); len(got) != 1 {
		t.Errorf("a broken old schema reads as none: got %v", got)
	}
}
