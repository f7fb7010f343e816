// Command fixtureserver is a raw MCP server for end-to-end tests of what go-sdk
// servers cannot send.
//
//	fixtureserver TOOLS.json                 serve a tool list as written, over stdio
//	fixtureserver -scenario NAME [-state DIR] [-http ADDR [-sse] [-forget-after N] [-resume] [-reject-cancel]]
//
// A scenario is one of internal/testing/fixture's hostile or faulty behaviours. With
// -http it listens on ADDR (127.0.0.1 only in tests) and prints "listening
// ADDR" on stdout once it accepts connections.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

func main() {
	scenario := flag.String("scenario", "", "play the fixture scenario `NAME`")
	state := flag.String("state", os.Getenv("MCPSH_FIXTURE_STATE"), "keep state across restarts in `DIR`")
	addr := flag.String("http", "", "serve streamable HTTP on `ADDR` instead of stdio")
	var o fixture.HTTPOptions
	flag.BoolVar(&o.SSE, "sse", false, "answer calls as event streams")
	flag.IntVar(&o.ForgetAfter, "forget-after", 0, "forget the first session after `N` requests (404 afterwards)")
	flag.BoolVar(&o.Resume, "resume", false, "deliver call answers on the resumed GET stream")
	flag.BoolVar(&o.RejectCancel, "reject-cancel", false, "answer notifications/cancelled with HTTP 500")
	flag.Parse()

	if *scenario == "" {
		if flag.NArg() != 1 {
			fmt.Fprintln(os.Stderr, "usage: fixtureserver TOOLS.json | fixtureserver -scenario NAME [flags]")
			os.Exit(2)
		}
		tools, err := os.ReadFile(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := fixture.Serve(os.Stdin, os.Stdout, tools); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	sc, err := fixture.Lookup(*scenario)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	s := &fixture.Server{Scenario: sc, StateDir: *state, Stderr: os.Stderr}
	if *addr == "" {
		if err := s.ServeStdio(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("listening", l.Addr())
	if err := http.Serve(l, s.Handler(o)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
