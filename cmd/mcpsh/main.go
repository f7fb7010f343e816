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
	growStack()
	// The first Ctrl-C cancels the call in flight (the server is told) and lets
	// mcpsh record it and exit 130. The second hurries that exit (a stdio
	// server gets no grace to end) but never skips the log entry of a call
	// that was sent: `timeout -s INT` alone delivers two, to the process and
	// then its group. The third exits at once. SIGTERM and SIGHUP (the
	// terminal or the ssh session went away) count as Ctrl-C: left to their
	// default, they would end mcpsh at once, its stdio servers left behind
	// and the call in flight unlogged. On Windows, Go delivers Ctrl-C and
	// Ctrl-Break as os.Interrupt, and closing the console window as SIGTERM,
	// so both platforms take this one path.
	ctx, cancel := context.WithCancel(context.Background())
	ctx, hurry := cli.WithHurry(ctx)
	// signal.Notify waits for the runtime to start a thread of its own and
	// to update the signal mask once per signal (about a quarter of a
	// millisecond), so it runs beside the parsing of the command line; no
	// command starts before it has returned (cli.WithSignalsCaught). An
	// interrupt before then ends mcpsh as one during its start-up does,
	// before anything was sent or started.
	caught := make(chan struct{})
	ctx = cli.WithSignalsCaught(ctx, func() { <-caught })
	go func() {
		sig := make(chan os.Signal, 3)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		close(caught)
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

// growStack grows the main goroutine's stack to 64 KiB in one step while it
// is one frame deep, as CockroachDB's growstack package does. A goroutine's
// stack starts at 2 KiB and doubles when a call needs more, and each
// doubling copies every frame, reading tables of the binary that start-up
// has not touched yet. A command needs more than 16 KiB by the time it
// starts a server, so without this the doublings to 16 and 32 KiB each walk
// up to thirty frames.
//
//go:noinline
func growStack() byte {
	var buf [32 << 10]byte
	return touch(buf[:])
}

//go:noinline
func touch(b []byte) byte { return b[len(b)-1] }
