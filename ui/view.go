package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/panes"
)

// View draws the whole screen: a header, the server bar in a workspace, the
// untrusted banner when it applies, the body for the current mode or overlay
// (beside the server sidebar on wide terminals), and a footer with the keys
// that work right now. Every line is cut to the width; there are exactly
// height lines.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "mcpsh"
	if m.session != nil {
		v.WindowTitle = "mcpsh · " + m.serverLabel()
	}
	return v
}

func (m *Model) render() string {
	var out []string
	out = append(out, m.header())
	if m.barShown() {
		out = append(out, m.serverBar())
	}
	if m.untrusted() {
		out = append(out, m.st.Banner.Render(termtext.Truncate(" untrusted server: its hints are shown but not believed; every call asks first ", m.screenW)))
	}
	h := m.bodyHeight()
	body := layout.FitLines(m.body(h), m.width, h)
	if m.sidebarShown() {
		body = m.withSidebar(body, h)
	}
	out = append(out, body...)
	out = append(out, m.footerLine())
	return strings.Join(out, "\n")
}

// footerLine is the footer; the workspace's own overlays give their keys
// from the same keymap, drawn the same way.
func (m *Model) footerLine() string {
	if m.status == "" && m.dialog == nil {
		var b []key.Binding
		switch m.overlay {
		case overlayTraffic:
			b = m.trafficBindings()
		case overlayServers:
			b = []key.Binding{m.keys.SuggestUp, m.keys.SuggestDown, keymap.Relabel(m.keys.Choose, "switch"), m.keys.Close}
		}
		if b != nil {
			return m.footerKeys(b)
		}
	}
	return m.footer()
}

func (m *Model) untrusted() bool {
	return m.target != nil && m.target.Trust != policy.Trusted
}

// bodyHeight is what is left between the header (the server bar, the
// banner) and the footer.
func (m *Model) bodyHeight() int {
	h := m.height - 2
	if m.untrusted() {
		h--
	}
	if m.barShown() {
		h--
	}
	return max(h, 1)
}

// Widths of the browse layout: the list takes two fifths, the detail the rest;
// below 64 columns the detail is hidden.
func (m *Model) listWidth() int {
	if m.width < 64 {
		return m.width
	}
	return m.list.PaneWidth(m.width)
}

func (m *Model) detailWidth() int {
	if m.width < 64 {
		return 0
	}
	return m.width - m.listWidth() - 3
}

// formHeaderLines is the height of the form's header: the tool and what
// mcpsh would do with a call to it.
const formHeaderLines = 3

// formHeader names the tool being called and what mcpsh will decide, so the
// user knows before ctrl+r whether a dialog will follow.
func (m *Model) formHeader() string {
	t := m.form.Tool()
	d := m.decision(t)
	w := &layout.Lines{Width: m.width}
	w.Add(toolHeading(m.st, t) + "  " +
		m.st.ClassStyle(t.Class()).Render(string(t.Class())))
	verdict := map[policy.Verdict]string{policy.Run: "ctrl+r runs it", policy.Ask: "ctrl+r asks first", policy.Refuse: "ctrl+r will be refused"}[d.Verdict]
	w.Add(decisionStyle(m.st, d).Render(termtext.Truncate(verdict+": "+d.Reason, m.width)))
	w.Add(m.st.Muted.Render(strings.Repeat("─", m.width)))
	return strings.Join(w.Out, "\n")
}

// layout tells the components their sizes after a resize or a mode change.
func (m *Model) layout() {
	h := m.bodyHeight()
	if m.form != nil {
		m.form.SetSize(m.width, max(h-formHeaderLines, 1))
	}
	m.result.SetSize(m.width, h)
	if m.onScreen() {
		m.layoutShared()
	}
	m.serverPane.SetSize(m.width, h)
	m.auditPane.SetSize(m.width, h)
	m.traffic.SetSize(m.width, h)
	m.filterIn.SetWidth(max(m.listWidth()-4, 10))
	if m.strForm != nil {
		m.strForm.SetSize(m.width, max(h-stringFormHeaderLines, 1))
	}
	if m.reader != nil {
		rh := h
		if m.saving != nil {
			rh -= saveLinesN
		}
		m.reader.SetSize(m.width, max(rh, 1))
	}
	if m.saving != nil {
		m.saving.in.SetWidth(max(m.width-len(m.saving.in.Prompt)-2, 8))
	}
	if m.promptOut != nil {
		m.promptOut.SetSize(m.width, h)
	}
	if m.dialog != nil {
		m.dialog.setSize(m.width, m.dialogHeight())
	}
	m.laid = [2]int{m.width, h}
}

// layoutShared sizes what every server shares (the session log's pane, the
// help) for the server on screen: its body is a line shorter when its
// untrusted banner shows, and a server laid out in the background must not
// size them for itself.
func (m *Model) layoutShared() {
	m.logPane.SetSize(m.width, m.bodyHeight())
	m.help.SetWidth(m.width)
}

// onScreen reports whether the server being handled is the one on screen
// (within runs another's answers with it in place).
func (m *Model) onScreen() bool {
	return len(m.servers) == 0 || m.serverState == m.servers[m.cur]
}

// serverLabel is the server's name as the user knows it (its configured
// name, or the command or URL it was given as), safe to draw: never the
// name the server reports, which any server can make another's.
func (m *Model) serverLabel() string { return termtext.Line(m.name()) }

// reported is what the server on screen reported itself as, when that is
// another name than the user's, safe to draw: shown only as such.
func (m *Model) reported() string {
	if m.session == nil || termtext.Line(m.server.Name) == m.serverLabel() {
		return ""
	}
	return m.server.Reported()
}

// header names the server on screen (as the user knows it, then what it
// reports itself as), how it is reached and the protocol on the left, its
// tools and this session's calls to it on the right. When it does not fit,
// what the server reports itself as is left out, then how it is reached is
// cut, then left out, then the counts of calls, then the protocol; the
// server's name is cut last, and the tool count always stays.
func (m *Model) header() string {
	w := m.screenW
	dim := m.st.HeaderDim.Render
	brand := m.st.Header.Render("mcpsh")
	name, rep, via, proto := "", "", "", ""
	switch {
	case m.target != nil:
		name = dim(" · ") + m.serverLabel()
		via = termtext.Line(m.target.Via())
	case m.spec.Name != "":
		name = dim(" · ") + termtext.Line(m.spec.Name)
	}
	switch r := m.reported(); {
	case r != "":
		rep = dim(" · reports itself as ") + r
	case m.session != nil && m.server.Version != "":
		name += " " + termtext.Truncate(termtext.Line(m.server.Version), 20) // its own name: the version is all it adds
	}
	if m.session != nil && m.server.Protocol != "" {
		proto = dim(" · MCP " + termtext.Line(m.server.Protocol))
	}
	tools, calls := "", ""
	if m.session != nil {
		tools = fmt.Sprintf("%d tools", len(m.list.tools))
		if n := len(m.outcomes); n > 0 {
			calls = fmt.Sprintf(" · %d call%s", n, layout.Plural(n))
		}
		if n := m.openWorldCalls(); n > 0 {
			calls += " · " + m.st.MarkOpenWorld.Render(fmt.Sprintf("%s %d open-world", panes.MarkOpenWorld, n))
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

func (m *Model) openWorldCalls() int {
	n := 0
	for _, o := range m.outcomes {
		if o.OpenWorld {
			n++
		}
	}
	return n
}

func (m *Model) footer() string {
	if m.status != "" {
		return m.st.Warning.Render(termtext.Truncate(m.status, m.width))
	}
	return m.footerKeys(m.bindings())
}

func (m *Model) body(h int) string {
	if m.dialog != nil {
		return m.renderDialog(h)
	}
	switch m.overlay {
	case overlayHelp:
		return m.renderHelp(h)
	case overlayTraffic:
		return m.traffic.View(m.name())
	case overlayServers:
		return m.renderPick(h)
	case overlayLog:
		return m.logPane.View()
	case overlayServer:
		return m.serverPane.View()
	case overlayAudit:
		return m.auditPane.View(m.spinner.View())
	}
	switch m.mode {
	case modeConnecting:
		return fmt.Sprintf("\n  %s connecting to %s…", m.spinner.View(), termtext.Line(m.target.Label()))
	case modeConnectFailed:
		return m.renderConnectFailed()
	case modeBrowse:
		return m.renderBrowse(h)
	case modeForm:
		return m.formHeader() + "\n" + m.form.View()
	case modeConfirm:
		return m.renderConfirmBody(h)
	case modeRunning:
		return renderRunning(m.running, m.spinner.View(), m.now(), m.bar, m.width, m.st, m.keys)
	case modeResult:
		return m.result.View()
	case modeArgs:
		return m.stringFormHeader() + "\n" + m.strForm.View()
	case modeResource:
		out := m.reader.View(m.spinner.View())
		if m.saving != nil {
			out = strings.Join(layout.FitLines(out, m.width, max(h-saveLinesN, 0)), "\n") + "\n" + strings.Join(m.saveLines(), "\n")
		}
		return out
	case modePrompt:
		return m.promptOut.View(m.spinner.View())
	case modeLogin:
		return m.renderLogin()
	}
	return ""
}

// renderDialog draws the dialog of a server's request over the screen, with
// a line saying what goes on under it (a call runs on until it is answered)
// and how many more requests wait.
func (m *Model) renderDialog(h int) string {
	var top []string
	if r := m.askReturn; r != nil && r != m.serverState {
		top = append(top, m.st.Warning.Render(termtext.Truncate("on screen while it asks, instead of "+termtext.Line(r.name())+": the view goes back once you answer", m.width)))
	}
	if r := m.running; r != nil {
		top = append(top, m.st.Muted.Render(fmt.Sprintf("%s %s runs on under this request (%s)", m.spinner.View(), termtext.Line(r.call.Tool.Name), panes.FormatDuration(m.now().Sub(r.started)))))
	}
	if line := m.queueLine(); line != "" {
		top = append(top, m.st.Muted.Render(termtext.Truncate(line, m.width)))
	}
	out := append(top, layout.FitLines(m.dialog.view(), m.width, max(h-len(top), 0))...)
	return strings.Join(out, "\n")
}

// dialogHeight is the room the dialog has under its lines about the screen.
func (m *Model) dialogHeight() int {
	h := m.bodyHeight()
	if r := m.askReturn; r != nil && r != m.serverState {
		h--
	}
	if m.running != nil {
		h--
	}
	if m.queueLine() != "" {
		h--
	}
	return max(h, 1)
}

// queueLine says how many more of the server's requests wait, and how many
// were declined at once; "" when neither.
func (m *Model) queueLine() string {
	var parts []string
	if n := len(m.asks) - 1; n > 0 {
		parts = append(parts, fmt.Sprintf("%d more request%s wait after this one", n, layout.Plural(n)))
	}
	if m.declined > 0 {
		parts = append(parts, fmt.Sprintf("%d declined at once (at most %d wait)", m.declined, askQueueMax))
	}
	return strings.Join(parts, " · ")
}

// renderTools is the tools view: the list by class, the selected tool's detail.
func (m *Model) renderTools(h int) string {
	lw := m.listWidth()
	var left []string
	if m.filtering || m.filterIn.Value() != "" {
		top := m.filterIn.View()
		if !m.filtering {
			top = m.st.Filter.Render("/ "+termtext.Line(m.filterIn.Value())) + m.st.Muted.Render(fmt.Sprintf("  %d of %d", m.list.Visible(), len(m.list.tools)))
		}
		left = append(left, termtext.Truncate(top, lw))
	}
	left = append(left, strings.Split(m.list.View(m.st, lw, m.toolListHeight(h)), "\n")...)
	dw := m.detailWidth()
	if dw == 0 {
		return m.renderSplit(left, nil, h)
	}
	detail := m.toolDetail(m.list.Selected(), dw)
	top := min(m.detailTop, max(len(detail)-h, 0))
	return m.renderSplit(left, detail[top:], h)
}

func (m *Model) renderConnectFailed() string {
	w := &layout.Lines{Width: m.width}
	if m.unusable() {
		w.Add(m.st.Error.Render(termtext.Line(m.name()) + " cannot be used as configured"))
		w.Blank()
		w.Wrap(termtext.Sanitize(m.spec.Problem), m.st.Row)
		return strings.Join(w.Out, "\n")
	}
	w.Add(m.st.Error.Render("could not connect"))
	w.Blank()
	if m.connErr != nil {
		w.Wrap(termtext.Sanitize(m.connErr.Error()), m.st.Row)
	}
	if hint := m.loginHint(); hint != "" {
		w.Blank()
		w.Wrap(hint, m.st.Row)
	}
	return strings.Join(w.Out, "\n")
}
