// Command baseline is the yardstick for mcpsh's start-up benchmark: the least a
// go-sdk program can do to answer "what tools does this server have": start the
// server, connect, list every tool, print them as JSON, and stop the server.
//
//	baseline COMMAND ARGS...
//
// $BASELINE_PROTOCOL picks the protocol version (go-sdk's latest when empty),
// so the comparison with mcpsh is made at the same version.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: baseline COMMAND ARGS...")
		os.Exit(2)
	}
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "baseline", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	t := &mcp.CommandTransport{Command: exec.Command(os.Args[1], os.Args[2:]...)}
	cs, err := c.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: os.Getenv("BASELINE_PROTOCOL")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var tools []*mcp.Tool
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		tools = append(tools, tool)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.Encode(tools)
	cs.Close()
}
