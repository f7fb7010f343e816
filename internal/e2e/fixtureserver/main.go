// Command fixtureserver serves a tool list from a JSON file over stdio, as a
// raw MCP server, for end-to-end tests of what go-sdk servers cannot send.
//
//	fixtureserver TOOLS.json
package main

import (
	"fmt"
	"os"

	"github.com/mcpsh/mcpsh/internal/fixture"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fixtureserver TOOLS.json")
		os.Exit(2)
	}
	tools, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := fixture.Serve(os.Stdin, os.Stdout, tools); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
