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
	// Preapproved: whoever makes the call approved in advance every call that
	// would otherwise ask a person (a script's standing yes, say). It never
	// beats a deny rule or OnlyReadOnly.
	Preapproved bool
	// OnlyReadOnly refuses every call that is not effectively read-only on a
	// trusted server.
	OnlyReadOnly bool
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
	ByCaller  Approver = "caller"  // approved in advance by whoever made the call (Preapproved)
	BySession Approver = "session" // the user allowed the tool for the session
	ByUser    Approver = "user"    // the user answered yes to a confirmation
	ByHost    Approver = "host"    // the user of an agent's host answered yes, asked through the host
	ByConsole Approver = "console" // a person at a console watching an agent's calls answered yes
)

// Need says what a refused call lacked, so the caller can tell a person how
// to let it run in its own words (a flag, a config key, a console).
type Need string

const (
	// NeedNothing: the call was not refused, or nothing but a change of
	// rules lets it run (a deny rule).
	NeedNothing Need = ""
	// NeedApproval: a person must approve the call, and no one could be asked.
	NeedApproval Need = "approval"
	// NeedReadWrite: only read-only calls were allowed, and this one is not,
	// or the server is untrusted.
	NeedReadWrite Need = "read-write"
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
	// Need is what a refused call lacked; NeedNothing otherwise.
	Need Need
	// Basis is where each relevant hint's value came from, and which the
	// verdict turned on, so nobody takes a server's claim for a checked
	// fact (basis.go).
	Basis []Basis
}

// ApproveBy records that a person answered yes to a Confirm decision: the
// user (ByUser), a host's user (ByHost) or a console (ByConsole). Any other
// approver counts as the user. A decision other than Confirm is unchanged.
func (d Decision) ApproveBy(by Approver) Decision {
	if d.Verdict != Ask {
		return d
	}
	switch by {
	case ByHost:
		d.Reason += "; approved by the host's user"
	case ByConsole:
		d.Reason += "; approved at the console"
	default:
		by = ByUser
		d.Reason += "; approved by the user"
	}
	d.Verdict, d.By = Run, by
	return d
}

// Decide is total: every Request, including zero and nonsense values, gets a
// Decision, and unknown trust or mode values fall to the strict side.
func Decide(r Request) (out Decision) {
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
	b := newBasis(r.Hints, trusted)

	m, ruled, ignored := match(r.Rules, r.Tool, r.Hints, r.Trust)
	rule := m.rule
	if ruled {
		d.Rule = rule.Pattern
	}
	if ruled && rule.Action == Deny {
		b.rule(m, r.Hints)
		return d.refuse(fmt.Sprintf("denied by rule %q%s", rule.Pattern, worstNote(m))).with(b)
	}
	if r.OnlyReadOnly {
		switch {
		case !trusted:
			b.decide(r.Hints.classFields())
			return d.refuse("only read-only calls are allowed, and the server is untrusted, so no tool counts as read-only").need(NeedReadWrite).with(b)
		case !eff.ReadOnly:
			b.decide(r.Hints.classFields())
			return d.refuse(fmt.Sprintf("only read-only calls are allowed, and %q is a %s", r.Tool, describe(r.Hints))).need(NeedReadWrite).with(b)
		}
	}

	// why is the reason a confirmation is needed; empty when none is.
	var why string
	switch {
	case ruled && rule.Action == Confirm:
		why = fmt.Sprintf("rule %q asks first%s", rule.Pattern, worstNote(m))
		b.rule(m, r.Hints)
	case !trusted:
		why = "untrusted server (its hints are not believed)"
		b.decide(r.Hints.classFields())
	case eff.Destructive:
		why = describe(r.Hints)
		b.decide(r.Hints.classFields())
	}
	if ignored != nil && !ruled {
		// Said at the end of the reason, whatever follows: an allow rule the
		// user wrote did not apply, and they should know why.
		defer func() {
			out.Reason += fmt.Sprintf("; allow rule %q ignored: it matches on the server's hints, and the server is untrusted", ignored.rule.Pattern)
		}()
	}
	switch {
	case why == "":
		b.decide(r.Hints.classFields())
		d.Reason = describe(r.Hints) + ": runs without asking"
		return d.run(ByPolicy).with(b)
	case ruled && rule.Action == Allow:
		b.override(m.rule)
		b.rule(m, r.Hints)
		d.Reason = fmt.Sprintf("allowed by rule %q (%s)", rule.Pattern, why)
		return d.run(ByRule).with(b)
	case r.SessionAllowed:
		d.Reason = why + ": allowed for this session"
		return d.run(BySession).with(b)
	case r.Preapproved:
		d.Reason = why + ": approved in advance"
		return d.run(ByCaller).with(b)
	case r.Mode == Interactive:
		d.Verdict = Ask
		d.Reason = why + ": asks before running"
		return d.with(b)
	default:
		return d.refuse(why + ": needs a person's approval, and no one can be asked here").need(NeedApproval).with(b)
	}
}

// worstNote says, for a rule that matched an untrusted server's tool only by
// the worst case, which facets it was taken to have.
func worstNote(m ruleMatch) string {
	if m.worst == 0 {
		return ""
	}
	return fmt.Sprintf(" (the server is untrusted: it counts as %s whatever it declares)", m.worst.Words())
}

func (d Decision) run(by Approver) Decision {
	d.Verdict, d.By = Run, by
	return d
}

func (d Decision) refuse(reason string) Decision {
	d.Verdict, d.By, d.Reason = Refuse, "", reason
	return d
}

func (d Decision) need(n Need) Decision {
	d.Need = n
	return d
}

func (d Decision) with(b basis) Decision {
	d.Basis = b.entries
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
