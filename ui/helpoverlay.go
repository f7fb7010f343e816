package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// The help overlay (?): every key, by the view it works in, generated from
// the keymap like the footer, so neither can drift from the keys. The
// section for where the user is comes first.

// helpSection is one view's keys; notes are lines of text after them.
type helpSection struct {
	title string
	keys  []key.Binding
	notes []string
}

// helpOverlay is the overlay's lines and where they are scrolled to. They
// are drawn when it opens, and again when the width, the theme or the mode
// (whose section comes first) changes.
type helpOverlay struct {
	body  scroll.Pane
	drawn helpKey
}

// helpKey is what the overlay's lines were drawn for.
type helpKey struct {
	width, theme int
	here         mode
}

// helpPage is how far a page key scrolls the overlay.
const helpPage = 10

// Update scrolls the overlay.
func (h *helpOverlay) Update(msg tea.Msg, keys *keymap.KeyMap) {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		h.body.Scroll(km, keys)
	}
}

// layoutHelp draws the overlay's lines when they were drawn for another
// width, theme or mode, and sizes it for the body (frame.go).
func (m *Model) layoutHelp() {
	m.helpView.layout(m.helpKey(), m.helpSections, m.st, m.shown().bodyHeight())
}

func (m *Model) helpKey() helpKey {
	return helpKey{width: max(m.width, 1), theme: m.st.Generation(), here: m.shown().mode}
}

func (h *helpOverlay) layout(k helpKey, sections func() []helpSection, st *style.Styles, height int) {
	if h.drawn != k || h.body.Lines() == nil {
		h.body.SetLines(helpLines(sections(), st, k.width))
		h.drawn = k
	}
	h.body.SetSize(k.width, max(height-1, 0)) // the title takes a line
	h.body.SetPage(helpPage)
}

// renderHelp draws the overlay in height lines: a title, then the sections.
// Lines drawn for another size or mode are drawn again here, and not kept.
func (m *Model) renderHelp(height int) string {
	h := m.helpView
	if k := m.helpKey(); h.drawn != k || h.body.Height() != max(height-1, 0) {
		h.layout(k, m.helpSections, m.st, height)
	}
	return renderHelpOverlay(&h, m.st, m.keys, m.width, height)
}

// helpLines are the sections drawn for width cells.
func helpLines(sections []helpSection, st *style.Styles, width int) []string {
	keyW := 0
	for _, s := range sections {
		for _, b := range s.keys {
			keyW = max(keyW, ansi.StringWidth(b.Help().Key))
		}
	}
	keyW = min(keyW, 16)
	w := &layout.Lines{Width: max(width, 1)}
	for i, s := range sections {
		if i > 0 {
			w.Blank()
		}
		w.Add(st.Label.Render(s.title))
		for _, b := range s.keys {
			w.Hanging(st.Key.Render(termtext.Pad(b.Help().Key, keyW))+"  ", b.Help().Desc, st.KeyDesc)
		}
		for _, n := range s.notes {
			w.WrapIndented(n, 2, st.Muted)
		}
	}
	return w.Out
}

// renderHelpOverlay draws h, laid out for height lines: a title with where
// it is scrolled to, then the lines on screen.
func renderHelpOverlay(h *helpOverlay, st *style.Styles, keys *keymap.KeyMap, width, height int) string {
	width = max(width, 1)
	body, total, top := h.body.Height(), h.body.Len(), h.body.Top()
	title := st.Title.Render("Keys")
	hint := st.Muted.Render(keys.ScrollUp.Help().Key + " " + keys.ScrollDown.Help().Key + " scroll · " +
		keys.Close.Help().Key + " or " + keys.Help.Help().Key + " close")
	if total > body {
		hint = st.Muted.Render(itoa(top+1)+"–"+itoa(min(top+body, total))+" of "+itoa(total)+" · ") + hint
	}
	head := title
	if l, fits := termtext.Spread(title, hint, width, 2); fits {
		head = l
	}
	out := []string{termtext.Truncate(head, width)}
	out = append(out, h.body.Visible()...)
	return strings.Join(out, "\n")
}

// helpSections are the keymap's keys by view, the current view's first.
func (m *Model) helpSections() []helpSection {
	k := m.keys
	var isWords []string
	for _, f := range isFilters {
		isWords = append(isWords, "is:"+f.word+" — "+f.finds)
	}
	sections := []helpSection{
		{title: "Tool list", keys: []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom,
			keymap.Relabel(k.Call, "call (a tool without arguments runs at once; others open their form)"),
			k.Example, k.Filter, k.ClearFilter, k.DetailDown, k.DetailUp, k.Unallow}},
		{title: "Typing a filter", keys: []key.Binding{k.AcceptFilter, k.CancelFilter, k.RecallFilter},
			notes: append([]string{"/ starts a new filter, in the tools, resources and prompts views alike; ↑ in it, while it is empty, brings back the one it replaced",
				"words match names, titles and descriptions, best matches first; is: keeps tools that are:"}, isWords...)},
		{title: "Views", keys: []key.Binding{k.ViewTools, k.ViewResources, k.ViewPrompts, k.NextView}},
		{title: "Argument editor", keys: []key.Binding{k.NextField, k.PrevField, k.Cycle, k.Newline, k.Run, k.ToggleJSON, k.Examples, k.ExampleN, k.Back}},
		{title: "Example picker", keys: []key.Binding{k.PickExample}},
		{title: "Confirmation", keys: []key.Binding{k.Yes, k.No, k.AllowSession, keymap.Relabel(k.ScrollDown, "scroll the arguments"), keymap.Relabel(k.ScrollUp, "scroll the arguments back")},
			notes: []string{"enter and space do nothing here, so a key typed before the dialog appeared cannot approve it"}},
		{title: "Call in flight", keys: []key.Binding{k.CancelCall}},
		{title: "Result", keys: []key.Binding{k.ScrollUp, k.ScrollDown, k.Edit, k.RawJSON, k.Copy, k.Save,
			keymap.Relabel(k.NextArg, "the next image or blob to save"), k.Close}},
		{title: "Session log", keys: []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom,
			keymap.Relabel(k.OpenEntry, "open a call"), keymap.Relabel(k.ScrollUp, "scroll the call"), keymap.Relabel(k.ScrollDown, "scroll the call"),
			k.FilterStatus, k.OpenWorldOnly, keymap.Relabel(k.Filter, "filter by tool or server"), k.Close}},
		{title: "Resource viewer", keys: []key.Binding{k.ScrollUp, k.ScrollDown, k.Top, k.Bottom, k.Save, k.Subscribe, k.Edit, k.Close}},
		{title: "Saving to a file", keys: []key.Binding{k.SaveHere, k.Overwrite, k.KeepFile}},
		{title: "Template and prompt arguments", keys: []key.Binding{k.NextArg, k.PrevArg, k.SuggestDown, k.SuggestUp, k.PickSuggestion, k.Run, k.Back}},
		{title: "A server's request", keys: []key.Binding{k.Accept, k.Decline, k.Dismiss, k.OpenURL,
			keymap.Relabel(k.AskLater, "later: its requests wait, and the server keys switch meanwhile"),
			keymap.Relabel(k.DeclineAll, "decline all the server's requests"),
			keymap.Relabel(k.MuteAsks, "mute the server: its requests are declined until unmuted (M)")},
			notes: []string{"none of them is a single letter, enter or space: a key typed for another screen, as the request comes up, cannot answer it",
				fmt.Sprintf("a server may have %d requests waiting; more are declined at once, as all are while it is muted", askQueueMax)}},
		{title: "Connecting", keys: []key.Binding{k.Choose, k.Retry, k.Login}},
		{title: "Servers", keys: []key.Binding{k.NextServer, k.PrevServer, k.PickServer, k.Reconnect, k.Mute,
			keymap.Relabel(k.AskLater, "answer the requests put aside")},
			notes: []string{"a bar short of room marks a server ✗ failed, " + overlays.MarkUntrusted + " untrusted, ?N with N requests waiting"}},
		{title: "Anywhere", keys: []key.Binding{k.Help, k.Log, k.Server, k.Traffic, k.Audit, k.Quit, k.ForceQuit}},
	}
	here := map[mode]string{modeBrowse: "Tool list", modeForm: "Argument editor",
		modeRunning: "Call in flight", modeResult: "Result", modeArgs: "Template and prompt arguments",
		modeResource: "Resource viewer", modeConnectFailed: "Connecting"}[m.shown().mode]
	for i, s := range sections {
		if s.title == here {
			s.title += " (here)"
			sections = append([]helpSection{s}, append(sections[:i:i], sections[i+1:]...)...)
			break
		}
	}
	return sections
}
