package demo

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// schema parses a JSON Schema written as JSON text. The demo writes its
// schemas by hand rather than inferring them from Go structs so that what a
// newcomer reads here is exactly what goes over the wire (defaults, bounds,
// enums and formats included). A malformed schema is a programming error,
// caught by every test, so it panics.
func schema(src string) *jsonschema.Schema {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(src), &s); err != nil {
		panic(fmt.Sprintf("demo: bad schema %s: %v", src, err))
	}
	return &s
}

// emptyInput is the schema of a tool that takes no arguments. MCP requires an
// object schema even then.
const emptyInput = `{"type":"object","properties":{}}`

// flag returns a pointer to b, for the *bool hints (destructiveHint and
// openWorldHint) that go-sdk omits from the wire when nil.
func flag(b bool) *bool { return &b }

// examples builds the tool's _meta.inputExamples: argument objects a client
// can offer as starting points. No MCP spec version defines the key; it is
// what servers built with the Nuxt MCP toolkit send, and mcpsh shows it.
// Examples may be partial, but each must validate against the input schema
// (examples_test.go checks).
func examples(ex ...map[string]any) mcp.Meta {
	list := make([]any, len(ex))
	for i, e := range ex {
		list[i] = e
	}
	return mcp.Meta{"inputExamples": list}
}
