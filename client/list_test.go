package client

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/policy"
)

func TestListKeepsDeclaredApartFromImplied(t *testing.T) {
	t.Parallel()
	s, err := Connect(context.Background(), fakeTarget(t, "hints"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l, err := s.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*Tool{}
	var names []string
	for _, tool := range l.Tools {
		got[tool.Name] = tool
		names = append(names, tool.Name)
	}
	if diff := cmp.Diff([]string{"bare", "nulls", "stringy", "full", "examples"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	tests := []struct {
		name     string
		hints    policy.Hints
		declared string
		class    policy.Class
		title    string
	}{
		{"bare", policy.Hints{}, "", policy.ClassDestructive, "bare"},
		{"nulls", policy.Hints{}, "destructiveHint=null readOnlyHint=null", policy.ClassDestructive, "nulls"},
		{"stringy", policy.Hints{OpenWorld: policy.False}, `openWorldHint=false readOnlyHint="true"`, policy.ClassDestructive, "stringy"},
		{"full", policy.Hints{ReadOnly: policy.False, Destructive: policy.False, Idempotent: policy.True, OpenWorld: policy.False},
			"destructiveHint=false idempotentHint=true openWorldHint=false readOnlyHint=false", policy.ClassWrite, "Full"},
	}
	for _, tt := range tests {
		tool := got[tt.name]
		if tool == nil {
			t.Errorf("%s missing", tt.name)
			continue
		}
		if tool.Hints != tt.hints {
			t.Errorf("%s hints = %+v, want %+v", tt.name, tool.Hints, tt.hints)
		}
		if d := declaredString(tool); d != tt.declared {
			t.Errorf("%s declared = %q, want %q", tt.name, d, tt.declared)
		}
		if tool.Class() != tt.class || tool.Title != tt.title {
			t.Errorf("%s class/title = %s/%q, want %s/%q", tt.name, tool.Class(), tool.Title, tt.class, tt.title)
		}
	}
	if got["bare"].HasAnnotations || !got["nulls"].HasAnnotations {
		t.Error("HasAnnotations wrong")
	}
	if len(got["examples"].Examples) != 2 {
		t.Errorf("examples = %v, want the two object entries", got["examples"].Examples)
	}
	warn := strings.Join(l.Warnings, "\n")
	for _, w := range []string{`readOnlyHint is "true", not a boolean`, "tool has no name", "tool full is listed 2 times", "inputExamples[1] is not an object"} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings lack %q:\n%s", w, warn)
		}
	}
}

func declaredString(t *Tool) string {
	var parts []string
	for _, f := range policy.Fields {
		if v, ok := t.Declared[string(f)]; ok {
			parts = append(parts, string(f)+"="+string(v))
		}
	}
	// sorted by wire name for a stable comparison
	for i := range parts {
		for j := i + 1; j < len(parts); j++ {
			if parts[j] < parts[i] {
				parts[i], parts[j] = parts[j], parts[i]
			}
		}
	}
	return strings.Join(parts, " ")
}

func TestListFollowsPagesAndStopsOnRepeatedCursor(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		scenario string
		want     []string
		warning  string
	}{
		{"pages", []string{"tool-", "tool-p2", "tool-p3"}, ""},
		{"cursor-loop", []string{"t", "tagain"}, `repeated cursor "again"`},
	} {
		t.Run(tt.scenario, func(t *testing.T) {
			s, err := Connect(context.Background(), fakeTarget(t, tt.scenario), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			l, err := s.ListTools(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range l.Tools {
				names = append(names, tool.Name)
			}
			if diff := cmp.Diff(tt.want, names); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			if w := strings.Join(l.Warnings, "\n"); tt.warning != "" && !strings.Contains(w, tt.warning) || tt.warning == "" && w != "" {
				t.Errorf("warnings = %q, want %q", w, tt.warning)
			}
		})
	}
}

func TestListFromGoSDKServer(t *testing.T) {
	t.Parallel()
	c := newCountingServer()
	s := connectCounting(t, c)
	get := mustTool(t, s, "get")
	if get.Class() != policy.ClassReadOnly || get.Title != "Get" {
		t.Errorf("get: %s %q", get.Class(), get.Title)
	}
	add := mustTool(t, s, "add")
	if add.Class() != policy.ClassWrite || add.Hints.Idempotent != policy.False {
		t.Errorf("add: %s %+v", add.Class(), add.Hints)
	}
	if len(s.Tools()) != 8 {
		t.Errorf("got %d tools, want 8", len(s.Tools()))
	}
}

// A server that lists one name twice must not get the lenient definition
// through by putting it first: the strictest reading decides, hint by hint.
func TestDuplicateNamesTakeTheStrictestReading(t *testing.T) {
	t.Parallel()
	s, err := Connect(context.Background(), fakeTarget(t, "duplicates"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l, err := s.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Tools) != 3 {
		t.Fatalf("%d tools, want 3", len(l.Tools))
	}
	tests := []struct {
		name       string
		class      policy.Class
		idempotent bool
		openWorld  bool
		title      string
	}{
		{"lenient_first", policy.ClassDestructive, false, true, "Wipe"},
		// The read-only definition says nothing about idempotence: the strict
		// reading of that is "not idempotent".
		{"strict_first", policy.ClassDestructive, false, false, "strict_first"},
		{"mixed", policy.ClassWrite, false, true, "mixed"},
	}
	for _, tt := range tests {
		tool := mustTool(t, s, tt.name)
		e := tool.Effective()
		if tool.Class() != tt.class || e.Idempotent != tt.idempotent || e.OpenWorld != tt.openWorld || tool.Title != tt.title {
			t.Errorf("%s: %s idempotent=%v openWorld=%v title %q; want %s %v %v %q",
				tt.name, tool.Class(), e.Idempotent, e.OpenWorld, tool.Title, tt.class, tt.idempotent, tt.openWorld, tt.title)
		}
	}
	if got := declaredString(mustTool(t, s, "strict_first")); got != "destructiveHint=true openWorldHint=false readOnlyHint=false" {
		t.Errorf("strict_first declared %s", got)
	}
	// And the call is refused in a script, as for any destructive tool.
	o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "lenient_first"), Mode: policy.Batch})
	if o.Status != StatusRefused {
		t.Errorf("lenient_first: %s (%s), want refused", o.Status, o.Reason)
	}
	warn := strings.Join(l.Warnings, "\n")
	if !strings.Contains(warn, "tool lenient_first is listed 2 times: the strictest reading of its definitions decides (destructive, not idempotent, open-world)") {
		t.Errorf("warnings:\n%s", warn)
	}
}
