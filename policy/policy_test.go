package policy

import (
	"strings"
	"testing"
)

func TestEffectiveDefaults(t *testing.T) {
	tests := []struct {
		name  string
		hints Hints
		want  Effective
		class Class
	}{
		{"no annotations assume the worst", Hints{},
			Effective{Destructive: true, OpenWorld: true}, ClassDestructive},
		{"read-only ignores destructive and idempotent", Hints{ReadOnly: True, Destructive: False, Idempotent: False},
			Effective{ReadOnly: true, Idempotent: true, OpenWorld: true}, ClassReadOnly},
		{"read-only and destructive is a conflict, read strictly", Hints{ReadOnly: True, Destructive: True, Idempotent: False},
			Effective{Destructive: true, OpenWorld: true}, ClassDestructive},
		{"a conflict is idempotent only if declared", Hints{ReadOnly: True, Destructive: True, Idempotent: True, OpenWorld: False},
			Effective{Destructive: true, Idempotent: true}, ClassDestructive},
		{"a conflict without idempotentHint is not idempotent", Hints{ReadOnly: True, Destructive: True},
			Effective{Destructive: true, OpenWorld: true}, ClassDestructive},
		{"additive write", Hints{ReadOnly: False, Destructive: False},
			Effective{OpenWorld: true}, ClassWrite},
		{"idempotent write, closed world", Hints{Destructive: False, Idempotent: True, OpenWorld: False},
			Effective{Idempotent: true}, ClassWrite},
		{"destructive by default even when idempotent", Hints{Idempotent: True},
			Effective{Destructive: true, Idempotent: true, OpenWorld: true}, ClassDestructive},
		{"explicit readOnly false is still a writer", Hints{ReadOnly: False, OpenWorld: False},
			Effective{Destructive: true}, ClassDestructive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.hints.Effective(); got != tt.want {
				t.Errorf("Effective() = %+v, want %+v", got, tt.want)
			}
			if got := tt.hints.Class(); got != tt.class {
				t.Errorf("Class() = %v, want %v", got, tt.class)
			}
		})
	}
}

func TestImpliedListsOnlyRelevantMissingHints(t *testing.T) {
	tests := []struct {
		hints Hints
		want  string
	}{
		{Hints{}, "readOnlyHint,destructiveHint,idempotentHint,openWorldHint"},
		{Hints{ReadOnly: True}, "openWorldHint"},
		{Hints{ReadOnly: True, OpenWorld: False}, ""},
		{Hints{ReadOnly: False, Destructive: False, Idempotent: True, OpenWorld: True}, ""},
		{Hints{ReadOnly: False, OpenWorld: False}, "destructiveHint,idempotentHint"},
		{Hints{ReadOnly: True, Destructive: True}, "idempotentHint,openWorldHint"},
	}
	for _, tt := range tests {
		var got []string
		for _, f := range tt.hints.Implied() {
			got = append(got, string(f))
		}
		if s := strings.Join(got, ","); s != tt.want {
			t.Errorf("%+v.Implied() = %q, want %q", tt.hints, s, tt.want)
		}
	}
}

func TestConflict(t *testing.T) {
	values := []Hint{Absent, False, True}
	for _, ro := range values {
		for _, de := range values {
			h := Hints{ReadOnly: ro, Destructive: de}
			if want := ro == True && de == True; h.Conflict() != want {
				t.Errorf("%+v.Conflict() = %v, want %v", h, h.Conflict(), want)
			}
		}
	}
	c := Hints{ReadOnly: True, Destructive: True, Idempotent: True, OpenWorld: False}
	for _, f := range Fields {
		if !c.Relevant(f) {
			t.Errorf("%s is not relevant on a conflict", f)
		}
	}
	// Literal keeps the spec's own reading, which hosts other than mcpsh follow.
	if got, want := c.Literal(), (Effective{ReadOnly: true, Idempotent: true}); got != want {
		t.Errorf("Literal() = %+v, want %+v", got, want)
	}
	if got := (Hints{}).Literal(); got != (Hints{}).Effective() {
		t.Errorf("Literal and Effective differ without a conflict: %+v", got)
	}
}

func TestDisplayTitle(t *testing.T) {
	tests := []struct{ title, ann, name, want string }{
		{"Top", "Ann", "n", "Top"},
		{"", "Ann", "n", "Ann"},
		{"", "", "n", "n"},
	}
	for _, tt := range tests {
		if got := DisplayTitle(tt.title, tt.ann, tt.name); got != tt.want {
			t.Errorf("DisplayTitle(%q,%q,%q) = %q, want %q", tt.title, tt.ann, tt.name, got, tt.want)
		}
	}
}

var (
	readOnly    = Hints{ReadOnly: True, OpenWorld: False}
	additive    = Hints{ReadOnly: False, Destructive: False, Idempotent: False, OpenWorld: False}
	destructive = Hints{ReadOnly: False, Destructive: True, Idempotent: True, OpenWorld: False}
)

func TestDecide(t *testing.T) {
	tests := []struct {
		name       string
		req        Request
		verdict    Verdict
		by         Approver
		replaySafe bool
		attempts   int
		openWorld  bool
		reason     string // a substring the reason must contain
	}{
		{"read-only runs", Request{Tool: "get", Hints: readOnly, Trust: Trusted, Mode: Batch, MaxAttempts: 4},
			Run, ByPolicy, true, 4, false, "read-only tool"},
		{"additive write runs, not replay-safe", Request{Tool: "add", Hints: additive, Trust: Trusted, Mode: Batch, MaxAttempts: 4},
			Run, ByPolicy, false, 1, false, "write tool"},
		{"destructive asks interactively", Request{Tool: "rm", Hints: destructive, Trust: Trusted, Mode: Interactive, MaxAttempts: 4},
			Ask, "", true, 4, false, "asks before running"},
		{"destructive refused in batch", Request{Tool: "rm", Hints: destructive, Trust: Trusted, Mode: Batch},
			Refuse, "", true, 1, false, "no one can be asked here"},
		{"destructive, approved in advance", Request{Tool: "rm", Hints: destructive, Trust: Trusted, Mode: Batch, Preapproved: true},
			Run, ByCaller, true, 1, false, "approved in advance"},
		{"unannotated explains the default", Request{Tool: "x", Trust: Trusted, Mode: Batch},
			Refuse, "", false, 1, true, "the spec assumes the worst"},
		{"zero trust is untrusted", Request{Tool: "get", Hints: readOnly, Mode: Interactive, MaxAttempts: 4},
			Ask, "", false, 1, true, "untrusted server"},
		{"zero mode is batch", Request{Tool: "rm", Hints: destructive, Trust: Trusted},
			Refuse, "", true, 1, false, "needs a person's approval"},
		{"untrusted read-only claim still asks", Request{Tool: "get", Hints: readOnly, Trust: Untrusted, Mode: Interactive},
			Ask, "", false, 1, true, "untrusted"},
		{"untrusted refused in batch", Request{Tool: "get", Hints: readOnly, Trust: Untrusted, Mode: Batch},
			Refuse, "", false, 1, true, "untrusted"},
		{"read-only mode refuses writers even approved in advance", Request{Tool: "add", Hints: additive, Trust: Trusted, Mode: Batch, Preapproved: true, OnlyReadOnly: true},
			Refuse, "", false, 1, false, `only read-only calls are allowed, and "add" is a write tool`},
		{"read-only mode refuses untrusted", Request{Tool: "get", Hints: readOnly, Trust: Untrusted, Mode: Batch, Preapproved: true, OnlyReadOnly: true},
			Refuse, "", false, 1, true, "untrusted"},
		{"read-only mode runs read-only", Request{Tool: "get", Hints: readOnly, Trust: Trusted, Mode: Batch, OnlyReadOnly: true},
			Run, ByPolicy, true, 1, false, "read-only"},
		{"deny beats allow", Request{Tool: "delete_all", Hints: readOnly, Trust: Trusted, Mode: Batch, Preapproved: true,
			Rules: []Rule{{"delete_*", Allow}, {"*_all", Deny}}},
			Refuse, "", true, 1, false, `denied by rule "*_all"`},
		{"deny beats session allowance", Request{Tool: "rm", Hints: destructive, Trust: Trusted, Mode: Interactive, SessionAllowed: true,
			Rules: []Rule{{"rm", Deny}}},
			Refuse, "", true, 1, false, "denied"},
		{"allow rule runs destructive in batch", Request{Tool: "rm", Hints: destructive, Trust: Trusted, Mode: Batch,
			Rules: []Rule{{"r?", Allow}}},
			Run, ByRule, true, 1, false, `allowed by rule "r?"`},
		{"allow rule runs untrusted", Request{Tool: "get", Hints: readOnly, Trust: Untrusted, Mode: Batch,
			Rules: []Rule{{"get", Allow}}},
			Run, ByRule, false, 1, true, "allowed by rule"},
		{"confirm rule beats allow", Request{Tool: "get", Hints: readOnly, Trust: Trusted, Mode: Interactive,
			Rules: []Rule{{"*", Allow}, {"get", Confirm}}},
			Ask, "", true, 1, false, `rule "get" asks first`},
		{"confirm rule in batch is refused with no one to ask", Request{Tool: "get", Hints: readOnly, Trust: Trusted, Mode: Batch,
			Rules: []Rule{{"get", Confirm}}},
			Refuse, "", true, 1, false, "no one can be asked here"},
		{"session allowance runs", Request{Tool: "rm", Hints: destructive, Trust: Trusted, Mode: Interactive, SessionAllowed: true},
			Run, BySession, true, 1, false, "allowed for this session"},
		{"malformed glob matches its literal", Request{Tool: "a[b", Hints: readOnly, Trust: Trusted, Mode: Batch,
			Rules: []Rule{{"a[b", Deny}}},
			Refuse, "", true, 1, false, "denied"},
		{"a conflict is not read-only: asks", Request{Tool: "scan", Hints: Hints{ReadOnly: True, Destructive: True}, Trust: Trusted, Mode: Interactive, MaxAttempts: 4},
			Ask, "", false, 1, true, "readOnlyHint and destructiveHint are both true: mcpsh takes the stricter reading"},
		{"a conflict is refused in batch", Request{Tool: "scan", Hints: Hints{ReadOnly: True, Destructive: True}, Trust: Trusted, Mode: Batch, MaxAttempts: 4},
			Refuse, "", false, 1, true, "no one can be asked here"},
		{"an idempotent conflict is replay-safe", Request{Tool: "scan", Hints: Hints{ReadOnly: True, Destructive: True, Idempotent: True}, Trust: Trusted, Mode: Batch, Preapproved: true, MaxAttempts: 4},
			Run, ByCaller, true, 4, true, "stricter reading"},
		{"read-only mode refuses a conflict", Request{Tool: "scan", Hints: Hints{ReadOnly: True, Destructive: True, OpenWorld: False}, Trust: Trusted, Mode: Batch, Preapproved: true, OnlyReadOnly: true},
			Refuse, "", false, 1, false, `only read-only calls are allowed, and "scan" is a destructive tool (readOnlyHint and destructiveHint are both true`},
		{"unknown rule action is ignored", Request{Tool: "get", Hints: readOnly, Trust: Trusted, Mode: Batch,
			Rules: []Rule{{"get", Action("maybe")}}},
			Run, ByPolicy, true, 1, false, "read-only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.req)
			if d.Verdict != tt.verdict || d.By != tt.by || d.ReplaySafe != tt.replaySafe ||
				d.MaxAttempts != tt.attempts || d.OpenWorld != tt.openWorld {
				t.Errorf("Decide() = %+v\nwant verdict=%s by=%q replaySafe=%v attempts=%d openWorld=%v",
					d, tt.verdict, tt.by, tt.replaySafe, tt.attempts, tt.openWorld)
			}
			if !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("reason %q does not contain %q", d.Reason, tt.reason)
			}
		})
	}
}

func TestApproveOnlyTurnsAskIntoRun(t *testing.T) {
	ask := Decide(Request{Tool: "rm", Hints: destructive, Trust: Trusted, Mode: Interactive})
	if got := ask.ApproveBy(ByUser); got.Verdict != Run || got.By != ByUser {
		t.Errorf("Approve(ask) = %+v", got)
	}
	refused := Decide(Request{Tool: "rm", Hints: destructive, Trust: Trusted, Mode: Batch})
	if got := refused.ApproveBy(ByUser); got.Verdict != Refuse {
		t.Errorf("Approve(refuse) = %+v, a refusal must stay refused", got)
	}
}

func TestParsers(t *testing.T) {
	if _, err := ParseAction("deny"); err != nil {
		t.Error(err)
	}
	if _, err := ParseAction("block"); err == nil {
		t.Error("ParseAction(block) succeeded")
	}
	if _, err := ParseTrust("untrusted"); err != nil {
		t.Error(err)
	}
	if _, err := ParseTrust("yes"); err == nil {
		t.Error("ParseTrust(yes) succeeded")
	}
	if err := ValidatePattern("a[b"); err == nil {
		t.Error("ValidatePattern(a[b) succeeded")
	}
	if err := ValidatePattern("delete_*"); err != nil {
		t.Error(err)
	}
}
