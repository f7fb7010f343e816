package client_test

import (
	"context"
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notes is a small go-sdk server to connect to: one read-only tool and one
// destructive one.
func notes() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"}, nil)
	closed := false
	mcp.AddTool(srv, &mcp.Tool{Name: "list_notes", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &closed}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "milk, eggs"}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "delete_notes", Annotations: &mcp.ToolAnnotations{OpenWorldHint: &closed}},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "deleted"}}}, nil, nil
		})
	return srv
}

// A program connects to a server, lists its tools as declared, lets policy
// decide each call, and calls: Do decides again on what the server
// declares at that moment, sends only what policy lets run, retries what is
// safe to retry, and records every call (Options.Recorder).
func Example() {
	ctx := context.Background()
	target := client.Target{Name: "notes", Kind: client.KindInProcess, InProcess: notes(), Trust: policy.Trusted}
	s, err := client.Connect(ctx, target, &client.Options{Name: "example", Version: "1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	listing, err := s.ListTools(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range listing.Tools {
		c := &client.Call{Tool: t, Mode: policy.Batch}
		d := s.Decide(c)
		fmt.Printf("%s (%s): %s\n", t.Name, t.Class(), d.Verdict)
		o, err := s.Do(ctx, c)
		if err != nil {
			fmt.Println(err)
			return
		}
		if o.Status == client.StatusOK {
			fmt.Println("  ", o.Result.Content[0].Text)
		} else {
			fmt.Println("  ", o.Status, "- needs", o.Need)
		}
	}
	// Output:
	// delete_notes (destructive): refuse
	//    refused - needs approval
	// list_notes (read-only): run
	//    milk, eggs
}

// A caller that asks someone elsewhere (a proxy asks the user of the
// agent's host) gives Do an Approve function: Do asks it on the tool as
// declared when the call is decided, and sends the call only on a yes.
func ExampleCall_approve() {
	ctx := context.Background()
	target := client.Target{Name: "notes", Kind: client.KindInProcess, InProcess: notes(), Trust: policy.Trusted}
	s, err := client.Connect(ctx, target, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	if _, err := s.ListTools(ctx); err != nil {
		fmt.Println(err)
		return
	}
	tool, _ := s.Tool("delete_notes")
	o, _ := s.Do(ctx, &client.Call{Tool: tool, Mode: policy.Interactive,
		Approve: func(_ context.Context, a *client.Approval) client.Answer {
			fmt.Printf("asked about %s on %s: %s\n", a.Tool.Name, a.Server, a.Decision.Reason)
			return client.Answer{Verdict: client.AnswerApproved, By: policy.ByHost}
		}})
	fmt.Println(o.Status, o.ApprovedBy)
	// Output:
	// asked about delete_notes on notes: destructive tool (destructiveHint absent: the spec default is true): asks before running
	// ok host
}
