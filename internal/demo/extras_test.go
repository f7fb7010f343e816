package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listChanged returns client options that report tools/list_changed on the
// returned channel.
func listChanged() (chan struct{}, *mcp.ClientOptions) {
	ch := make(chan struct{}, 10)
	return ch, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
		select {
		case ch <- struct{}{}:
		default:
		}
	}}
}

func TestToggleExtras(t *testing.T) {
	changed, opts := listChanged()
	cs := connect(t, New(), opts)
	if _, ok := listTools(t, cs)[extraTool]; ok {
		t.Fatalf("%s present before toggle_extras", extraTool)
	}

	callOK(t, cs, "toggle_extras", map[string]any{"enabled": true})
	next(t, changed, "tools/list_changed after enabling")
	tool, ok := listTools(t, cs)[extraTool]
	if !ok {
		t.Fatalf("%s missing after enabling", extraTool)
	}
	if a := tool.Annotations; a == nil || !a.ReadOnlyHint {
		t.Errorf("%s annotations %+v, want read-only", extraTool, a)
	}
	if got := callOK(t, cs, extraTool, nil); !strings.Contains(got, "3 notes") {
		t.Errorf("%s: %q", extraTool, got)
	}

	// Idempotent: enabling again changes nothing and notifies nobody.
	if got := callOK(t, cs, "toggle_extras", map[string]any{"enabled": true}); !strings.Contains(got, "nothing changed") {
		t.Errorf("second enable: %q", got)
	}
	select {
	case <-changed:
		t.Error("tools/list_changed after a no-op toggle")
	case <-time.After(100 * time.Millisecond):
	}

	callOK(t, cs, "toggle_extras", map[string]any{"enabled": false})
	next(t, changed, "tools/list_changed after disabling")
	if _, ok := listTools(t, cs)[extraTool]; ok {
		t.Errorf("%s still listed after disabling", extraTool)
	}
}
