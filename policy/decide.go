package policy

import "fmt"

// Trust says whether a server's annotations are believed. Only Trusted is trusted:
// any other value, the zero value included, is treated as untrusted.
type Trust string

const (
	Trusted   Trust = "trusted"
	Untrusted Trust = "untrusted"
)

// ParseTrust accepts the trust levels a config file may name.
func ParseTrust(s string) (Trust, error) {
	switch t := Trust(s); t {
	case Trusted, Untrusted:
		return t, nil
	}
	return "", fmt.Errorf("unknown trust %q (want trusted or untrusted)", s)
}

// Mode is who can answer a confirmation. Only Interactive can: any other value,
// the zero value included, is batch, which never prompts.
type Mode string

const (
	Interactive Mode = "interactive"
	Batch       Mode = "batch"
)

// Request is everything a decision about one call depends on.
type Request struct {
	Tool  string
	Hints Hints
	Trust Trust
	Mode  Mode
	// Yes answers every confirmation in advance (--yes).
	Yes bool
	// ReadOnly refuses every call that is not effectively read-only (--read-only).
	ReadOnly bool
	// Rules are the server's allow/confirm/deny rules; the strictest match wins.
	Rules []Rule
	// SessionAllowed is set once the user has allowed this tool for the session.
	SessionAllowed bool
	// MaxAttempts is the retry budget for a replay-safe call; below 1 means 1.
	MaxAttempts int
}

// Verdict is what happens to a call.
type Verdict string

const (
	Run    Verdict = "run"
	Ask    Verdict = "confirm"
	Refuse Verdict = "refuse"
)

// Approver records who let a call run, for the session log.
type Approver string

const (
	ByPolicy  Approver = "policy"  // no confirmation was needed
	ByRule    Approver = "rule"    // an allow rule
	ByYes     Approver = "--yes"   // approved in advance on the command line
	BySession Approver = "session" // the user allowed the tool for the session
	ByUser    Approver = "user"    // the user answered yes to a confirmation
)

// Decision is the policy's answer for one call.
type Decision struct {
	Verdict Verdict
	// By is who approved a Run; empty otherwise.
	By Approver
	// Rule is the pattern of the rule that decided, if one did.
	Rule string
	// ReplaySafe: effectively read-only or idempotent, on a trusted server.
	ReplaySafe bool
	// NotReplaySafe says why a call is not replay-safe; empty when it is.
	NotReplaySafe string
	// MaxAttempts is how many times the call may be sent after an outcome-unknown
	// failure: the retry budget when replay-safe, otherwise 1.
	MaxAttempts int
	// OpenWorld flags the call in the session log. Everything from an untrusted
	// server counts as open-world.
	OpenWorld bool
	// Reason is one line a person can read.
	Reason string
}

// Approve records that the user answered yes to a Confirm decision.
func (d Decision) Approve() Decision {
	if d.Verdict != Ask {
		return d
	}
	d.Verdict, d.By = Run, ByUser
	d.Reason += "; approved by the user"
	return d
}

// Decide is total: every Request, including zero and nonsense values, gets a
// Decision, and unknown trust or mode values fall to the strict side.
func Decide(r Request) Decision {
	eff := r.Hints.Effective()
	trusted := r.Trust == Trusted
	d := Decision{
		ReplaySafe:  trusted && (eff.ReadOnly || eff.Idempotent),
		OpenWorld:   !trusted || eff.OpenWorld,
		MaxAttempts: 1,
	}
	switch {
	case !trusted:
		d.NotReplaySafe = "the server is untrusted"
	case !d.ReplaySafe:
		d.NotReplaySafe = "the tool is not idempotent"
	case r.MaxAttempts > 1:
		d.MaxAttempts = r.MaxAttempts
	}

	rule, ruled := match(r.Rules, r.Tool)
	if ruled {
		d.Rule = rule.Pattern
	}
	if ruled && rule.Action == Deny {
		return d.refuse(fmt.Sprintf("denied by rule %q", rule.Pattern))
	}
	if r.ReadOnly {
		switch {
		case !trusted:
			return d.refuse("--read-only: the server is untrusted, so no tool counts as read-only")
		case !eff.ReadOnly:
			return d.refuse(fmt.Sprintf("--read-only: %q is a %s", r.Tool, describe(r.Hints)))
		}
	}

	// why is the reason a confirmation is needed; empty when none is.
	var why string
	switch {
	case ruled && rule.Action == Confirm:
		why = fmt.Sprintf("rule %q asks first", rule.Pattern)
	case !trusted:
		why = "untrusted server (its hints are not believed)"
	case eff.Destructive:
		why = describe(r.Hints)
	}
	switch {
	case why == "":
		d.Reason = describe(r.Hints) + ": runs without asking"
		return d.run(ByPolicy)
	case ruled && rule.Action == Allow:
		d.Reason = fmt.Sprintf("allowed by rule %q (%s)", rule.Pattern, why)
		return d.run(ByRule)
	case r.SessionAllowed:
		d.Reason = why + ": allowed for this session"
		return d.run(BySession)
	case r.Yes:
		d.Reason = why + ": approved by --yes"
		return d.run(ByYes)
	case r.Mode == Interactive:
		d.Verdict = Ask
		d.Reason = why + ": asks before running"
		return d
	default:
		return d.refuse(why + ": needs confirmation; pass --yes to run it without a prompt")
	}
}

func (d Decision) run(by Approver) Decision {
	d.Verdict, d.By = Run, by
	return d
}

func (d Decision) refuse(reason string) Decision {
	d.Verdict, d.By, d.Reason = Refuse, "", reason
	return d
}

// describe names a tool's class and, when a default decided it, says so.
func describe(h Hints) string {
	switch h.Class() {
	case ClassReadOnly:
		return "read-only tool"
	case ClassWrite:
		return "write tool (declared non-destructive)"
	}
	switch {
	case h.Conflict():
		return "destructive tool (readOnlyHint and destructiveHint are both true: mcpsh takes the stricter reading)"
	case h.Destructive.Declared():
		return "destructive tool"
	case !h.ReadOnly.Declared():
		return "destructive tool (no readOnlyHint or destructiveHint: the spec assumes the worst)"
	default:
		return "destructive tool (destructiveHint absent: the spec default is true)"
	}
}
