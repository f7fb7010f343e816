package policy_test

import (
	"fmt"

	"github.com/mcpsh/mcpsh/policy"
)

// A program decides each call on the tool's hints as the server declared
// them, the server's trust and rules, and who can be asked.
func ExampleDecide() {
	// delete_repo declares destructiveHint true; list_repos readOnlyHint true.
	deleteRepo := policy.Hints{ReadOnly: policy.False, Destructive: policy.True, OpenWorld: policy.False}
	listRepos := policy.Hints{ReadOnly: policy.True, OpenWorld: policy.False}

	d := policy.Decide(policy.Request{Tool: "list_repos", Hints: listRepos, Trust: policy.Trusted, Mode: policy.Batch, MaxAttempts: 3})
	fmt.Println(d.Verdict, d.By, d.ReplaySafe, d.MaxAttempts)

	// Nobody can be asked: refused, and the decision says what it lacked.
	d = policy.Decide(policy.Request{Tool: "delete_repo", Hints: deleteRepo, Trust: policy.Trusted, Mode: policy.Batch})
	fmt.Println(d.Verdict, d.Need)

	// Someone can be asked: confirm, then record who said yes.
	d = policy.Decide(policy.Request{Tool: "delete_repo", Hints: deleteRepo, Trust: policy.Trusted, Mode: policy.Interactive})
	fmt.Println(d.Verdict)
	d = d.ApproveBy(policy.ByHost)
	fmt.Println(d.Verdict, d.By)

	// An untrusted server's read-only claim is not believed.
	d = policy.Decide(policy.Request{Tool: "list_repos", Hints: listRepos, Trust: policy.Untrusted, Mode: policy.Batch})
	fmt.Println(d.Verdict, d.Reason)
	// Output:
	// run policy true 3
	// refuse approval
	// confirm
	// run host
	// refuse untrusted server (its hints are not believed): needs a person's approval, and no one can be asked here
}

// Rules match tool names with globs; the strictest rule that matches wins.
func ExampleRule() {
	rules := []policy.Rule{
		{Pattern: "delete_*", Action: policy.Deny},
		{Pattern: "delete_branch", Action: policy.Allow},
		{Pattern: "create_*", Action: policy.Allow},
	}
	for _, tool := range []string{"delete_branch", "create_issue"} {
		// Neither tool declares hints: the spec's defaults take them as destructive.
		d := policy.Decide(policy.Request{Tool: tool, Trust: policy.Trusted, Mode: policy.Batch, Rules: rules})
		fmt.Printf("%s: %s (%s)\n", tool, d.Verdict, d.Reason)
	}
	// Output:
	// delete_branch: refuse (denied by rule "delete_*")
	// create_issue: run (allowed by rule "create_*" (destructive tool (no readOnlyHint or destructiveHint: the spec assumes the worst)))
}

// After a failed attempt, Retry says whether the call may be sent again:
// only when it provably never ran, or running it twice is harmless.
func ExampleRetry() {
	read := policy.Decide(policy.Request{Tool: "get", Hints: policy.Hints{ReadOnly: policy.True}, Trust: policy.Trusted, MaxAttempts: 3})
	write := policy.Decide(policy.Request{Tool: "add", Hints: policy.Hints{Destructive: policy.False}, Trust: policy.Trusted, MaxAttempts: 3})
	for _, d := range []policy.Decision{read, write} {
		again, _ := policy.Retry(d, policy.ConnectionLost, 1, 3)
		fmt.Println(again)
	}
	again, _ := policy.Retry(write, policy.NotSent, 1, 3)
	fmt.Println(again)
	// Output:
	// true
	// false
	// true
}
