package client

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/policy"
)

func TestListKeepsDeclaredApartFromImplied(t *testing.T) {
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
	for _, w := range []string{`readOnlyHint is "true", not a boolean`, "tool has no name", `"full" listed twice`, "inputExamples[1] is not an object"} {
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
