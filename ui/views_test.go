package ui

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// screen is the model's screen without escape codes.
func screen(m *Model) string { return ansi.Strip(m.render()) }

func mustShow(t *testing.T, m *Model, texts ...string) {
	t.Helper()
	s := screen(m)
	for _, want := range texts {
		if !strings.Contains(s, want) {
			t.Fatalf("the screen lacks %q:\n%s", want, s)
		}
	}
}

// selectItem moves the list's cursor to the item with key.
func selectItem(t *testing.T, l *itemList, key string) {
	t.Helper()
	l.Top()
	for range l.rows {
		if it, _ := l.Selected(); it.Key() == key {
			return
		}
		l.Move(1)
	}
	t.Fatalf("no item %q in the list", key)
}

func TestViewsSwitch(t *testing.T) {
	m, _ := connectedFeatures(t, 80, 24)
	mustShow(t, m, "MCP 2025-11-25", " Tools 4 ", " Resources 5 ", " Prompts 1 ")
	send(m, "r")
	if m.shown().view != viewResources {
		t.Fatalf("r: view %v", m.shown().view)
	}
	mustShow(t, m, "Resources (4)", "Templates (1)", "Read me", "notes://{folder}/{name}")
	golden(t, "screen/resources-80x24", m.render())
	send(m, "p")
	mustShow(t, m, "Prompts (1)", "Greeting", "name*", "casual or formal")
	golden(t, "screen/prompts-80x24", m.render())
	send(m, "t")
	mustShow(t, m, "Read-only (3)", "Ask for a form")
	send(m, "tab", "tab")
	if m.shown().view != viewPrompts {
		t.Fatalf("tab tab: view %v, want prompts", m.shown().view)
	}
}

func TestViewsTheServerDoesNotOffer(t *testing.T) {
	m, _ := connectRedeclaring(t, &mcp.ToolAnnotations{ReadOnlyHint: true}) // tools only
	mustShow(t, m, " Resources — ", " Prompts — ")
	send(m, "r")
	mustShow(t, m, "does not offer resources")
	send(m, "enter", "j", "k")
	send(m, "p")
	mustShow(t, m, "does not offer prompts")
	if m.shown().mode != modeBrowse {
		t.Fatalf("mode %v", m.shown().mode)
	}
}

// TestViewsShowTheDemosNotesAndPrompts: the demo offers more than tools,
// and its resources, template and prompts fit at 80×24.
func TestViewsShowTheDemosNotesAndPrompts(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	ctx := context.Background()
	m.Update(listResourcesCmd(ctx, m.shown().resources.req, m.shown().session)())
	m.Update(listPromptsCmd(ctx, m.shown().prompts.req, m.shown().session)())
	mustShow(t, m, " Tools 17 ", " Resources 4 ", " Prompts 2 ")
	send(m, "r")
	mustShow(t, m, "Resources (3)", "Welcome to mcpsh  note://1", "Release checklist  note://3", "Templates (1)", "Note by id  note://{id}", "tags: demo · pinned")
	golden(t, "screen/demo-resources-80x24", m.render())
	send(m, "p")
	mustShow(t, m, "Prompts (2)", "Summarize a note", "Triage notes", "id*", "brief (the default), detailed or bullets")
	golden(t, "screen/demo-prompts-80x24", m.render())
}

// read opens the selected resource and hands the read's answer to Update.
func read(t *testing.T, m *Model) {
	t.Helper()
	send(m, "enter")
	if m.shown().mode != modeResource || m.shown().reader == nil {
		t.Fatalf("enter: mode %v", m.shown().mode)
	}
	m.Update(readResourceCmd(context.Background(), m.shown().reader.id, m.shown().session, m.shown().reader.uri)())
}

func TestReadResources(t *testing.T) {
	m, f := connectedFeatures(t, 80, 24)
	send(m, "r")
	selectItem(t, &m.shown().resources.list, "r info://readme.md")
	send(m, "enter")
	mustShow(t, m, "reading info://readme.md")
	m.Update(readResourceCmd(context.Background(), m.shown().reader.id, m.shown().session, m.shown().reader.uri)())
	mustShow(t, m, "Feature server", "A test server for mcpsh, with code and a link (https://example.com).", "• one", "• two")
	golden(t, "resource/readme-80x24", m.render())

	send(m, "esc")
	selectItem(t, &m.shown().resources.list, "r info://config.json")
	read(t, m)
	mustShow(t, m, `"folders": [`, `    "home",`)

	send(m, "esc")
	selectItem(t, &m.shown().resources.list, "r info://pixel.png")
	read(t, m)
	mustShow(t, m, "[image/png, 33 B]  w saves it to a file")
	golden(t, "resource/pixel-80x24", m.render())
	if _, _, _, _, reads, _ := f.snapshot(); !slices.Equal(reads, []string{"info://readme.md", "info://config.json", "info://pixel.png"}) {
		t.Errorf("the server read %v", reads)
	}
}

func TestSaveABlob(t *testing.T) {
	m, _ := connectedFeatures(t, 80, 24)
	send(m, "r")
	selectItem(t, &m.shown().resources.list, "r info://pixel.png")
	read(t, m)
	send(m, "w")
	if m.shown().saving == nil || m.shown().saving.Name() != "pixel.png" {
		t.Fatalf("w: the default name is not pixel.png: %+v", m.shown().saving)
	}
	golden(t, "resource/save-80x24", m.render())
	dir := t.TempDir()
	path := filepath.Join(dir, "pixel.png")
	m.shown().saving.SetName(path)
	save := func(keys ...string) {
		t.Helper()
		cmd := send(m, keys...)
		if cmd == nil {
			t.Fatalf("%v: nothing written", keys)
		}
		m.Update(cmd())
	}
	save("enter")
	if b, err := os.ReadFile(path); err != nil || string(b) != string(featurePixel) {
		t.Fatalf("saved %q, %v", b, err)
	}
	mustShow(t, m, "saved 33 B to")
	// Again: the file exists, and only y replaces it.
	if err := os.WriteFile(path, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	send(m, "w")
	m.shown().saving.SetName(path)
	save("enter")
	mustShow(t, m, "exists", "y replace it")
	golden(t, "resource/save-exists-80x24", strings.ReplaceAll(m.render(), dir, "/tmp/d"))
	for _, k := range []string{"enter", "space", "x"} {
		if cmd := send(m, k); cmd != nil || m.shown().saving.Exists() == "" {
			t.Fatalf("%q answered the question", k)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "mine" {
		t.Fatal("the file was replaced before y")
	}
	send(m, "n")
	if m.shown().saving == nil || m.shown().saving.Exists() != "" {
		t.Fatal("n: not back to the name")
	}
	save("enter")
	save("y")
	if b, _ := os.ReadFile(path); string(b) != string(featurePixel) {
		t.Fatal("y did not replace the file")
	}
}

func TestFollowAResource(t *testing.T) {
	m, f := connectedFeatures(t, 80, 24)
	send(m, "r")
	selectItem(t, &m.shown().resources.list, "r mem://counter")
	read(t, m)
	mustShow(t, m, "count: 0")
	cmd := send(m, "s")
	m.Update(cmd())
	if !m.shown().subscribed["mem://counter"] {
		t.Fatalf("s: not following (%s)", m.shown().status)
	}
	if _, _, _, _, _, subs := f.snapshot(); !slices.Equal(subs, []string{"mem://counter"}) {
		t.Fatalf("the server got subscriptions %v", subs)
	}
	mustShow(t, m, "following its updates")
	// The server says it changed: the viewer reads it again.
	f.mu.Lock()
	f.counter = 5
	f.mu.Unlock()
	reread := m.shown().onResourceUpdated("mem://counter")
	if reread == nil {
		t.Fatal("an update of the resource in view was not read")
	}
	m.Update(reread())
	mustShow(t, m, "count: 5", "read again 1 time")
	if m.shown().onResourceUpdated("mem://other") != nil {
		t.Error("an update of another resource was read")
	}
	// A new session (a reconnect) is asked for the same updates.
	m.Update(m.shown().resubscribe()())
	if _, _, _, _, _, subs := f.snapshot(); len(subs) != 2 || !m.shown().subscribed["mem://counter"] {
		t.Errorf("after a reconnect the server got subscriptions %v", subs)
	}
	send(m, "esc")
	if m.shown().onResourceUpdated("mem://counter") != nil {
		t.Error("a resource out of view was read")
	}
}

func TestTemplateWithCompletion(t *testing.T) {
	m, f := connectedFeatures(t, 80, 24)
	send(m, "r")
	selectItem(t, &m.shown().resources.list, "t notes://{folder}/{name}")
	send(m, "enter")
	if m.shown().mode != modeArgs || m.shown().strForm == nil || m.shown().strForm.Len() != 2 {
		t.Fatalf("enter on a template: mode %v", m.shown().mode)
	}
	complete := func() {
		t.Helper()
		cmd := m.shown().onCompleteDue(completeDueMsg{id: m.shown().strForm.Want})
		if cmd == nil {
			t.Fatal("no completion request")
		}
		m.Update(cmd())
	}
	complete()
	mustShow(t, m, "folder*", "home", "work", "the server suggests values as you type")
	golden(t, "args/template-80x24", m.render())

	old := m.shown().strForm.Want
	send(m, "w")
	if m.shown().strForm.Want == old || m.shown().onCompleteDue(completeDueMsg{id: old}) != nil {
		t.Fatal("a completion overtaken by typing was still sent")
	}
	complete()
	if !slices.Equal(m.shown().strForm.Suggestions(), []string{"work"}) {
		t.Fatalf("suggestions %v", m.shown().strForm.Suggestions())
	}
	send(m, "down", "enter")
	if v := m.shown().strForm.Values()["folder"]; v != "work" {
		t.Fatalf("picked %q", v)
	}
	send(m, "tab")
	complete()
	if !slices.Equal(m.shown().strForm.Suggestions(), []string{"ideas", "todo"}) {
		t.Fatalf("name suggestions %v", m.shown().strForm.Suggestions())
	}
	send(m, "down", "enter")
	// A late answer for an older request changes nothing.
	m.Update(completedMsg{id: old, completion: &client.Completion{Values: []string{"stale"}}})
	if slices.Contains(m.shown().strForm.Suggestions(), "stale") {
		t.Fatal("a late completion was shown")
	}
	cmd := send(m, "ctrl+r")
	if m.shown().mode != modeResource || m.shown().reader.uri != "notes://work/ideas" || cmd == nil {
		t.Fatalf("ctrl+r: mode %v", m.shown().mode)
	}
	m.Update(readResourceCmd(context.Background(), m.shown().reader.id, m.shown().session, m.shown().reader.uri)())
	mustShow(t, m, "Subscriptions everywhere.")
	_, _, _, completes, _, _ := f.snapshot()
	want := []string{"folder=", "folder=w", "name= folder:work"}
	if !slices.Equal(completes, want) {
		t.Errorf("the server was asked to complete %q, want %q", completes, want)
	}
	// e edits the template's values again.
	send(m, "e")
	if m.shown().mode != modeArgs || m.shown().strForm.Values()["name"] != "ideas" {
		t.Fatalf("e: mode %v", m.shown().mode)
	}
}

func TestPromptFormAndMessages(t *testing.T) {
	m, f := connectedFeatures(t, 80, 24)
	send(m, "p", "enter")
	if m.shown().mode != modeArgs || m.shown().strForm.Prompt == nil {
		t.Fatalf("enter on a prompt: mode %v", m.shown().mode)
	}
	if cmd := send(m, "ctrl+r"); m.shown().mode != modeArgs || !strings.Contains(screen(m), "✗ required") {
		t.Fatalf("ctrl+r without the required name: mode %v, cmd %v\n%s", m.shown().mode, cmd != nil, screen(m))
	}
	send(m, "A")
	m.Update(m.shown().onCompleteDue(completeDueMsg{id: m.shown().strForm.Want})())
	if !slices.Equal(m.shown().strForm.Suggestions(), []string{"Ada", "Alan"}) {
		t.Fatalf("suggestions %v", m.shown().strForm.Suggestions())
	}
	golden(t, "args/prompt-80x24", m.render())
	send(m, "down", "enter", "ctrl+r")
	if m.shown().mode != modePrompt {
		t.Fatalf("ctrl+r: mode %v", m.shown().mode)
	}
	mustShow(t, m, "getting greet")
	m.Update(getPromptCmd(context.Background(), m.shown().promptOut.id, m.shown().session, m.shown().strForm.Prompt, m.shown().strForm.Values())())
	mustShow(t, m, "2 messages", "user", "Please greet Ada in a casual way.", "assistant", "[image image/png, 33 B]")
	golden(t, "prompt/greet-80x24", m.render())
	if _, _, _, completes, _, _ := f.snapshot(); !slices.Equal(completes, []string{"name=A"}) {
		t.Errorf("completions asked: %q", completes)
	}
	send(m, "e")
	if m.shown().mode != modeArgs || m.shown().strForm.Values()["name"] != "Ada" {
		t.Fatalf("e: mode %v", m.shown().mode)
	}
	send(m, "esc")
	if m.shown().mode != modeBrowse || m.shown().view != viewPrompts {
		t.Fatalf("esc: mode %v view %v", m.shown().mode, m.shown().view)
	}
}

func TestListsRefreshKeepingTheSelection(t *testing.T) {
	m, _ := connectedFeatures(t, 80, 24)
	send(m, "r")
	selectItem(t, &m.shown().resources.list, "r mem://counter")
	_, cmd := m.Update(eventMsg{client.Event{Kind: client.EventResourcesChanged}})
	if cmd == nil {
		t.Fatal("resources/list_changed asked for nothing")
	}
	req := m.shown().resources.req
	l := &client.ResourceListing{Resources: []*client.Resource{
		{URI: "a://first", Name: "first"}, {URI: "info://readme.md", Name: "readme"}, {URI: "mem://counter", Name: "counter"}}}
	m.Update(resourcesListedMsg{id: req - 1, listing: &client.ResourceListing{}})
	if len(m.shown().resources.listing.Resources) != 4 {
		t.Fatal("an overtaken listing was taken")
	}
	m.Update(resourcesListedMsg{id: req, listing: l})
	if res, _ := m.shown().selectedResource(); res == nil || res.URI != "mem://counter" {
		t.Fatalf("the selection moved to %v", res)
	}
	mustShow(t, m, "Resources (3)", "first")

	send(m, "p")
	m.Update(eventMsg{client.Event{Kind: client.EventPromptsChanged}})
	m.Update(promptsListedMsg{id: m.shown().prompts.req, listing: &client.PromptListing{Prompts: []*client.Prompt{{Name: "bonus"}, {Name: "greet"}}}})
	if p := m.shown().selectedPrompt(); p == nil || p.Name != "greet" {
		t.Fatalf("the prompt selection moved to %v", p)
	}
}

func TestInstructionsInTheServerPane(t *testing.T) {
	m, _ := connectedFeatures(t, 80, 24)
	send(m, "S")
	mustShow(t, m, "Instructions", "Read info://readme.md first")
	m.Update(eventMsg{client.Event{Kind: client.EventRequest, Text: "the server asked for input (form): accept"}})
	m.Update(eventMsg{client.Event{Kind: client.EventWarning, Text: "the answer does not fit"}})
	mustShow(t, m, "request", "the server asked for input (form): accept", "the answer does not fit")
	golden(t, "serverpane/instructions-80x24", m.render())
}

// noColour is what a colour code looks like (TestNoColorMeansNoColour).
var noColour = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7]);?[0-9;]*m|\x1b\[[0-9;]*[34]8;`)

// checkNewScreen is checkScreen, and no colour: these models honour NO_COLOR.
func checkNewScreen(t *testing.T, what, s string, w, h int) {
	t.Helper()
	checkScreen(t, what, s, w, h)
	if noColour.MatchString(s) {
		t.Errorf("%s: colour codes with NO_COLOR", what)
	}
}

func TestNewScreensFit(t *testing.T) {
	m, _ := connectedFeatures(t, 80, 24)
	for _, size := range [][2]int{{80, 24}, {120, 40}, {64, 20}, {50, 16}, {200, 60}} {
		w, h := size[0], size[1]
		m.Update(tea.WindowSizeMsg{Width: w, Height: h})
		at := " at " + itoa(w) + "x" + itoa(h)
		back := func() {
			closeDialogs(m)
			m.shown().asks, m.shown().saving = nil, nil
			m.shown().mode, m.shown().reader, m.shown().strForm, m.shown().promptOut = modeBrowse, nil, nil, nil
			m.shown().layout()
		}
		back()
		send(m, "r")
		checkNewScreen(t, "resources"+at, m.render(), w, h)
		selectItem(t, &m.shown().resources.list, "r info://readme.md")
		read(t, m)
		checkNewScreen(t, "markdown"+at, m.render(), w, h)
		back()
		selectItem(t, &m.shown().resources.list, "r info://pixel.png")
		read(t, m)
		send(m, "w")
		checkNewScreen(t, "save"+at, m.render(), w, h)
		back()
		selectItem(t, &m.shown().resources.list, "t notes://{folder}/{name}")
		send(m, "enter")
		m.Update(m.shown().onCompleteDue(completeDueMsg{id: m.shown().strForm.Want})())
		checkNewScreen(t, "template"+at, m.render(), w, h)
		back()
		send(m, "p")
		checkNewScreen(t, "prompts"+at, m.render(), w, h)
		send(m, "enter", "G", "r", "a", "ctrl+r")
		m.Update(getPromptCmd(context.Background(), m.shown().promptOut.id, m.shown().session, m.shown().strForm.Prompt, m.shown().strForm.Values())())
		checkNewScreen(t, "prompt messages"+at, m.render(), w, h)
		back()
		for name, a := range testAsks() {
			m.Update(askMsg{ask: a})
			checkNewScreen(t, name+at, m.render(), w, h)
			back()
		}
		send(m, "t")
	}
}

func TestNarrowGoldens(t *testing.T) {
	m, _ := connectedFeatures(t, 50, 16)
	send(m, "r")
	golden(t, "screen/resources-50x16", m.render())
	selectItem(t, &m.shown().resources.list, "t notes://{folder}/{name}")
	send(m, "enter")
	m.Update(m.shown().onCompleteDue(completeDueMsg{id: m.shown().strForm.Want})())
	golden(t, "args/template-50x16", m.render())
	send(m, "esc", "esc")
	m.Update(askMsg{ask: formAsk()})
	golden(t, "dialog/elicit-form-50x16", m.render())
	send(m, "esc")
	m.Update(askMsg{ask: urlAsk("https://bank.example@login.example.com/connect?session=1&next=/very/long/path/that/wraps")})
	golden(t, "dialog/url-50x16", m.render())
	send(m, "esc")
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(askMsg{ask: sampleAsk()})
	golden(t, "dialog/sample-120x40", m.render())
}
