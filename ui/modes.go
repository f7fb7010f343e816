package ui

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/ui/resultview"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
)

// A server's screen is in one mode at a time (connecting, browsing, a form,
// a call running, its result…). Everything a mode does is
// said in one place, screen: the keys it takes first, its other keys, the
// keys the footer shows, what it draws, what Update lays out for it, and
// whether it waits with a spinner. A new mode is one more case there.

// modeScreen is what one mode does. A nil func does nothing.
type modeScreen struct {
	// focus takes a key before the keys that work everywhere (text being
	// typed, the login's cancel); false leaves the key to them.
	focus func(tea.KeyPressMsg) (tea.Cmd, bool)
	// key takes a key no one else took.
	key func(tea.KeyPressMsg) tea.Cmd
	// bindings are the keys that work now, for the footer and help.
	bindings func() []key.Binding
	// body draws the mode in h lines.
	body func(h int) string
	// frame lays out what the next View draws (frame.go).
	frame func()
	// busy reports whether the mode waits with a spinner.
	busy func() bool
}

func always() bool { return true }

// screen is what the server's mode does: the one switch over modes.
func (s *serverState) screen() modeScreen {
	k := s.keys
	switch s.mode {
	case modeConnecting:
		return modeScreen{
			bindings: func() []key.Binding { return []key.Binding{k.ForceQuit} },
			body: func(int) string {
				return fmt.Sprintf("\n  %s connecting to %s…", s.spinner.View(), termtext.Line(s.target.Label()))
			},
			busy: always,
		}
	case modeConnectFailed:
		return modeScreen{key: s.onConnectFailedKey, bindings: s.connectFailedBindings, body: func(int) string { return s.renderConnectFailed() }}
	case modeBrowse:
		return modeScreen{
			focus: func(msg tea.KeyPressMsg) (tea.Cmd, bool) {
				if s.filtering {
					return s.onFilterKey(msg), true
				}
				return nil, false
			},
			key: s.onBrowseViewKey, bindings: s.browseBindings, body: s.renderBrowse, frame: s.layoutBrowse,
		}
	case modeForm:
		return modeScreen{
			focus: func(msg tea.KeyPressMsg) (tea.Cmd, bool) {
				if s.form.Editing() || s.form.Picking() {
					return s.onFormKey(msg), true
				}
				return nil, false
			},
			key: s.onFormKey,
			bindings: func() []key.Binding {
				return append(append([]key.Binding{k.Run}, s.form.ShortHelp()...), k.Back)
			},
			body: func(int) string { return s.formHeader() + "\n" + s.form.View() },
		}
	case modeRunning:
		return modeScreen{
			key: func(msg tea.KeyPressMsg) tea.Cmd {
				if key.Matches(msg, k.CancelCall) && s.running != nil {
					s.running.cancel()
					s.running.cancelling = true
				}
				return nil
			},
			bindings: func() []key.Binding {
				cancel := k.CancelCall
				if s.running != nil && s.running.task != nil {
					cancel = keymap.Relabel(cancel, "cancel the task")
				}
				return []key.Binding{cancel, k.Log, k.Server, k.Help, k.ForceQuit}
			},
			body: func(int) string {
				return renderRunning(s.running, s.spinner.View(), s.now(), s.bar, s.width, s.st, s.keys)
			},
			busy: always,
		}
	case modeResult:
		return modeScreen{
			focus: func(msg tea.KeyPressMsg) (tea.Cmd, bool) {
				if s.result.Typing() {
					return s.result.Update(msg), true // a file name being typed
				}
				return nil, false
			},
			key: s.onResultKey, bindings: s.resultBindings, body: func(int) string { return s.result.View() },
		}
	case modeArgs:
		return modeScreen{
			// Its fields always take text.
			focus:    func(msg tea.KeyPressMsg) (tea.Cmd, bool) { return s.onStringFormKey(msg), true },
			bindings: s.stringFormBindings,
			body:     func(int) string { return s.stringFormHeader() + "\n" + s.strForm.View() },
			frame: func() {
				if s.strForm != nil {
					s.strForm.Layout()
				}
			},
		}
	case modeResource:
		return modeScreen{
			focus: func(msg tea.KeyPressMsg) (tea.Cmd, bool) {
				if s.saving != nil {
					return s.onSaveKey(msg), true
				}
				return nil, false
			},
			key: s.onResourceKey, bindings: s.resourceBindings, body: s.renderResource,
			busy: func() bool { return s.reader != nil && !s.reader.done },
		}
	case modePrompt:
		return modeScreen{
			key: s.onPromptViewKey,
			bindings: func() []key.Binding {
				return []key.Binding{k.ScrollUp, k.ScrollDown, keymap.Relabel(k.Edit, "edit and get again"), k.Close, k.Help}
			},
			body: func(int) string { return s.promptOut.View(s.spinner.View()) },
			busy: func() bool { return s.promptOut != nil && !s.promptOut.done },
		}
	case modeLogin:
		return modeScreen{
			focus: func(msg tea.KeyPressMsg) (tea.Cmd, bool) {
				if key.Matches(msg, k.Close) {
					s.cancelLogin()
					return nil, true
				}
				// Only the keys that switch servers work while it logs in.
				return nil, !key.Matches(msg, k.NextServer, k.PrevServer, k.PickServer)
			},
			bindings: func() []key.Binding { return []key.Binding{keymap.Relabel(k.Close, "cancel the login"), k.ForceQuit} },
			body:     func(int) string { return s.renderLogin() },
			busy:     always,
		}
	}
	return modeScreen{}
}

// renderResource is the resource viewer, with the save prompt under it.
func (s *serverState) renderResource(h int) string {
	out := s.reader.View(s.spinner.View())
	if s.saving != nil {
		out = strings.Join(layout.FitLines(out, s.width, max(h-resultview.SaveLines, 0)), "\n") + "\n" + strings.Join(s.saveLines(), "\n")
	}
	return out
}

// onBrowseViewKey handles a key in the view on screen: tools, resources or
// prompts.
func (s *serverState) onBrowseViewKey(msg tea.KeyPressMsg) tea.Cmd {
	if s.onViewKey(msg) {
		return nil
	}
	if cmd, ok := s.onViewFilterKey(msg); ok {
		return cmd
	}
	switch s.view {
	case viewResources:
		return s.onResourcesKey(msg)
	case viewPrompts:
		return s.onPromptsKey(msg)
	}
	return s.onBrowseKey(msg)
}

// onFocusKey gives the mode the keys it takes before any other.
func (s *serverState) onFocusKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if f := s.screen().focus; f != nil {
		return f(msg)
	}
	return nil, false
}

// onModeKey gives the mode a key no one else took.
func (s *serverState) onModeKey(msg tea.KeyPressMsg) tea.Cmd {
	if f := s.screen().key; f != nil {
		return f(msg)
	}
	return nil
}

// modeBindings are the keys of the server's mode.
func (s *serverState) modeBindings() []key.Binding {
	if f := s.screen().bindings; f != nil {
		return f()
	}
	return nil
}

// body is what the server's mode draws in h lines.
func (s *serverState) body(h int) string {
	if f := s.screen().body; f != nil {
		return f(h)
	}
	return ""
}

// prepareFrame lays out what the server's mode draws next.
func (s *serverState) prepareFrame() {
	if f := s.screen().frame; f != nil {
		f()
	}
}

// busy reports whether something on screen waits with a spinner.
func (s *serverState) busy() bool {
	if f := s.screen().busy; f != nil && f() {
		return true
	}
	return s.auditing()
}
