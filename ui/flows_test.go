package ui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
)

// flow runs the whole TUI on the in-process demo server, as a user would,
// and gives the test the demo server to count executions on.
type flow struct {
	t    *testing.T
	tm   *teatest.TestModel
	demo *demo.Server
	out  bytes.Buffer // everything drawn so far, escape codes stripped
}

// startFlow opens the TUI and waits until the screen shows first.
func startFlow(t *testing.T, trust policy.Trust, first ...string) *flow {
	t.Helper()
	d := demo.New()
	target := &client.Target{Name: "demo", Kind: client.KindInProcess, InProcess: d.MCP(), Trust: trust}
	m := New(context.Background(), Options{Target: target, NoColor: true})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	f := &flow{t: t, tm: tm, demo: d}
	t.Cleanup(func() {
		tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		tm.WaitFinished(t, teatest.WithFinalTimeout(patience))
		if s := m.Session(); s != nil {
			s.Close()
		}
	})
	for _, s := range append(first, "Destructive (5)") {
		f.waitFor(s)
	}
	return f
}

// waitFor waits until the screen has shown text.
func (f *flow) waitFor(text string) {
	f.t.Helper()
	f.waitForAny(text)
}

// waitForAny waits until the screen has shown one of texts, and says which.
func (f *flow) waitForAny(texts ...string) string {
	f.t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		b, _ := io.ReadAll(f.tm.Output())
		f.out.WriteString(ansi.Strip(string(b)))
		first, at := "", -1
		for _, text := range texts {
			if i := strings.Index(f.out.String(), text); i >= 0 && (at < 0 || i < at) {
				first, at = text, i
			}
		}
		if at >= 0 {
			// Keep what was drawn after the match: the next wait may need it.
			rest := f.out.String()[at+len(first):]
			f.out.Reset()
			f.out.WriteString(rest)
			return first
		}
		time.Sleep(20 * time.Millisecond)
	}
	f.t.Fatalf("the screen never showed %q; last output:\n%s", texts, tail(f.out.String(), 2000))
	return ""
}

// until waits for a condition on the server's side.
func (f *flow) until(what string, cond func() bool) {
	f.t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			f.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (f *flow) typeText(s string) {
	for _, r := range s {
		f.tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func (f *flow) press(code rune, mod ...tea.KeyMod) {
	k := tea.KeyPressMsg{Code: code}
	for _, m := range mod {
		k.Mod |= m
	}
	f.tm.Send(k)
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// openForm filters the list to one tool and opens its form; ready is what
// the form's header says mcpsh will do with the call.
func (f *flow) openForm(filter, ready string) {
	f.typeText("/" + filter)
	f.press(tea.KeyEnter) // accept the filter
	f.press(tea.KeyEnter) // open the form
	f.waitFor(ready)
}

// callNoArgs filters the list to a tool that takes no arguments and calls
// it with enter, then waits for next. Enter runs such a tool at once; where
// the tool list still answers enter with the form (before keyhandlers.go
// routes it to callTool), ctrl+r runs it from there.
func (f *flow) callNoArgs(filter, next string) {
	f.typeText("/" + filter)
	f.press(tea.KeyEnter) // accept the filter
	f.press(tea.KeyEnter) // call
	if f.waitForAny("ctrl+r runs it", next) == "ctrl+r runs it" {
		f.press('r', tea.ModCtrl)
		f.waitFor(next)
	}
}

// openDeleteDialog filters to delete_note, fills id=2 and asks to run it.
func (f *flow) openDeleteDialog() {
	f.openForm("delete", "ctrl+r asks first")
	f.typeText("2")
	f.press('r', tea.ModCtrl)
	f.waitFor("Run a destructive tool?")
}

func TestFlowConfirmThenRun(t *testing.T) {
	f := startFlow(t, policy.Trusted)
	f.openDeleteDialog()
	// Enter and Space must not approve: a key typed before the dialog appeared
	// would otherwise run a destructive call. n after them answers the
	// dialog only if it is still up: had enter or space answered it, the
	// call would be running or done, and n would cancel nothing.
	f.press(tea.KeyEnter)
	f.press(tea.KeySpace)
	f.typeText("n")
	f.waitFor("cancelled: nothing was sent")
	if n := f.demo.Executions("delete_note"); n != 0 {
		t.Fatalf("delete_note ran %d times before y", n)
	}
	f.press('r', tea.ModCtrl)
	f.waitFor("Run a destructive tool?")
	f.typeText("y")
	f.until("delete_note to run", func() bool { return f.demo.Executions("delete_note") == 1 })
	f.waitFor("Deleted note #2")
}

func TestFlowCancelInTheDialog(t *testing.T) {
	f := startFlow(t, policy.Trusted)
	f.openDeleteDialog()
	f.typeText("n")
	// The notice comes once Session.Do has returned with the call refused:
	// a call it had sent would have run on the server by then.
	f.waitFor("cancelled: nothing was sent")
	if n := f.demo.Executions("delete_note"); n != 0 {
		t.Fatalf("a declined call ran %d times", n)
	}
	// Esc declines too.
	f.press('r', tea.ModCtrl)
	f.waitFor("Run a destructive tool?")
	f.press(tea.KeyEscape)
	f.waitFor("cancelled: nothing was sent")
	if n := f.demo.Executions("delete_note"); n != 0 {
		t.Fatalf("a declined call ran %d times", n)
	}
}

func TestFlowAllowForTheSession(t *testing.T) {
	f := startFlow(t, policy.Trusted)
	f.openDeleteDialog()
	f.typeText("a")
	f.until("the first delete", func() bool { return f.demo.Executions("delete_note") == 1 })
	f.waitFor("allowed for this session")
	f.typeText("e") // edit and run again: no dialog this time
	f.waitFor("ctrl+r runs it")
	f.press('r', tea.ModCtrl)
	f.until("the second delete", func() bool { return f.demo.Executions("delete_note") == 2 })
}

func TestFlowCancelARunningCall(t *testing.T) {
	f := startFlow(t, policy.Trusted)
	f.openForm("slow", "ctrl+r runs it")
	f.press(tea.KeyTab) // to n
	f.typeText("50")
	f.press(tea.KeyTab) // to delay_ms
	f.typeText("200")
	f.press('r', tea.ModCtrl)
	f.waitFor("cancel the call")
	f.until("slow_count to start", func() bool { return f.demo.Executions("slow_count") == 1 })
	f.press(tea.KeyEscape)
	f.waitFor("cancelled")
	if n := f.demo.Executions("slow_count"); n != 1 {
		t.Errorf("slow_count ran %d times: a cancelled call is never retried", n)
	}
}

func TestFlowShowsRetries(t *testing.T) {
	t.Parallel() // it waits out two backoffs
	f := startFlow(t, policy.Trusted)
	f.callNoArgs("flaky", "attempt 1 of 4 failed")
	f.until("the third execution", func() bool { return f.demo.Executions("flaky_sync") == 3 })
	f.waitFor("3 attempts")
}

func TestFlowToolsListChangedRefreshesTheList(t *testing.T) {
	f := startFlow(t, policy.Trusted)
	f.openForm("toggle", "ctrl+r runs it")
	f.press(tea.KeySpace) // enabled: true
	f.press('r', tea.ModCtrl)
	f.until("toggle_extras to run", func() bool { return f.demo.Executions("toggle_extras") == 1 })
	f.press(tea.KeyEscape) // back to the list
	f.waitFor("18 tools")
}

func TestFlowUntrustedServerShowsTheBanner(t *testing.T) {
	f := startFlow(t, policy.Untrusted, "untrusted server: its hints are shown but not believed")
	f.openForm("list notes", "ctrl+r asks first")
	f.press('r', tea.ModCtrl)
	f.waitFor("Run this tool?")
	if n := f.demo.Executions("list_notes"); n != 0 {
		t.Fatal("sent before the answer")
	}
}
