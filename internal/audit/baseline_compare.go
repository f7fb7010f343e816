package audit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// Baseline rule IDs. The first three are what a host relies on weakening:
// errors, so `audit --baseline` fails on them. The rest are information:
// strengthening, rewording and any other change still show.
const (
	RuleBaselineWeakened    = "baseline-weakened"
	RuleBaselineUnannotated = "baseline-new-tool-unannotated"
	RuleBaselineBreaking    = "baseline-breaking-schema"
	RuleBaselineStrengthen  = "baseline-strengthened"
	RuleBaselineReworded    = "baseline-reworded"
	RuleBaselineChanged     = "baseline-changed"
	RuleBaselineNewTool     = "baseline-new-tool"
	RuleBaselineRemoved     = "baseline-tool-removed"
)

// BaselineRules are the rules a comparison with a baseline reports.
var BaselineRules = []Rule{
	{RuleBaselineWeakened, Error, "a tool now claims to be less dangerous than in the baseline (destructive to not, open-world to closed, or newly read-only or idempotent)", nil},
	{RuleBaselineUnannotated, Error, "a tool not in the baseline has no annotations, or hints the spec's defaults fill in", nil},
	{RuleBaselineBreaking, Error, "a tool's schema changed in a way that breaks callers: a required argument added, a type or range narrowed, an output field no longer guaranteed", nil},
	{RuleBaselineStrengthen, Info, "a tool now claims to be more dangerous than in the baseline", nil},
	{RuleBaselineReworded, Info, "a tool's title or description changed", nil},
	{RuleBaselineChanged, Info, "a tool's declaration changed in a way hosts do not rely on (its hash differs)", nil},
	{RuleBaselineNewTool, Info, "a tool not in the baseline, with every hint declared", nil},
	{RuleBaselineRemoved, Info, "a tool in the baseline is gone", nil},
}

// CompareBaseline says how the server's tools differ from the baseline, a
// finding per change, in tool order. A server that weakened nothing gives
// no finding at or above Warning.
func CompareBaseline(base *Baseline, tools []*client.Tool) []Finding {
	now := NewBaseline(base.Server, tools)
	old := map[string]*BaselineTool{}
	for i := range base.Tools {
		old[base.Tools[i].Name] = &base.Tools[i]
	}
	var out []Finding
	add := func(tool, rule string, sev Severity, format string, a ...any) {
		out = append(out, Finding{Tool: tool, Rule: rule, Severity: sev, Message: fmt.Sprintf(format, a...)})
	}
	for i := range now.Tools {
		n := &now.Tools[i]
		o := old[n.Name]
		if o == nil {
			if len(n.Declared) == 0 || len(n.Implied) > 0 {
				what := "no annotations"
				if len(n.Declared) > 0 {
					what = "hints left out (" + strings.Join(n.Implied, ", ") + ")"
				}
				add(n.Name, RuleBaselineUnannotated, Error, "new tool with %s: hosts read it by the spec's defaults as %s; declare its hints, then save the baseline again", what, n.Class)
			} else {
				add(n.Name, RuleBaselineNewTool, Info, "new tool, %s, every hint declared", n.Class)
			}
			continue
		}
		delete(old, n.Name)
		if o.Hash == n.Hash {
			continue
		}
		before := len(out)
		weakened, strengthened := hintChanges(o.Effective, n.Effective)
		for _, w := range weakened {
			add(n.Name, RuleBaselineWeakened, Error, "%s", w)
		}
		for _, s := range strengthened {
			add(n.Name, RuleBaselineStrengthen, Info, "%s", s)
		}
		for _, b := range inputBreaks(o.Input, n.Input) {
			add(n.Name, RuleBaselineBreaking, Error, "input schema: %s", b)
		}
		for _, b := range outputBreaks(o.Output, n.Output) {
			add(n.Name, RuleBaselineBreaking, Error, "output schema: %s", b)
		}
		var reworded []string
		if o.Title != n.Title {
			reworded = append(reworded, fmt.Sprintf("title %q is now %q", o.Title, n.Title))
		}
		if o.Description != n.Description {
			reworded = append(reworded, "description changed")
		}
		if len(reworded) > 0 {
			add(n.Name, RuleBaselineReworded, Info, "%s", strings.Join(reworded, "; "))
		}
		if len(out) == before {
			add(n.Name, RuleBaselineChanged, Info, "declaration changed (%s, was %s), nothing a host relies on weakened", short(n.Hash), short(o.Hash))
		}
	}
	var gone []string
	for name := range old {
		gone = append(gone, name)
	}
	slices.Sort(gone)
	for _, name := range gone {
		add(name, RuleBaselineRemoved, Info, "in the baseline, no longer offered")
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return strings.Compare(a.Tool, b.Tool) })
	return out
}

func short(hash string) string {
	if len(hash) > len("sha256:")+12 {
		return hash[:len("sha256:")+12]
	}
	return hash
}

// hintChanges compares the hints in effect. A tool that becomes read-only
// is said once, not also as no longer destructive and newly idempotent.
func hintChanges(old, now map[string]bool) (weakened, strengthened []string) {
	ro, de, id, ow := string(policy.FieldReadOnly), string(policy.FieldDestructive), string(policy.FieldIdempotent), string(policy.FieldOpenWorld)
	switch {
	case !old[ro] && now[ro]:
		weakened = append(weakened, "now claims to be read-only (readOnlyHint): hosts run it without asking and may replay it")
	case old[ro] && !now[ro]:
		strengthened = append(strengthened, "no longer read-only: hosts ask or classify it as a writer")
	}
	if !now[ro] && !old[ro] {
		switch {
		case old[de] && !now[de]:
			weakened = append(weakened, "no longer destructive (destructiveHint): hosts stop asking before it runs")
		case !old[de] && now[de]:
			strengthened = append(strengthened, "now destructive: hosts ask before it runs")
		}
		switch {
		case !old[id] && now[id]:
			weakened = append(weakened, "now claims to be idempotent (idempotentHint): hosts may replay it after a failure")
		case old[id] && !now[id]:
			strengthened = append(strengthened, "no longer idempotent: hosts stop replaying it")
		}
	}
	switch {
	case old[ow] && !now[ow]:
		weakened = append(weakened, "now claims a closed world (openWorldHint): hosts stop flagging its calls as reaching outside")
	case !old[ow] && now[ow]:
		strengthened = append(strengthened, "now open-world: its calls are flagged as reaching outside")
	}
	return weakened, strengthened
}
