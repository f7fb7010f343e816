package client

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A prompt with a content block of a type mcpsh does not know is shown with
// a placeholder for that block, as a tool's result is: go-sdk's typed decode
// failed the whole prompts/get on it.
func TestPromptWithAnUnknownContentTypeDegrades(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "odd-shapes")
	s := connectFixture(t, target, nil)
	l, err := s.ListPrompts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.GetPrompt(context.Background(), l.Prompts[0], map[string]string{"who": "Ada"})
	if err != nil {
		t.Fatalf("one odd block failed the whole prompt: %v", err)
	}
	var got []string
	for _, m := range res.Messages {
		got = append(got, m.Role+": "+m.Block.Summary())
	}
	want := []string{
		"user: hello",
		`assistant: [content of type "hologram" that mcpsh does not know: {"type":"hologram","shape":"cube"}]`,
		"user: [image image/png, 3 B]",
		`user: [content block mcpsh cannot read: "just a string"]`,
	}
	if diff := cmp.Diff(want, got); diff != "" || res.Description != "a greeting" {
		t.Errorf("messages (-want +got):\n%s\ndescription %q", diff, res.Description)
	}
	// --json keeps each block as the server sent it.
	if string(res.Messages[1].Content) != `{"type":"hologram","shape":"cube"}` {
		t.Errorf("raw content %s", res.Messages[1].Content)
	}
}
