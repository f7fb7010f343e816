package ui

import (
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// View is pure: it draws the model and writes nothing, so drawing twice
// draws the same and a frame never changes what the next key does. What it
// would otherwise work out while drawing (where a list is scrolled, whether
// the confirmation's arguments scroll, the tool detail's lines) is laid out
// here, at the end of every Update, for what is on screen then. The panes
// lay themselves out as their content and size change (ui/pane).

// prepareFrame lays out what the next View draws. A server brought on
// screen, or a mode or overlay opened, is laid out by the Update that did it.
func (m *Model) prepareFrame() {
	if m.dialog != nil {
		return // the dialogs lay themselves out (setSize)
	}
	switch m.overlay {
	case overlayHelp:
		m.layoutHelp()
		return
	case overlayNone:
	default:
		return // the panes lay themselves out
	}
	switch m.mode {
	case modeBrowse:
		m.layoutBrowse()
	case modeConfirm:
		m.layoutConfirm()
	case modeArgs:
		if m.strForm != nil {
			m.strForm.Layout()
		}
	}
}

// layoutBrowse scrolls the list of the view on screen to its cursor; in the
// tools view it also draws the selected tool's detail, and keeps the detail
// scrolled within it.
func (m *Model) layoutBrowse() {
	h := m.browseHeight()
	switch m.view {
	case viewResources:
		m.resources.list.Layout(h)
	case viewPrompts:
		m.prompts.list.Layout(h)
	default:
		m.list.Layout(m.listWidth(), m.toolListHeight(h))
		dw := m.detailWidth()
		if dw == 0 {
			return
		}
		t := m.list.Selected()
		k := m.detailKey(t, dw)
		if !m.detail.key.equal(k) || m.detail.lines == nil {
			m.detail = detailCache{key: k, lines: strings.Split(renderDetail(t, k.d, m.findingsFor(t), dw, m.st), "\n")}
		}
		m.detailTop = min(m.detailTop, max(len(m.detail.lines)-h, 0))
	}
}

// browseHeight is the room under the bar of views.
func (m *Model) browseHeight() int { return max(m.bodyHeight()-1, 1) }

// toolListHeight is the tool list's rows in a view h lines high: the
// filter, when there is one, takes a line.
func (m *Model) toolListHeight(h int) int {
	if m.filtering || m.filterIn.Value() != "" {
		h--
	}
	return h
}

// detailCache is the tool detail drawn for the tools view, and what it was
// drawn for: the detail is drawn once per tool, decision, width and theme,
// not on every frame.
type detailCache struct {
	key   detailKey
	lines []string
}

type detailKey struct {
	tool         *client.Tool
	d            policy.Decision
	gen          int // the listing, whose audit found what the detail says
	width, theme int
}

func (k detailKey) equal(o detailKey) bool {
	return k.tool == o.tool && k.d.Equal(o.d) && k.gen == o.gen && k.width == o.width && k.theme == o.theme
}

func (m *Model) detailKey(t *client.Tool, width int) detailKey {
	return detailKey{tool: t, d: m.decision(t), gen: m.listGen, width: width, theme: m.st.Generation()}
}

// toolDetail is t's detail for width cells: the lines Update drew, or, when
// they were drawn for something else, drawn now and not kept.
func (m *Model) toolDetail(t *client.Tool, width int) []string {
	k := m.detailKey(t, width)
	if m.detail.key.equal(k) && m.detail.lines != nil {
		return m.detail.lines
	}
	f, _ := m.findings(t)
	return strings.Split(renderDetail(t, k.d, f, width, m.st), "\n")
}
