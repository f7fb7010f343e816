package client_test

import (
	"context"
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// A call the server runs as a task is followed to its result by Do; OnTask
// hears each status as it changes (on the follower's goroutine: a view
// passes it on without blocking), and cancelling ctx cancels the task on the
// server. The outcome names the task, and is what the session log records.
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
	tool, ok := s.Tool("research")
	if !ok {
		return
	}
	updates := make(chan client.Task, 16)
	o, err := s.Do(ctx, &client.Call{Tool: tool, Args: map[string]any{"topic": "tides"}, Mode: policy.Batch, Preapproved: true,
		OnTask: func(t client.Task) {
			select {
			case updates <- t:
			default: // never block the follower
			}
		}})
	if err != nil {
		fmt.Println(err)
		return
	}
	if o.Task != nil {
		fmt.Println("task", o.Task.ID, "ended", o.Task.Status)
	}
	fmt.Println(o.Status)
}

// A caller that does not wait gets the task's ID back (StatusTask), and a
// later session looks it up or cancels it by that ID.
func ExampleSession_GetTask() {
	ctx := context.Background()
	target := client.Target{Name: "research", Kind: client.KindHTTP, URL: "http://127.0.0.1:3001/mcp"}
	s, err := client.Connect(ctx, target, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	tool, _ := s.Tool("research")
	o, err := s.Do(ctx, &client.Call{Tool: tool, Mode: policy.Batch, Preapproved: true, Detach: true})
	if err != nil || o.Status != client.StatusTask {
		return
	}
	st, err := s.GetTask(ctx, o.Task.ID)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Status, st.StatusMessage)
	if !st.Status.Terminal() {
		if _, err := s.CancelTask(ctx, o.Task.ID); err != nil {
			fmt.Println(err)
		}
	}
}
