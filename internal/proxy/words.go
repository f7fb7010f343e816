package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// What the proxy says to the host's user and to the agent: the question
// before a call that needs a person, and the tool result of a call mcpsh
// refused. Server and host text in them is made safe for a terminal (the
// host shows it to a person, the agent reads it).

// argsShown bounds the arguments quoted in a question or a refusal.
const argsShown = 2048

// basis words policy's own account of the hints a decision read
// (policy.Basis: declared by the server and so only a claim, the spec's
// default, not believed because the server is untrusted, the stricter
// reading of a conflict, matched or overridden by a rule), so the proxy
// never tells a different story from the decision it reports. The hints the
// verdict turned on come first. To policy's account it adds only what a
// decision cannot see: the value a server sent for a hint that was not a
// boolean (policy reads it as absent), from the tool's declared
// annotations, and the rule that decided, named as mcpsh's config's. Every
// line is made safe: server values and config rules are quoted in them.
func basis(bs []policy.Basis, rule string, declared map[string]json.RawMessage) []string {
	var decided, other []string
	for _, b := range bs {
		l := b.String()
		if raw := declared[string(b.Field)]; b.Source == policy.SourceDefault && raw != nil {
			l += fmt.Sprintf("; the server sent %s, which is not a boolean", clipRaw(raw, 40))
		}
		l = "  " + termtext.Line(l)
		if b.Decided {
			decided = append(decided, l)
		} else {
			other = append(other, l)
		}
	}
	var out []string
	switch {
	case len(decided) > 0:
		out = append(append(out, "Hints it turned on:"), decided...)
		if len(other) > 0 {
			out = append(append(out, "Other hints:"), other...)
		}
	case len(other) > 0:
		out = append(append(out, "Hints:"), other...)
	}
	if rule != "" {
		out = append(out, termtext.Line(fmt.Sprintf("Rule: %q, in mcpsh's config", rule)))
	}
	return out
}

// question is the message of the form that asks the host's user about a
// call. It starts with mcpsh's name and the host's, so a form a server
// sends (marked as the server's, forward.go) cannot pass for it.
func question(a *client.Approval, host client.Peer, trust policy.Trust) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcpsh asks before a call by %s to server %q:\n", hostLabel(host), termtext.Line(a.Server))
	fmt.Fprintf(&b, "Tool: %s\n", toolLine(a.Tool, trust))
	fmt.Fprintf(&b, "Why: %s\n", termtext.Line(a.Decision.Reason))
	for _, l := range basis(a.Decision.Basis, a.Decision.Rule, a.Tool.Declared) {
		b.WriteString(l + "\n")
	}
	fmt.Fprintf(&b, "Arguments: %s\n", argsText(a.RawArgs, a.Args))
	b.WriteString(`Choose "run" to let this one call run, "refuse" to refuse it.`)
	return b.String()
}

// toolLine names a tool with its title, its class and its marks.
func toolLine(t *client.Tool, trust policy.Trust) string {
	name := termtext.Truncate(termtext.Line(t.Name), 80)
	s := name
	if t.Title != "" && t.Title != t.Name {
		s = termtext.Truncate(termtext.Line(t.Title), 80) + " (" + name + ")"
	}
	marks := []string{string(t.Class())}
	if trust != policy.Trusted || t.Effective().OpenWorld {
		marks = append(marks, "open-world")
	}
	if len(t.Hints.Implied()) > 0 {
		marks = append(marks, "hints implied by the spec's defaults")
	}
	if trust != policy.Trusted {
		marks = append(marks, "untrusted server")
	}
	return s + ": " + strings.Join(marks, ", ")
}

// argsText is the arguments as compact JSON on one line, made safe, cut
// past argsShown bytes.
func argsText(raw json.RawMessage, args map[string]any) string {
	var b bytes.Buffer
	if len(raw) == 0 || json.Compact(&b, raw) != nil {
		b.Reset()
		if args == nil {
			args = map[string]any{}
		}
		enc, _ := marshalNoEscape(args)
		b.Write(enc)
	}
	s := b.String()
	more := ""
	if len(s) > argsShown {
		cut := strings.ToValidUTF8(s[:argsShown], "")
		more = fmt.Sprintf(" … %d bytes more", len(s)-len(cut))
		s = cut
	}
	return termtext.Line(s) + more
}

func clipRaw(raw json.RawMessage, n int) string {
	s := termtext.Line(string(raw))
	return termtext.Truncate(s, n)
}

// refusal is the tool result text of a call mcpsh did not send: what was
// refused, why (with where each hint came from, as the decision recorded
// it in the outcome), and how a person can let it run. asked says whether
// the host could be asked.
func refusal(server string, o *client.Outcome, asked bool, at allowAt) string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcpsh refused %s on server %q; nothing was sent.\n", termtext.Line(o.Tool), termtext.Line(server))
	fmt.Fprintf(&b, "Why: %s\n", termtext.Line(o.Reason))
	for _, l := range basis(o.Basis, o.Rule, o.Declared) {
		b.WriteString(l + "\n")
	}
	b.WriteString("How a person can allow it: " + howToAllow(o, asked, at))
	return b.String()
}

// allowAt says where in mcpsh's config a rule for the server goes.
type allowAt struct {
	// ref names a server with no entry in mcpsh's config (a host's, as
	// cursor:github) in a top-level rule's server: term.
	ref string
	// entry: the server has an entry in mcpsh's config, whose own
	// "policy" is the place. With neither, the server has no name a rule
	// can give (a command or a URL): only a rule for every server serves it.
	entry bool
}

// allowAt is where a rule for the proxy's upstream goes.
func (p *Proxy) allowAt() allowAt {
	return allowAt{ref: p.opts.RuleRef, entry: p.opts.RuleRef == "" && p.opts.Target.Name != ""}
}

// allowRule is the rule that lets tool run, where it goes. The tool's
// name is written literally (policy.LiteralGlob: a tool named "*" must
// not get a rule for every tool), as a JSON string a person can paste.
func (at allowAt) allowRule(tool string) string {
	name := policy.LiteralGlob(tool)
	switch {
	case at.ref != "":
		ref := policy.LiteralGlob(at.ref)
		if host, n, ok := strings.Cut(at.ref, ":"); ok {
			ref = policy.LiteralGlob(host) + ":" + policy.LiteralGlob(n)
		}
		return fmt.Sprintf(`an allow rule in mcpsh's config ("policy": {"allow": [%s]} at its top level)`, jsonText("server:"+ref+" "+name))
	case at.entry:
		return fmt.Sprintf(`an allow rule in mcpsh's config ("policy": {"allow": [%s]} on the server's entry)`, jsonText(name))
	}
	return fmt.Sprintf(`an allow rule in mcpsh's config ("policy": {"allow": [%s]} at its top level, for every server)`, jsonText(name))
}

// jsonText is s as a JSON string whose every character is printable:
// what a terminal would not show plainly is written as a \u escape, so
// the text is safe and still says exactly s.
func jsonText(s string) string {
	enc, _ := marshalNoEscape(s)
	var b strings.Builder
	for _, r := range string(enc) {
		switch {
		case unicode.IsPrint(r):
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// howToAllow says what a person can do to let a refused call run, in
// mcpsh's words (its config keys and commands: the proxy is mcpsh's own).
func howToAllow(o *client.Outcome, asked bool, at allowAt) string {
	rule := at.allowRule(o.Tool)
	switch {
	case o.HintsChanged != "":
		return "the server changed the tool's hints after it was listed or approved; call it again, and mcpsh decides (and asks) on the hints it declares now."
	case o.Need == policy.NeedReadWrite:
		return "the proxy runs in read-only mode (--read-only) or the server is untrusted; start it without --read-only, on a server you trust."
	case o.Rule != "" && strings.HasPrefix(o.Reason, "denied by rule"):
		return fmt.Sprintf("a deny rule in mcpsh's config (%q) refuses it; only a change to that rule lets it run.", o.Rule)
	case o.ApprovedBy == "" && strings.HasPrefix(o.Reason, "declined"):
		return "the person asked said no; the agent may ask for the call again, and the person may then approve it, or " + rule + "."
	case asked:
		return "approve it when mcpsh asks (in this host's prompt), or " + rule + "."
	}
	return "answer mcpsh's question in a host that supports elicitation (this one did not declare it), or in `mcpsh watch` on this machine (run it before the agent calls again), or " + rule + "."
}

// failure is the tool result text of a call that was sent and failed.
func failure(server string, o *client.Outcome) string {
	return fmt.Sprintf("mcpsh: the call to %s on server %q failed: %s", termtext.Line(o.Tool), termtext.Line(server), termtext.Line(o.Error))
}

// markServer prefixes a server's request to the host, so it cannot pass
// for one of mcpsh's own. The message is made safe, and starts at its
// first visible character: blank lines, controls or invisible characters
// before it would push the server's words below the mark, where they
// could read as a message of mcpsh's that the mark does not cover.
func markServer(server, message string) string {
	return fmt.Sprintf("From server %q (not mcpsh): %s", termtext.Line(server), strings.TrimLeftFunc(termtext.Sanitize(message), blank))
}

// blank reports a character that shows nothing at the start of a line:
// white space, format characters (zero-width, joiners), combining marks
// with nothing to combine with, and the fillers that draw as blanks.
func blank(r rune) bool {
	switch r {
	case 'ᅟ', 'ᅠ', '⠀', 'ㅤ', 'ﾠ':
		return true
	}
	return unicode.IsSpace(r) || unicode.In(r, unicode.Cf, unicode.Mn, unicode.Me)
}
