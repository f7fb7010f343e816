package form

import (
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

// A suggestion goes back to the server as it sent it, never as it is drawn.
// One that reads in the field as drawn goes in when picked; one that would
// not (a width terminals dispute, a cluster drawn otherwise, an escape)
// is shown made safe, and picking it says why it stays out.
func TestSuggestionsGoBackAsTheServerSentThem(t *testing.T) {
	for _, c := range []struct {
		value string
		takes bool
	}{
		{"café", true},
		{"日本語", true},
		{"नमस्ते", false},
		{"👍🏽", false},
		{"wipe\u00addisk", false},
		{"red\x1b[31mtext", false},
	} {
		f := NewStringForm([]StringSpec{{Name: "greeting"}}, client.CompletionRef{}, true, style.NewStyles(theme.Dark(), true), keymap.Default())
		f.SetSize(80, 20)
		f.Focus()
		f.SetSuggestions(&client.Completion{Values: []string{c.value}}, nil)
		if view := f.View(); strings.Contains(view, "\x1b[31m") {
			t.Errorf("%+q: drawn raw", c.value)
		}
		f.Update(formKeys.Down)
		f.Update(formKeys.Enter)
		got := f.Values()["greeting"]
		switch {
		case c.takes && got != c.value:
			t.Errorf("%+q: picked, the field holds %+q", c.value, got)
		case !c.takes && got != "":
			t.Errorf("%+q: picked, the field holds %+q, which the server did not offer as drawn", c.value, got)
		case !c.takes && !strings.Contains(f.View(), "cannot go in the field as the server sent it"):
			t.Errorf("%+q: picked, the form does not say why it stays out:\n%s", c.value, f.View())
		}
	}
}
