// Command mcpsh is a terminal client for MCP servers. See internal/cli.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpsh/mcpsh/internal/cli"
	"github.com/mcpsh/mcpsh/internal/iostreams"
)

func main() {
	// The first Ctrl-C cancels the call in flight (the server is told) and lets
	// mcpsh record it and exit 130. The second hurries that exit (a stdio
	// server gets no grace to end) but never skips the log entry of a call
	// that was sent: `timeout -s INT` alone delivers two, to the process and
	// then its group. The third exits at once. On Windows, Go delivers Ctrl-C
	// and Ctrl-Break as os.Interrupt, and closing the console window as
	// SIGTERM, so both platforms take this one path.
	ctx, cancel := context.WithCancel(context.Background())
	ctx, hurry := cli.WithHurry(ctx)
	sig := make(chan os.Signal, 3)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		cancel()
		<-sig
		hurry()
		<-sig
		os.Exit(cli.ExitInterrupted)
	}()
	code := cli.Main(ctx, os.Args[1:], iostreams.System(os.Getenv), os.LookupEnv)
	cancel()
	os.Exit(code)
}
