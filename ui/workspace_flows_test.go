package ui

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
)

// The whole TUI on a workspace of three servers, as a user drives it: the
// others are usable while one fails, ] goes to the second (untrusted, so its
// banner shows), and a call there reaches that server and no other.
// Assertions are on the servers' counters. (Screen text is matched in what
// the renderer writes, which is only what changed: the waits look for text
// drawn whole.)
func TestFlowWorkspaceSwitchAndCall(t *testing.T) {
	alpha, beta := demo.New(), demo.New()
	m := New(context.Background(), Options{NoColor: true, Choices: []Choice{
		demoChoice("alpha", alpha, policy.Trusted),
		demoChoice("beta", beta, policy.Untrusted),
		brokenChoice(),
	}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	f := &flow{t: t, tm: tm}
	t.Cleanup(func() {
		tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		tm.WaitFinished(t, teatest.WithFinalTimeout(patience))
		m.Close()
	})
	f.waitFor("Destructive (5)")
	f.typeText("]")
	f.waitFor("untrusted server: its hints are shown but not believed")
	f.openForm("get note", "ctrl+r asks first")
	f.typeText("1")
	f.press('r', tea.ModCtrl)
	f.waitFor("Run this tool?")
	f.typeText("y")
	f.until("get_note to run on beta", func() bool { return beta.Executions("get_note") == 1 })
	f.waitFor("Welcome to mcpsh") // note 1, in the result
	if n := alpha.Executions("get_note"); n != 0 {
		t.Fatalf("the call on beta ran %d times on alpha", n)
	}
}
