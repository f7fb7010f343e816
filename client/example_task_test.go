package client_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// These examples need a server that runs calls as tasks (go-sdk's server
// runs none, so there is no in-process one to show them against): they are
// compiled, not run.

// A call the server runs as a task is followed to its result by Do. OnTask
// hears each change of status on the follower's goroutine: it must not
// block (a script writes a line, a view hands it to its own loop), and the
// task's text is already safe for a terminal. Cancelling ctx cancels the
// task on the server; a question the task asks goes to Options.Elicit, and
// the call's timeout does not run while it is answered.
func ExampleSession_Do_task() {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	target := client.Target{Name: "research", Kind: client.KindHTTP, URL: "http://127.0.0.1:3001/mcp"}
	s, err := client.Connect(ctx, target, &client.Options{Name: "example", Version: "1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	if _, err := s.ListTools(ctx); err != nil {
		fmt.Println(err)
		return
	}
	tool, ok := s.Tool("research")
	if !ok {
		fmt.Println("the server has no tool research")
		return
	}
	o, err := s.Do(ctx, &client.Call{Tool: tool, Args: map[string]any{"topic": "tides"}, Mode: policy.Batch, Preapproved: true,
		OnTask: func(t client.Task) {
			fmt.Fprintf(os.Stderr, "task %s: %s %s\n", t.ID, t.Status, t.StatusMessage)
		}})
	if err != nil {
		fmt.Println(err)
		return
	}
	if o.Task != nil {
		fmt.Println("task", o.Task.ID, "ended", o.Task.Status)
	}
	if o.Status != client.StatusOK {
		fmt.Println(o.Status, o.Error)
		return
	}
	for _, b := range o.Result.Content {
		fmt.Println(b.Text)
	}
}

// A caller that does not wait (Detach) gets the task's ID back
// (StatusTask), and looks it up or cancels it by that ID later, from this
// session or another. Each lookup waits for the server at most the
// target's call timeout; a server that does not answer in time is a
// TaskError with the Timeout failure.
func ExampleSession_GetTask() {
	ctx := context.Background()
	target := client.Target{Name: "research", Kind: client.KindHTTP, URL: "http://127.0.0.1:3001/mcp"}
	s, err := client.Connect(ctx, target, &client.Options{Name: "example", Version: "1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	if _, err := s.ListTools(ctx); err != nil {
		fmt.Println(err)
		return
	}
	tool, ok := s.Tool("research")
	if !ok {
		fmt.Println("the server has no tool research")
		return
	}
	o, err := s.Do(ctx, &client.Call{Tool: tool, Mode: policy.Batch, Preapproved: true, Detach: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	if o.Status != client.StatusTask {
		// The server answered at once, or the call failed.
		fmt.Println(o.Status, o.Error)
		return
	}
	st, err := s.GetTask(ctx, o.Task.ID)
	var te *client.TaskError
	switch {
	case errors.As(err, &te) && te.Failure == policy.Timeout:
		fmt.Println("the server did not answer:", te)
		return
	case err != nil:
		fmt.Println(err)
		return
	}
	fmt.Println(st.Status, st.StatusMessage)
	switch {
	case st.Result != nil:
		for _, b := range st.Result.Content {
			fmt.Println(b.Text)
		}
	case st.Status == client.TaskFailed:
		fmt.Println(st.Error)
	case !st.Status.Terminal():
		if t, err := s.CancelTask(ctx, o.Task.ID); err != nil {
			fmt.Println(err)
		} else {
			fmt.Println("now", t.Status)
		}
	}
}
