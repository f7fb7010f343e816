package cli

import (
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
)

// refusalText is a refused call's error as the command line words it: policy
// says what the call lacked (Outcome.Need), and only here does that become
// the flag that would let it run.
func refusalText(o *client.Outcome) string {
	switch o.Need {
	case policy.NeedApproval:
		return o.Error + "; pass --yes to run it without a prompt"
	case policy.NeedReadWrite:
		return o.Error + " (--read-only)"
	}
	return o.Error
}

// basisLines are the hints a decision turned on, one indented line each
// (policy.Basis.String), so a refusal or a question says whether a hint was
// the server's claim, the spec's default, or not believed. A refusal the
// person made themselves (they declined) has none: they saw them when asked.
func basisLines(bs []policy.Basis) string {
	var b strings.Builder
	for _, x := range bs {
		if x.Decided {
			b.WriteString("  " + termtext.Line(x.String()) + "\n")
		}
	}
	return b.String()
}

// refusalBasis is basisLines for a refused call that policy refused: one
// that lacked an approval or read-write, or that a rule decided.
func refusalBasis(o *client.Outcome) string {
	if o.Need == policy.NeedNothing && o.Rule == "" {
		return ""
	}
	return basisLines(o.Basis)
}

// approverWord names who approved a call, as the command line knows them: a
// call approved in advance was approved by --yes.
func approverWord(by policy.Approver) string {
	if by == policy.ByCaller {
		return "--yes"
	}
	return string(by)
}
