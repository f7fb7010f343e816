package ui

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/demo"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/keymap"
)

// everyKey is every key of every binding of the keymap, once each: a key
// added to the keymap is pressed here without anyone listing it.
func everyKey(km *keymap.KeyMap) []string {
	var out []string
	for _, b := range km.All() {
		for _, k := range b.Keys() {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// serverStates are the states a workspace's server can be in when the user
// brings it on screen, each made by how it comes about: name, how the
// server is given, and what happens to it before the key.
var serverStates = []struct {
	name   string
	choice func(t *testing.T) Choice
	then   func(t *testing.T, d *driver, s *serverState)
}{
	{"ready", func(*testing.T) Choice { return demoChoice("it", demo.New(), policy.Trusted) }, waitReady},
	{"untrusted", func(*testing.T) Choice { return demoChoice("it", demo.New(), policy.Untrusted) }, waitReady},
	{"connecting", func(*testing.T) Choice { d, _ := gated(); return demoChoice("it", d, policy.Trusted) }, nil},
	{"failed", func(*testing.T) Choice { c := brokenChoice(); c.Name = "it"; return c }, func(t *testing.T, d *driver, s *serverState) {
		d.until("it to fail", func() bool { return failed(s) })
	}},
	{"needs a login", func(*testing.T) Choice { c := brokenChoice(); c.Name = "it"; return c }, func(t *testing.T, d *driver, s *serverState) {
		d.until("it to fail", func() bool { return failed(s) })
		s.connErr = &client.LoginRequiredError{Server: "it", Hint: "mcpsh login -s it"}
	}},
	{"logging in", func(*testing.T) Choice { d, _ := gated(); return demoChoice("it", d, policy.Trusted) }, func(t *testing.T, d *driver, s *serverState) {
		s.connErr = &client.LoginRequiredError{Server: "it", Hint: "mcpsh login -s it"}
		d.run(s.login())
		if s.mode != modeLogin {
			t.Fatalf("the login did not start: mode %v", s.mode)
		}
	}},
	{"unusable", func(t *testing.T) Choice {
		c, _ := fixtureChoice(t, "it", "started")
		c.Problem = "env: ${UNSET_VAR} is not set"
		return c
	}, nil},
	{"held for an approval", func(*testing.T) Choice {
		return Choice{Name: "it", Transport: "stdio", Where: "npx server", Origin: "claude (.mcp.json)", Problem: "held: not approved in claude"}
	}, nil},
	{"closed under the view", func(*testing.T) Choice { return demoChoice("it", demo.New(), policy.Trusted) }, func(t *testing.T, d *driver, s *serverState) {
		waitReady(t, d, s)
		s.session.Close()
	}},
	{"running a call", func(*testing.T) Choice { return demoChoice("it", demo.New(), policy.Trusted) }, func(t *testing.T, d *driver, s *serverState) {
		waitReady(t, d, s)
		d.m.switchTo(slices.Index(d.m.servers, s))
		d.keys("/")
		d.typeText("slow count")
		d.keys("enter", "enter")
		if d.m.shown().mode == modeForm {
			d.keys("ctrl+r")
		}
		if s.running == nil {
			t.Fatalf("no call runs: mode %v", s.mode)
		}
	}},
	{"asking for input", featureChoice, askForm},
	{"its requests put aside", featureChoice, func(t *testing.T, d *driver, s *serverState) {
		askForm(t, d, s)
		d.keys("ctrl+l")
	}},
	{"muted", func(*testing.T) Choice { return demoChoice("it", demo.New(), policy.Trusted) }, func(t *testing.T, d *driver, s *serverState) {
		waitReady(t, d, s)
		d.keys("M")
		if !s.muted {
			t.Fatal("M did not mute it")
		}
	}},
}

// featureChoice is the feature server (featureserver_test.go), whose
// ask_form asks for a form.
func featureChoice(*testing.T) Choice {
	t := featureTarget(newFeatureServer())
	t.Name = "it"
	return Choice{Name: "it", Transport: "in-process", Where: "features", Target: *t}
}

// askForm has the server on screen ask for a form while a call runs.
func askForm(t *testing.T, d *driver, s *serverState) {
	waitReady(t, d, s)
	d.callTool("ask_form")
	d.until("its request", func() bool { return s.asking() != nil })
}

func waitReady(t *testing.T, d *driver, s *serverState) {
	d.until("it to be ready", func() bool { return ready(s) })
}

// Every key of the keymap, in every state a server of a workspace can be
// in, with that server on screen: no key panics (r on a held server did),
// the view still draws and fits, and a server that may not start is not
// started by any of them.
func TestEveryKeyInEveryServerState(t *testing.T) {
	t.Parallel()
	keys := everyKey(keymap.Default())
	for _, st := range serverStates {
		t.Run(st.name, func(t *testing.T) {
			t.Parallel() // each key gets a model and a server of its own
			for _, k := range keys {
				m := New(context.Background(), Options{NoColor: true, Now: func() time.Time { return fixedNow },
					Choices: []Choice{st.choice(t), {Name: "other", Problem: "held: not approved"}},
					Login:   func(client.Target) *client.Auth { return &client.Auth{} },
					Client:  client.Options{ProtocolVersion: featureProtocol}})
				m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
				d := drive(t, m)
				d.run(m.Init())
				s := m.servers[0]
				if st.then != nil {
					st.then(t, d, s)
				}
				view := pressSafely(t, d, st.name, k)
				saneAfter(t, m, view, fmt.Sprintf("%s, %q", st.name, k))
			}
		})
	}
}

// pressSafely presses k, then draws the view, failing on a panic in either.
// It returns the view, for saneAfter: View is pure (pure_test.go), so
// drawing it again would draw the same.
func pressSafely(t *testing.T, d *driver, state, k string) string {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: %q panicked: %v\n%s", state, k, r, debug.Stack())
		}
	}()
	d.keys(k)
	return d.m.render()
}

// saneAfter checks what must hold whatever was pressed; view is m drawn.
func saneAfter(t *testing.T, m *Model, view, what string) {
	t.Helper()
	if m.cur < 0 || m.cur >= len(m.servers) || m.shown() != m.servers[m.cur] {
		t.Fatalf("%s: the server on screen is not the one current (%d)", what, m.cur)
	}
	for _, s := range m.servers {
		if s.startProblem() != "" && (s.session != nil || s.connecting != nil || s.mode != modeConnectFailed) {
			t.Fatalf("%s: %s may not start, and has session %v, connect %v, mode %v", what, s.name(), s.session != nil, s.connecting != nil, s.mode)
		}
	}
	assertFits(t, view, 100, 30)
}
