package policy

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestDecisionMatrix renders the decision for every combination of the four hints
// (absent/false/true), trust, mode, --yes and --read-only. Any change to the policy
// shows up as a diff of testdata/decisions.golden; review it, then rerun with -update.
func TestDecisionMatrix(t *testing.T) {
	values := []Hint{Absent, False, True}
	var b bytes.Buffer
	fmt.Fprintln(&b, "# ro de id ow | trust mode preapproved only-read-only | class | verdict by replay-safe attempts open-world | reason | need | not replay-safe because")
	rows := 0
	for _, ro := range values {
		for _, de := range values {
			for _, id := range values {
				for _, ow := range values {
					h := Hints{ReadOnly: ro, Destructive: de, Idempotent: id, OpenWorld: ow}
					for _, trust := range []Trust{Trusted, Untrusted} {
						for _, mode := range []Mode{Interactive, Batch} {
							for _, yes := range []bool{false, true} {
								for _, readOnly := range []bool{false, true} {
									d := Decide(Request{Tool: "t", Hints: h, Trust: trust, Mode: mode,
										Preapproved: yes, OnlyReadOnly: readOnly, MaxAttempts: 4})
									fmt.Fprintf(&b, "%s %s %s %s | %s %s %s %s | %s | %s %s %v %d %v | %s | %s | %s\n",
										abbr(ro), abbr(de), abbr(id), abbr(ow),
										trust, mode, flagName(yes, "pre"), flagName(readOnly, "ro"),
										h.Class(), d.Verdict, orDash(string(d.By)), d.ReplaySafe, d.MaxAttempts, d.OpenWorld,
										d.Reason, orDash(string(d.Need)), orDash(d.NotReplaySafe))
									rows++
								}
							}
						}
					}
				}
			}
		}
	}
	if want := 81 * 2 * 2 * 2 * 2; rows != want {
		t.Fatalf("rendered %d rows, want %d", rows, want)
	}
	golden := filepath.Join("testdata", "decisions.golden")
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
				t.Fatalf("decisions differ from %s at line %d:\n got: %s\nwant: %s\n(rerun with -update after reviewing)",
					golden, i+1, gotLines[i], wantLines[i])
			}
		}
		t.Fatalf("decisions differ from %s in length: got %d lines, want %d", golden, len(gotLines), len(wantLines))
	}
}

// TestMatrixInvariants checks the safety properties over the whole matrix, so a
// golden file updated carelessly cannot hide a broken rule.
func TestMatrixInvariants(t *testing.T) {
	values := []Hint{Absent, False, True}
	for _, ro := range values {
		for _, de := range values {
			for _, id := range values {
				for _, ow := range values {
					h := Hints{ReadOnly: ro, Destructive: de, Idempotent: id, OpenWorld: ow}
					for _, yes := range []bool{false, true} {
						for _, readOnly := range []bool{false, true} {
							for _, mode := range []Mode{Interactive, Batch} {
								tr := Decide(Request{Tool: "t", Hints: h, Trust: Trusted, Mode: mode, Preapproved: yes, OnlyReadOnly: readOnly, MaxAttempts: 4})
								un := Decide(Request{Tool: "t", Hints: h, Trust: Untrusted, Mode: mode, Preapproved: yes, OnlyReadOnly: readOnly, MaxAttempts: 4})
								bare := Decide(Request{Tool: "t", Trust: Trusted, Mode: mode, Preapproved: yes, OnlyReadOnly: readOnly, MaxAttempts: 4})
								if mode == Batch && (tr.Verdict == Ask || un.Verdict == Ask) {
									t.Errorf("%+v: batch mode asked", h)
								}
								// Untrusted hints may only make mcpsh stricter than no hints at all.
								if rank(un.Verdict) < rank(bare.Verdict) || un.ReplaySafe || !un.OpenWorld {
									t.Errorf("%+v yes=%v ro=%v %s: untrusted %+v is laxer than no hints %+v", h, yes, readOnly, mode, un, bare)
								}
								if readOnly && tr.Verdict != Refuse && h.Class() != ClassReadOnly {
									t.Errorf("%+v: --read-only let a %s tool through", h, h.Class())
								}
								if tr.ReplaySafe != (h.Class() == ClassReadOnly || h.Effective().Idempotent) {
									t.Errorf("%+v: replay-safe %v", h, tr.ReplaySafe)
								}
								if tr.Verdict == Ask && h.Class() != ClassDestructive {
									t.Errorf("%+v: a trusted %s tool asked", h, h.Class())
								}
								if ro == True && de == True {
									// A conflict (spelled out, not through Conflict, so that
									// this holds whatever Conflict says): the stricter reading.
									if h.Class() == ClassReadOnly || h.Effective().ReadOnly || tr.Verdict == Run && readOnly {
										t.Errorf("%+v: a conflict counted as read-only", h)
									}
									if mode == Interactive && !yes && !readOnly && tr.Verdict != Ask {
										t.Errorf("%+v: a trusted conflict did not ask in interactive mode: %+v", h, tr)
									}
									if tr.ReplaySafe != (h.Idempotent == True) {
										t.Errorf("%+v: a conflict is replay-safe %v, want %v (only when idempotentHint is true)", h, tr.ReplaySafe, h.Idempotent == True)
									}
								}
								if tr.Reason == "" || un.Reason == "" || strings.Contains(tr.Reason, "\n") {
									t.Errorf("%+v: reason must be one non-empty line: %q", h, tr.Reason)
								}
							}
						}
					}
				}
			}
		}
	}
}

func rank(v Verdict) int {
	switch v {
	case Run:
		return 0
	case Ask:
		return 1
	}
	return 2
}

func abbr(h Hint) string {
	switch h {
	case True:
		return "T"
	case False:
		return "F"
	}
	return "-"
}

func flagName(on bool, name string) string {
	if on {
		return name
	}
	return "-"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
