package ui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/ui/footer"
)

func TestFooterKeepsHelpAndQuit(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	k := m.keys
	browse := m.bindings()
	result := []key.Binding{k.ScrollUp, k.ScrollDown, k.Edit, k.RawJSON, k.Copy, k.Save, k.Close, k.Log, k.Help, k.Quit}
	running := []key.Binding{k.CancelCall, k.Log, k.Server, k.Help, k.ForceQuit}
	var got []string
	for _, c := range []struct {
		name string
		b    []key.Binding
	}{{"browse", browse}, {"result", result}, {"running", running}} {
		for _, w := range []int{200, 80, 60, 30, 12} {
			line := ansi.Strip(footer.Render(m.st, k, c.b, w))
			if ansi.StringWidth(line) > w {
				t.Errorf("%s at %d: %d cells: %q", c.name, w, ansi.StringWidth(line), line)
			}
			want := []string{"? help", "q quit"}
			if c.name == "running" {
				want = []string{"? help", "ctrl+c quit"}
			}
			if w == 12 {
				want = []string{"?", "q"}
				if c.name == "running" {
					want = []string{"?", "ctrl+c"}
				}
			}
			for _, s := range want {
				if !strings.Contains(line, s) {
					t.Errorf("%s at %d lacks %q: %q", c.name, w, s, line)
				}
			}
			if w == 80 || w == 200 {
				got = append(got, c.name+" "+itoa(w)+": "+line)
			}
		}
	}
	// At 80 columns the first keys keep their words; later ones say less
	// before any is dropped.
	full := ansi.Strip(footer.Render(m.st, k, browse, 80))
	if !strings.HasPrefix(full, "↑/k up • ↓/j down • enter call") {
		t.Errorf("the first keys lost their words: %q", full)
	}
	golden(t, "footer/keys-80-200", strings.Join(got, "\n"))
}

// A notice shares the footer with the keys: it comes first, and help and
// quit stay on the line however long it is (a notice used to replace the
// keys until the next key press).
func TestANoticeLeavesTheKeysOnScreen(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	send(m, "u") // the tool on the cursor is not allowed: a notice says so
	s := m.shown()
	if s.status == "" {
		t.Fatal("u on a tool that is not allowed gave no notice")
	}
	for _, notice := range []string{s.status, strings.Repeat("the server's tools changed ", 10)} {
		s.status = notice
		for _, w := range []int{80, 60} {
			m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
			lines := strings.Split(screen(m), "\n")
			footer := lines[len(lines)-1]
			if miss := has(footer, notice[:20], "? help", "q quit"); miss != "" {
				t.Errorf("at %d the footer lacks %q: %q", w, miss, footer)
			}
			checkScreen(t, "a notice", m.render(), w, 24)
		}
	}
}
