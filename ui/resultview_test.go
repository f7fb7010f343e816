package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/resultview"
	"github.com/mcpsh/mcpsh/ui/style"
)

// showResult puts o in the model's result view, as a finished call does.

var monoStyles = style.NewStyles(theme.Dark(), true)

func showResult(t *testing.T, o *client.Outcome) *Model {
	t.Helper()
	m, _ := connected(t, true, 80, 24)
	m.shown().result.SetOutcome(o)
	m.shown().mode = modeResult
	return m
}

func withArgs(o *client.Outcome, args map[string]any) *client.Outcome {
	o.Args = args
	return o
}

func TestResultShowsTheArguments(t *testing.T) {
	short := ansi.Strip(resultview.Render(withArgs(okOutcome(), map[string]any{"city": "Lisbon", "days": 3}), 80, monoStyles))
	if !strings.Contains(short, "\narguments {\"city\":\"Lisbon\",\"days\":3}\n") {
		t.Errorf("short arguments are not on one line under the status:\n%s", short)
	}
	none := ansi.Strip(resultview.Render(withArgs(okOutcome(), map[string]any{}), 80, monoStyles))
	if !strings.Contains(none, "\narguments none\n") {
		t.Errorf("a call without arguments does not say so:\n%s", none)
	}
	long := withArgs(refusedOutcome(), map[string]any{"path": "/srv/data/" + strings.Repeat("deep/", 20) + "file.txt", "recursive": true, "note": "<b>&</b>"})
	got := resultview.Render(long, 80, monoStyles)
	assertWidth(t, "long arguments", got, 80)
	if plain := ansi.Strip(got); !strings.Contains(plain, "\narguments\n  {\n") || !strings.Contains(plain, `"note": "<b>&</b>"`) {
		t.Errorf("long arguments are not shown as indented JSON, as typed:\n%s", plain)
	}
	golden(t, "result/args-80", got)
}

func TestResultRawJSONIsWhatJSONPrints(t *testing.T) {
	o := withArgs(okOutcome(), map[string]any{"city": "Lisbon"})
	m := showResult(t, o)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 200})
	m.Update(keyOf("v"))
	if !m.shown().result.Raw() {
		t.Fatal("v did not switch to the raw JSON")
	}
	b, _ := json.MarshalIndent(o, "", "  ")
	want := string(termtext.EscapeJSON(b))
	view := paneText(m.shown().result.View())
	for _, line := range strings.Split(want, "\n") {
		if len(line) < 70 && !strings.Contains(view, line+"\n") {
			t.Errorf("the raw view lacks the line %q of --json's output", line)
		}
	}
	if strings.Contains(view, `"args"`) || strings.Contains(view, "arguments") {
		t.Error("the raw view adds what --json does not print")
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	golden(t, "result/raw-80x24", m.shown().result.View())
	m.Update(keyOf("v"))
	if m.shown().result.Raw() || !strings.Contains(ansi.Strip(m.shown().result.View()), "Sunny in Lisbon") {
		t.Error("a second v did not go back")
	}
}

// clipboardText is what a command sets the clipboard to, if it does: the
// message's text, checked to be the very message tea.SetClipboard gives for
// it (Bubble Tea keeps its type to itself).
func clipboardText(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command")
	}
	msg := cmd()
	// The types first: comparing a message of a type that is not
	// comparable (a batch) would panic.
	want := tea.SetClipboard("")()
	text := fmt.Sprint(msg)
	if fmt.Sprintf("%T", msg) != fmt.Sprintf("%T", want) || msg != tea.SetClipboard(text)() {
		t.Fatalf("the command gives %T, not tea.SetClipboard's message", msg)
	}
	return text
}

func TestResultCopiesWhatItShows(t *testing.T) {
	o := okOutcome()
	o.Result.Content[0].Text = "Sunny\x1b]0;owned\x07 today"
	m := showResult(t, o)
	_, cmd := m.Update(keyOf("c"))
	got := clipboardText(t, cmd)
	if !strings.HasPrefix(got, "Sunny today\n\n{\"city\"") || !strings.Contains(got, "[image image/png, "+client.HumanBytes(3072)+"]") {
		t.Errorf("copied %q", got)
	}
	if strings.ContainsRune(got, 0x1b) {
		t.Error("the copy carries the server's escape sequence")
	}
	if !strings.Contains(ansi.Strip(m.shown().result.View()), "copied") {
		t.Error("the view does not say it copied")
	}
	m.Update(keyOf("v"))
	_, cmd = m.Update(keyOf("c"))
	if raw := clipboardText(t, cmd); raw != m.shown().result.RawText() || !strings.HasPrefix(raw, "{\n  \"time\"") {
		t.Errorf("in the raw view c copied %q…", raw[:min(len(raw), 40)])
	}
}

func TestResultSavesImagesAndBlobs(t *testing.T) {
	o := okOutcome()
	second := mediaBlock("image", "image/jpeg", 10)
	o.Result.Content = append(o.Result.Content, second)
	m := showResult(t, o)
	dir := t.TempDir()

	m.Update(keyOf("w"))
	r := m.shown().result
	if !r.Typing() || r.Save().Name() != "get_forecast-1.png" {
		t.Fatalf("w: prompt %v, name %q", r.Save() != nil, r.Save().Name())
	}
	if v := ansi.Strip(r.View()); !strings.Contains(v, "image (1 of 2; tab for the next)") {
		t.Errorf("the prompt does not say which image:\n%s", v)
	}
	m.Update(keyOf("tab"))
	if r.Save().Name() != "get_forecast-2.jpg" {
		t.Errorf("tab: %q, want the second image", r.Save().Name())
	}
	m.Update(keyOf("tab"))
	path := filepath.Join(dir, "chart.png")
	r.Save().SetName(path)
	saved := func(cmd tea.Cmd) {
		t.Helper()
		if cmd == nil {
			t.Fatal("enter wrote nothing")
		}
		m.Update(cmd())
	}
	_, cmd := m.Update(keyOf("enter"))
	saved(cmd)
	if b, err := os.ReadFile(path); err != nil || len(b) != 3072 {
		t.Fatalf("the file has %d bytes (%v), want the image's 3072", len(b), err)
	}
	if r.Typing() || !strings.Contains(ansi.Strip(r.View()), "saved "+client.HumanBytes(3072)+" to "+path) {
		t.Errorf("after saving:\n%s", ansi.Strip(r.View()))
	}
	// The file is there now: it is replaced only after y.
	m.Update(keyOf("w"))
	r.Save().SetName(path)
	_, cmd = m.Update(keyOf("enter"))
	saved(cmd)
	if r.Save() == nil || r.Save().Exists() == "" {
		t.Fatal("an existing file was not asked about")
	}
	if _, cmd := m.Update(keyOf("enter")); cmd != nil {
		t.Fatal("enter replaced an existing file")
	}
	_, cmd = m.Update(keyOf("y"))
	saved(cmd)
	if r.Save() != nil {
		t.Errorf("y did not replace the file: %+v", r.Save())
	}
	// A result with nothing to save says so.
	m.shown().result.SetOutcome(toolErrorOutcome())
	m.Update(keyOf("w"))
	if r.Typing() || !strings.Contains(ansi.Strip(r.View()), "nothing to save") {
		t.Errorf("w on a text result:\n%s", ansi.Strip(r.View()))
	}
}
