package client

import (
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
)

// What mcpsh assumes about jsonschema-go (ARCHITECTURE.md, "What we assume
// about jsonschema-go"), held to the version go.mod names.

// The schema graph resolves references itself (jsonschema-go keeps its own
// resolution private), and the guard and the cost walk are only as good as
// that mirror: a reference it resolves elsewhere than the validator could
// hide a loop. The validator names each schema it enters in its error
// ("validating /$defs/t: …"), so a target that alone refuses the value
// shows where the validator went; decoys that accept it stand where a
// wrong resolution would land.
func TestReferencesResolveAsTheValidatorDoes(t *testing.T) {
	t.Parallel()
	const draft7 = `"$schema":"http://json-schema.org/draft-07/schema#",`
	tests := []struct{ name, schema, want string }{
		{"pointer", `{"properties":{"a":{"$ref":"#/$defs/t"}},"$defs":{"t":{"type":"string"},"u":{}}}`, "/$defs/t"},
		{"escaped pointer", `{"properties":{"a":{"$ref":"#/$defs/x~1y~0z"}},"$defs":{"x/y~z":{"type":"string"},"x~1y~0z":{}}}`, "/$defs/x~1y~0z"},
		{"percent-encoded pointer", `{"properties":{"a":{"$ref":"#/$defs/a%20b"}},"$defs":{"a b":{"type":"string"},"a%20b":{}}}`, "/$defs/a b"},
		{"pointer into a list", `{"properties":{"a":{"$ref":"#/$defs/l/anyOf/1"}},"$defs":{"l":{"anyOf":[{},{"type":"string"}]}}}`, "/$defs/l/anyOf/1"},
		{"anchor", `{"properties":{"a":{"$ref":"#t"}},"$defs":{"t":{"$anchor":"t","type":"string"},"u":{}}}`, "/$defs/t"},
		{"anchor in an embedded resource", `{"$id":"https://example.com/root","$anchor":"t","properties":{"a":{"$ref":"r#t"}},` +
			`"$defs":{"r":{"$id":"r","$defs":{"t":{"$anchor":"t","type":"string"}}}}}`, "/$defs/r/$defs/t"},
		{"relative $id", `{"$id":"https://example.com/root","properties":{"a":{"$ref":"x.json"}},` +
			`"$defs":{"x":{"$id":"x.json","type":"string"},"y":{"$id":"y.json"}}}`, "x.json"},
		{"base of the nearest $id", `{"$id":"https://example.com/a/root","properties":{"a":{"$id":"https://example.com/b/p","$ref":"t"}},` +
			`"$defs":{"t":{"$id":"https://example.com/a/t"},"u":{"$id":"https://example.com/b/t","type":"string"}}}`, "https://example.com/b/t"},
		{"draft-07 plain-name $id", `{` + draft7 + `"properties":{"a":{"$ref":"#t"}},"definitions":{"t":{"$id":"#t","type":"string"},"u":{}}}`, "#t"},
		{"$dynamicRef to a static anchor", `{"properties":{"a":{"$dynamicRef":"#t"}},"$defs":{"t":{"$anchor":"t","type":"string"},"u":{}}}`, "/$defs/t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, err := compile(json.RawMessage(tt.schema), "the arguments")
			if err != nil {
				t.Fatal(err)
			}
			var from *schemaNode
			for _, n := range c.g.order {
				if n.path == "/properties/a" {
					from = n
				}
			}
			if from == nil {
				t.Fatal("no node at /properties/a")
			}
			to := from.ref
			if to == nil {
				to = from.dynRef
			}
			mirror := "(nothing)"
			if to != nil {
				mirror = to.path
				if to.s.ID != "" {
					mirror = to.s.ID // the validator names a schema by its $id
				}
			}
			err = c.r.Validate(map[string]any{"a": 1.0})
			if err == nil {
				t.Fatalf("the validator accepted {\"a\":1}: it resolved the reference to a decoy (the mirror says %s)", mirror)
			}
			// The innermost "validating X: " (an $id may hold a colon, so
			// not validatingPrefix, which stops at one).
			msg := err.Error()
			_, after, _ := strings.Cut(msg[strings.LastIndex(msg, "validating "):], " ")
			validator, _, _ := strings.Cut(after, ": ")
			if validator != tt.want || mirror != tt.want {
				t.Errorf("the reference at /properties/a leads the validator to %s and the schema graph to %s, want %s (%v)",
					validator, mirror, tt.want, err)
			}
		})
	}
}

// maxCheckDepth rests on jsonschema-go taking about 4 KB of stack for each
// subschema it applies (4 MB at the bound; measured: 2 to 4 KB, twice that
// under -race). A value as deep as the cost walk lets through is checked here
// in a process whose stacks may not pass 16 MB: if the validator's frames
// grow past four times the estimate (twice, under -race), the bound no longer
// means what it says and the child dies of a stack overflow.
func TestValidatorStackAtTheDepthBound(t *testing.T) {
	t.Parallel()
	const limit = 16 << 20
	// 31 references per level of the value: the bound is reached 33 levels
	// down, long before the value's own nesting costs anything.
	c, _, err := compile(json.RawMessage(chainSchema(30)), "the arguments")
	if err != nil {
		t.Fatal(err)
	}
	var deepest any
	depth := 0
	for n := 1; ; n++ {
		var v any
		if err := json.Unmarshal([]byte(`{"a":`+nestedArrays(n)+`}`), &v); err != nil {
			t.Fatal(err)
		}
		w := &costWalk{g: c.g, limit: maxCheckSteps, printed: map[printKey]int64{}}
		w.walk(reflect.ValueOf(v), c.g.root)
		if w.err != nil {
			break
		}
		deepest, depth = v, w.deepest
	}
	if depth < maxCheckDepth-40 {
		t.Fatalf("the deepest value the cost walk lets through is %d subschemas deep, not near the bound of %d", depth, maxCheckDepth)
	}
	if os.Getenv("MCPSH_STACK_CHILD") != "" {
		debug.SetMaxStack(limit)
		if err := c.r.Validate(deepest); err != nil {
			t.Fatalf("a value that fits the schema: %v", err)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestValidatorStackAtTheDepthBound$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPSH_STACK_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		first, _, _ := strings.Cut(string(out), "\n\n")
		t.Fatalf("checking a value %d subschemas deep took more than %d MB of stack (%v): %s", depth, limit>>20, err, first)
	}
}
