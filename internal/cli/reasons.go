package cli

import (
	"github.com/mcpsh/mcpsh/client"
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

// approverWord names who approved a call, as the command line knows them: a
// call approved in advance was approved by --yes.
func approverWord(by policy.Approver) string {
	if by == policy.ByCaller {
		return "--yes"
	}
	return string(by)
}
