package policy

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// deciding renders the lines a person is shown for a decision.
func deciding(d Decision) string {
	var lines []string
	for _, b := range d.Deciding() {
		lines = append(lines, b.String())
	}
	return strings.Join(lines, "\n")
}

func TestBasisSaysWhereEachDecidingHintCameFrom(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"a declared destroyer", Request{Tool: "pop", Hints: Hints{ReadOnly: False, Destructive: True}, Trust: Trusted, Mode: Interactive},
			"destructiveHint true — declared by the server (a claim, not checked)"},
		{"destructive by the spec's defaults", Request{Tool: "archive", Hints: Hints{ReadOnly: False, OpenWorld: False}, Trust: Trusted, Mode: Interactive},
			"readOnlyHint false — declared by the server (a claim, not checked)\ndestructiveHint absent — the spec's default (true)"},
		{"no annotations at all", Request{Tool: "echo", Trust: Trusted, Mode: Interactive},
			"readOnlyHint absent — the spec's default (false)\ndestructiveHint absent — the spec's default (true)"},
		{"a conflict", Request{Tool: "scan", Hints: Hints{ReadOnly: True, Destructive: True}, Trust: Trusted, Mode: Interactive},
			"readOnlyHint true — declared, but destructiveHint is true too: read as false (the stricter reading)\n" +
				"destructiveHint true — declared by the server (a claim, not checked)"},
		{"an untrusted read-only claim", Request{Tool: "get", Hints: Hints{ReadOnly: True, OpenWorld: False}, Trust: Untrusted, Mode: Interactive},
			"readOnlyHint true — declared, not believed: the server is untrusted (read as false)\n" +
				"destructiveHint absent — the spec's default (true)"},
		{"a rule on open-world", Request{Tool: "fetch", Hints: Hints{ReadOnly: True}, Trust: Trusted, Mode: Interactive,
			Rules: []Rule{{"is:open-world", Confirm}}},
			`openWorldHint absent — the spec's default (true); rule "is:open-world" matched on it`},
		{"a rule on open-world, untrusted", Request{Tool: "fetch", Hints: Hints{ReadOnly: True, OpenWorld: False}, Trust: Untrusted, Mode: Interactive,
			Rules: []Rule{{"is:open-world", Confirm}}},
			`openWorldHint false — declared, not believed: the server is untrusted (read as true); rule "is:open-world" matched on it`},
		{"a read-only tool runs on its claim", Request{Tool: "get", Hints: Hints{ReadOnly: True, OpenWorld: False}, Trust: Trusted, Mode: Batch},
			"readOnlyHint true — declared by the server (a claim, not checked)"},
		{"a rule by name decides on no hint", Request{Tool: "rm", Hints: Hints{ReadOnly: False, Destructive: True}, Trust: Trusted, Mode: Batch,
			Rules: []Rule{{"rm", Deny}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := deciding(Decide(tt.req)); got != tt.want {
				t.Errorf("deciding lines:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestBasisOfARuleThatOverrodeTheHints(t *testing.T) {
	d := Decide(Request{Tool: "rm", Hints: Hints{ReadOnly: False, Destructive: True, Idempotent: True, OpenWorld: False},
		Trust: Trusted, Mode: Batch, Rules: []Rule{{"rm", Allow}}})
	if d.Verdict != Run || d.By != ByRule {
		t.Fatalf("%+v", d)
	}
	want := []Basis{
		{Field: FieldReadOnly, Declared: False, Value: false, Source: SourceDeclared, Believed: true},
		{Field: FieldDestructive, Declared: True, Value: true, Source: SourceDeclared, Believed: true, Rule: "rm", Overridden: true},
		{Field: FieldIdempotent, Declared: True, Value: true, Source: SourceDeclared, Believed: true},
		{Field: FieldOpenWorld, Declared: False, Value: false, Source: SourceDeclared, Believed: true},
	}
	if !reflect.DeepEqual(d.Basis, want) {
		t.Errorf("basis\n%+v\nwant\n%+v", d.Basis, want)
	}
	if s := d.Basis[1].String(); s != `destructiveHint true — declared by the server (a claim, not checked); overridden by rule "rm"` {
		t.Errorf("line %q", s)
	}
}

// TestBasisInTheLog: the session log writes the basis as JSON, and old
// readers of it, and mcpsh reading it back, see the same thing.
func TestBasisInTheLog(t *testing.T) {
	d := Decide(Request{Tool: "scan", Hints: Hints{ReadOnly: True, Destructive: True}, Trust: Untrusted, Mode: Interactive,
		Rules: []Rule{{"is:conflict", Confirm}}})
	b, err := json.Marshal(d.Basis)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"hint":"readOnlyHint","declared":"true","value":false,"source":"conflict","believed":true,"decided":true,"rule":"is:conflict"},` +
		`{"hint":"destructiveHint","declared":"true","value":true,"source":"declared","believed":true,"decided":true,"rule":"is:conflict"},` +
		`{"hint":"idempotentHint","declared":"absent","value":false,"source":"default","believed":true},` +
		`{"hint":"openWorldHint","declared":"absent","value":true,"source":"default","believed":true}]`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
	var back []Basis
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, d.Basis) {
		t.Errorf("read back %+v, %v", back, err)
	}
	var h Hint
	if err := json.Unmarshal([]byte(`"maybe"`), &h); err != nil || h != Absent {
		t.Errorf("an unknown hint reads as %v, %v; want absent", h, err)
	}
}

// TestDecisionEqualSeesEveryField: Equal lists the fields by hand, so a field
// added to Decision must be added there too.
func TestDecisionEqualSeesEveryField(t *testing.T) {
	d := Decide(Request{Tool: "t", Trust: Trusted, Mode: Interactive})
	if !d.Equal(d) {
		t.Fatal("a decision is not equal to itself")
	}
	v := reflect.ValueOf(&d).Elem()
	for i := range v.NumField() {
		o := d
		f := reflect.ValueOf(&o).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Int:
			f.SetInt(f.Int() + 1)
		case reflect.Slice:
			f.Set(reflect.ValueOf(append(slices.Clone(d.Basis), Basis{})))
		default:
			t.Fatalf("field %s of kind %s: teach this test (and Equal) about it", v.Type().Field(i).Name, f.Kind())
		}
		if d.Equal(o) {
			t.Errorf("Equal does not look at %s", v.Type().Field(i).Name)
		}
	}
}
