package policy

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRetryMatrix renders Retry for every failure class, after each attempt
// up to one past the budget, for each kind of decision Retry reads: a
// replay-safe call (read-only, and idempotent), one that is not (a write, a
// destructive tool, no hints at all) and any call to an untrusted server. A
// change to the retry rules shows up as a diff of testdata/retries.golden;
// review it, then rerun with -update.
func TestRetryMatrix(t *testing.T) {
	kinds := []struct {
		name  string
		hints Hints
		trust Trust
	}{
		{"read-only", Hints{ReadOnly: True, OpenWorld: False}, Trusted},
		{"idempotent-write", Hints{ReadOnly: False, Destructive: False, Idempotent: True}, Trusted},
		{"write", Hints{ReadOnly: False, Destructive: False}, Trusted},
		{"destructive", Hints{ReadOnly: False, Destructive: True}, Trusted},
		{"no-hints", Hints{}, Trusted},
		{"untrusted-read-only", Hints{ReadOnly: True}, Untrusted},
	}
	const budget = 4
	var b bytes.Buffer
	fmt.Fprintln(&b, "# decision | failure attempt | again | why")
	seen := map[Failure]bool{}
	for _, k := range kinds {
		d := Decide(Request{Tool: "t", Hints: k.hints, Trust: k.trust, Mode: Batch, Preapproved: true, MaxAttempts: budget})
		for _, f := range Failures {
			seen[f] = true
			for attempt := 1; attempt <= budget+1; attempt++ {
				again, why := Retry(d, f, attempt, budget)
				fmt.Fprintf(&b, "%s | %s %d | %v | %s\n", k.name, f, attempt, again, why)
			}
		}
	}
	for _, f := range []Failure{NotSent, Rejected, ServerError, Timeout, ConnectionLost, Permanent, ToolError, Cancelled, Oversized, ProtocolViolation, TooManyRounds, RoundNotSent} {
		if !seen[f] {
			t.Errorf("failure class %s is missing from Failures", f)
		}
	}
	if len(seen) != len(Failures) || slices.Contains(Failures, "") {
		t.Errorf("Failures lists a class twice, or an empty one: %v", Failures)
	}
	golden := filepath.Join("testdata", "retries.golden")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./policy -update to create it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		gotLines, wantLines := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gotLines) && i < len(wantLines); i++ {
			if gotLines[i] != wantLines[i] {
				t.Fatalf("retries differ from %s at line %d:\n got: %s\nwant: %s\n(rerun with -update after reviewing)",
					golden, i+1, gotLines[i], wantLines[i])
			}
		}
		t.Fatalf("retries differ from %s in length: got %d lines, want %d", golden, len(gotLines), len(wantLines))
	}
}
