package client

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// Forward hands back what the server answered, as it came: a result
// go-sdk's typed decode would refuse (a prompt with a content block of a
// type it does not know) or rewrite (members it does not know) included.
func TestForwardReturnsTheServersAnswerAsSent(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "proxy")
	s := connectFixture(t, target, nil)
	ctx := context.Background()
	cases := []struct{ method, params, want string }{
		{"resources/list", `{"_meta":{"vendor.example/k":"v","progressToken":7}}`, fixture.ProxyResources},
		{"resources/list", `{"cursor":"r2"}`, fixture.ProxyResources2},
		{"resources/templates/list", `{}`, fixture.ProxyTemplates},
		{"prompts/list", ``, fixture.ProxyPrompts},
		{"prompts/get", `{"name":"greet","arguments":{"who":"x"}}`, fixture.ProxyPromptGet},
		{"resources/read", `{"uri":"file:///a.txt"}`, fixture.ProxyRead},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"a"}}`, fixture.ProxyComplete},
	}
	for _, c := range cases {
		got, err := s.Forward(ctx, c.method, json.RawMessage(c.params))
		if err != nil {
			t.Fatalf("%s: %v", c.method, err)
		}
		if string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.method, got, c.want)
		}
	}
	// The host's own _meta went on; its progress token did not.
	if m := fixture.Lines(state, "resources-meta"); len(m) != 1 || m[0] != `{"vendor.example/k":"v"}` {
		t.Errorf("the server saw _meta %q", m)
	}

	_, err := s.Forward(ctx, "resources/read", json.RawMessage(`{"uri":"file:///nope"}`))
	var re *RemoteError
	if !errors.As(err, &re) || re.Code != -32002 || !strings.Contains(re.Message, "resource not found") {
		t.Errorf("an error answer came back as %#v", err)
	}
	if _, err := s.Forward(ctx, "tools/call", json.RawMessage(`{"name":"wipe"}`)); err == nil || fixture.CountIn(state, "executions", "wipe") != 0 {
		t.Errorf("Forward sent tools/call (%v): it must go through Do", err)
	}
	if _, err := s.Forward(ctx, "prompts/get", json.RawMessage(`[1]`)); err == nil {
		t.Errorf("params that are not an object were sent")
	}
}
