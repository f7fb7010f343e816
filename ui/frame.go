package ui

import (
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/tooldetail"
)

// View is pure: it draws the model and writes nothing, so drawing twice
// draws the same and a frame never changes what the next key does. What it
// would otherwise work out while drawing (where a list is scrolled, whether
// the confirmation's arguments scroll, the tool detail's lines) is laid out
// here, at the end of every Update, for what is on screen then. The panes
// lay themselves out as their content and size change (ui/scroll).

// prepareFrame lays out what the next View draws. A server brought on
// screen, or a mode or dialog opened, is laid out by the Update that did it.
func (m *Model) prepareFrame() {
	if d := m.top(); d != nil {
		d.layout()
		return
	}
	m.shown().prepareFrame()
}

// layoutBrowse scrolls the list of the view on screen to its cursor; in the
// tools view it also draws the selected tool's detail, and keeps the detail
// scrolled within it.
func (s *serverState) layoutBrowse() {
	h := s.browseHeight()
	switch s.view {
	case viewResources:
		s.resources.list.Layout(s.listHeight(h))
	case viewPrompts:
		s.prompts.list.Layout(s.listHeight(h))
	default:
		s.list.Layout(s.listWidth(), s.listHeight(h))
		dw := s.detailWidth()
		if dw == 0 {
			return
		}
		t := s.list.Selected()
		k := s.detailKey(t, dw)
		if !s.detail.key.equal(k) || s.detail.lines == nil {
			s.detail = detailCache{key: k, lines: strings.Split(tooldetail.Render(t, k.d, s.findingsFor(t), dw, s.st), "\n")}
		}
		s.detailTop = min(s.detailTop, max(len(s.detail.lines)-h, 0))
	}
}

// browseHeight is the room under the bar of views.
func (s *serverState) browseHeight() int { return max(s.bodyHeight()-1, 1) }

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

func (s *serverState) detailKey(t *client.Tool, width int) detailKey {
	return detailKey{tool: t, d: s.decision(t), gen: s.listGen, width: width, theme: s.st.Generation()}
}

// toolDetail is t's detail for width cells: the lines Update drew, or, when
// they were drawn for something else, drawn now and not kept.
func (s *serverState) toolDetail(t *client.Tool, width int) []string {
	k := s.detailKey(t, width)
	if s.detail.key.equal(k) && s.detail.lines != nil {
		return s.detail.lines
	}
	f, _ := s.findings(t)
	return strings.Split(tooldetail.Render(t, k.d, f, width, s.st), "\n")
}
