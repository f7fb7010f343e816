package ui

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/ui/resultview"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/tooldetail"
)

func (s *serverState) untrusted() bool {
	return s.target != nil && s.target.Trust != policy.Trusted
}

// bodyHeight is what is left between the header (the server bar, the
// banner) and the footer.
func (s *serverState) bodyHeight() int {
	h := s.height - 2
	if s.untrusted() {
		h--
	}
	if s.barShown() {
		h--
	}
	return max(h, 1)
}

// Widths of the browse layout: the list takes what its rows need, within
// bounds (toolList.PaneWidth), the detail the rest;
// below 64 columns the detail is hidden.
func (s *serverState) listWidth() int {
	if s.width < 64 {
		return s.width
	}
	return s.list.PaneWidth(s.width)
}

func (s *serverState) detailWidth() int {
	if s.width < 64 {
		return 0
	}
	return s.width - s.listWidth() - 3
}

// formHeaderLines is the height of the form's header: the tool and what
// mcpsh would do with a call to it.
const formHeaderLines = 3

// formHeader names the tool being called and what mcpsh will decide, so the
// user knows before ctrl+r whether a dialog will follow.
func (s *serverState) formHeader() string {
	t := s.form.Tool()
	d := s.decision(t)
	w := &layout.Lines{Width: s.width}
	w.Add(toolHeading(s.st, t) + "  " +
		s.st.ClassStyle(t.Class()).Render(string(t.Class())))
	verdict := map[policy.Verdict]string{policy.Run: "ctrl+r runs it", policy.Ask: "ctrl+r asks first", policy.Refuse: "ctrl+r will be refused"}[d.Verdict]
	w.Add(tooldetail.DecisionStyle(s.st, d).Render(termtext.Truncate(verdict+": "+d.Reason, s.width)))
	w.Add(s.st.Muted.Render(strings.Repeat("─", s.width)))
	return strings.Join(w.Out, "\n")
}

// layout tells the components their sizes after a resize or a mode change.
func (s *serverState) layout() {
	h := s.bodyHeight()
	if s.form != nil {
		s.form.SetSize(s.width, max(h-formHeaderLines, 1))
	}
	s.result.SetSize(s.width, h)
	s.serverPane.SetSize(s.width, h)
	s.auditPane.SetSize(s.width, h)
	s.traffic.SetSize(s.width, h)
	s.filterIn.SetWidth(max(s.listWidth()-4, 10))
	if s.strForm != nil {
		s.strForm.SetSize(s.width, max(h-stringFormHeaderLines, 1))
	}
	if s.reader != nil {
		rh := h
		if s.saving != nil {
			rh -= resultview.SaveLines
		}
		s.reader.SetSize(s.width, max(rh, 1))
	}
	if s.saving != nil {
		s.saving.SetWidth(s.width)
	}
	if s.promptOut != nil {
		s.promptOut.SetSize(s.width, h)
	}
	if d := s.asking(); d != nil {
		d.setSize(s.width, s.dialogHeight())
	}
	s.laid = [2]int{s.width, h}
}

// serverLabel is the server's name as the user knows it (its configured
// name, or the command or URL it was given as), safe to draw: never the
// name the server reports, which any server can make another's.
func (s *serverState) serverLabel() string { return termtext.Line(s.name()) }

// reported is what the server on screen reported itself as, when that is
// another name than the user's, safe to draw: shown only as such.
func (s *serverState) reported() string {
	if s.session == nil || termtext.Line(s.server.Name) == s.serverLabel() {
		return ""
	}
	return s.server.Reported()
}

// header names the server on screen (as the user knows it, then what it
// reports itself as), how it is reached and the protocol on the left, its
// tools and this session's calls to it on the right. When it does not fit,
// what the server reports itself as is left out, then how it is reached is
// cut, then left out, then the counts of calls, then the protocol; the
// server's name is cut last, and the tool count always stays.
func (s *serverState) header() string {
	w := s.screenW
	dim := s.st.HeaderDim.Render
	brand := s.st.Header.Render("mcpsh")
	name, rep, via, proto := "", "", "", ""
	switch {
	case s.target != nil:
		name = dim(" · ") + s.serverLabel()
		via = termtext.Line(s.target.Via())
	case s.spec.Name != "":
		name = dim(" · ") + termtext.Line(s.spec.Name)
	}
	switch r := s.reported(); {
	case r != "":
		rep = dim(" · reports itself as ") + r
	case s.session != nil && s.server.Version != "":
		name += " " + termtext.Truncate(termtext.Line(s.server.Version), 20) // its own name: the version is all it adds
	}
	if s.session != nil && s.server.Protocol != "" {
		proto = dim(" · MCP " + termtext.Line(s.server.Protocol))
	}
	tools, calls := "", ""
	if s.session != nil {
		tools = units.Plural(len(s.list.tools), "tool")
		if s.ended != "" {
			tools = s.st.Error.Render("✗ ended") // its tools are not there to call
		}
		if n := len(s.outcomes); n > 0 {
			calls = " · " + units.Plural(n, "call")
		}
		if n := s.openWorldCalls(); n > 0 {
			calls += " · " + s.st.MarkOpenWorld.Render(fmt.Sprintf("%s %d open-world", overlays.MarkOpenWorld, n))
		}
	}
	line := func(left, right string) (string, bool) { return termtext.Spread(left, right, w, 1) }
	// withVia is left, then how the server is reached, cut to the room
	// left, when that is enough to read.
	withVia := func(left string) (string, bool) {
		room := w - ansi.StringWidth(left+proto) - ansi.StringWidth(tools+calls) - len(" · ") - 1
		if via == "" || room < min(ansi.StringWidth(via), 12) {
			return "", false
		}
		return line(left+dim(" · "+termtext.Truncate(via, room))+proto, tools+calls)
	}
	for _, try := range []func() (string, bool){
		func() (string, bool) { return withVia(brand + name + rep) },
		func() (string, bool) { return withVia(brand + name) },
		func() (string, bool) { return line(brand+name+rep+proto, tools+calls) },
	} {
		if l, ok := try(); ok {
			return l
		}
	}
	for _, try := range [][2]string{{proto, calls}, {proto, ""}, {"", ""}} {
		if l, ok := line(brand+name+try[0], tools+try[1]); ok {
			return l
		}
	}
	// The name is cut to leave the tool count its room.
	room := w - ansi.StringWidth(brand) - ansi.StringWidth(tools) - 1
	if room < 4 {
		return termtext.Truncate(brand+name, w)
	}
	l, _ := line(brand+termtext.Truncate(name, room), tools)
	return l
}

func (s *serverState) openWorldCalls() int {
	n := 0
	for _, o := range s.outcomes {
		if o.OpenWorld {
			n++
		}
	}
	return n
}

// renderDialog draws the dialog of a server's request over the screen, with
// a line saying what goes on under it (a call runs on until it is answered)
// and how many more requests wait.
func (s *serverState) renderDialog(h int) string {
	var top []string
	if s.displaced != "" {
		top = append(top, s.st.Warning.Render(termtext.Truncate("on screen while it asks, instead of "+termtext.Line(s.displaced)+": the view goes back once you answer", s.width)))
	}
	if r := s.running; r != nil {
		top = append(top, s.st.Muted.Render(fmt.Sprintf("%s %s runs on under this request (%s)", s.spinner.View(), termtext.Line(r.call.Tool.Name), units.Duration(s.now().Sub(r.started)))))
	}
	if line := s.queueLine(); line != "" {
		top = append(top, s.st.Muted.Render(termtext.Truncate(line, s.width)))
	}
	out := append(top, layout.FitLines(s.asking().view(), s.width, max(h-len(top), 0))...)
	return strings.Join(out, "\n")
}

// dialogHeight is the room the dialog has under its lines about the screen.
func (s *serverState) dialogHeight() int {
	h := s.bodyHeight()
	if s.displaced != "" {
		h--
	}
	if s.running != nil {
		h--
	}
	if s.queueLine() != "" {
		h--
	}
	return max(h, 1)
}

// queueLine says how many more of the server's requests wait, and how many
// were declined at once; "" when neither.
func (s *serverState) queueLine() string {
	var parts []string
	if n := len(s.asks) - 1; n > 0 {
		parts = append(parts, units.Plural(n, "more request")+" wait after this one")
	}
	if s.declined > 0 {
		parts = append(parts, fmt.Sprintf("%d declined at once (at most %d wait)", s.declined, askQueueMax))
	}
	return strings.Join(parts, " · ")
}

// renderTools is the tools view: the list by class, the selected tool's detail.
func (s *serverState) renderTools(h int) string {
	lw := s.listWidth()
	left := append(s.filterLine(lw), strings.Split(s.list.View(s.st, lw, s.listHeight(h)), "\n")...)
	dw := s.detailWidth()
	if dw == 0 {
		return s.renderSplit(left, nil, h)
	}
	detail := s.toolDetail(s.list.Selected(), dw)
	top := min(s.detailTop, max(len(detail)-h, 0))
	return s.renderSplit(left, detail[top:], h)
}

func (s *serverState) renderConnectFailed() string {
	w := &layout.Lines{Width: s.width}
	if s.unusable() {
		w.Add(s.st.Error.Render(termtext.Line(s.name()) + " cannot be used as configured"))
		w.Blank()
		w.Wrap(termtext.Sanitize(s.spec.Problem), s.st.Row)
		return strings.Join(w.Out, "\n")
	}
	w.Add(s.st.Error.Render("could not connect"))
	w.Blank()
	if s.connErr != nil {
		w.Wrap(termtext.Sanitize(s.connErr.Error()), s.st.Row)
	}
	if hint := s.loginHint(); hint != "" {
		w.Blank()
		w.Wrap(hint, s.st.Row)
	}
	return strings.Join(w.Out, "\n")
}
