package client

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tap matches answers and cancellations to requests by idKey, and reads
// IDs off the wire with rawIDKey; both must give one key for one ID, however
// it was held: the int64 the SDK numbers requests with, the float64 JSON
// decodes to, or the text on the wire.
func TestIDKeysAgree(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{`0`, `7`, `-3`, `4096`, `9007199254740991`, `"7"`, `"a\"b"`, `"é"`} {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatal(err)
		}
		id, err := jsonrpc.MakeID(v) // a float64 becomes an int64 ID, as the SDK holds its own
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(id.Raw())
		if got := idKey(id); got != string(want) {
			t.Errorf("idKey(%s) = %s, want %s", raw, got, want)
		}
		if got := rawIDKey(json.RawMessage(raw)); got != idKey(id) {
			t.Errorf("rawIDKey(%s) = %s, idKey = %s", raw, got, idKey(id))
		}
	}
}

func TestCallTokenTakesTheHintOnlyWhenTheParamsCarryIt(t *testing.T) {
	t.Parallel()
	params := func(token any) json.RawMessage {
		p := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": `"progressToken":"mcpsh-3"`}}
		if token != nil {
			p.SetProgressToken(token)
		}
		b, err := json.Marshal(p) // as go-sdk writes it
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// The hint saves parsing the arguments only if go-sdk writes the token the
	// way callToken looks for it.
	if p := params("mcpsh-12"); !bytes.Contains(p, []byte(`"progressToken":"mcpsh-12"`)) {
		t.Errorf("go-sdk writes the token otherwise: %s", p)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		hint   string
		params json.RawMessage
		want   string
	}{
		{"hint carried", "mcpsh-12", params("mcpsh-12"), "mcpsh-12"},
		{"no hint", "", params("mcpsh-12"), "mcpsh-12"},
		{"hint is a prefix of the token sent", "mcpsh-1", params("mcpsh-12"), "mcpsh-12"},
		{"hint only in the arguments", "mcpsh-3", params("mcpsh-12"), "mcpsh-12"},
		{"not mcpsh's call", "", params(nil), ""},
		{"a number token", "", params(7), ""},
	} {
		hctx := ctx
		if c.hint != "" {
			hctx = withCallToken(ctx, c.hint)
		}
		if got := callToken(hctx, c.params); got != c.want {
			t.Errorf("%s: %q, want %q (params %s)", c.name, got, c.want, c.params)
		}
	}
}
