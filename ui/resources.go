package ui

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// resourcesState is the resources view: the server's resources and resource
// templates, listed again when the server says they changed.
type resourcesState struct {
	listing *client.ResourceListing
	stopped bool // the listing stopped at mcpsh's budget: more were not listed
	err     string
	req     int // the listing in flight
	list    itemList
}

// What a row of the resources and prompts lists is.
const (
	itemResource = iota
	itemTemplate
	itemPrompt
)

// listResources asks for the listing, when the server offers resources.
func (s *serverState) listResources() tea.Cmd {
	if s.session == nil || !s.offers(viewResources) {
		return nil
	}
	s.resources.req = s.nextID()
	return s.cmd(listResourcesCmd(s.ctx, s.resources.req, s.session))
}

func (s *serverState) onResourcesListed(msg resourcesListedMsg) tea.Cmd {
	r := &s.resources
	if msg.id != r.req {
		return nil
	}
	if msg.err != nil && !s.partial(msg.err, msg.listing != nil) {
		r.err = termtext.Line(msg.err.Error())
		if r.listing != nil {
			s.status = "listing the resources again failed: " + r.err
		}
		return nil
	}
	r.err, r.listing, r.stopped = "", msg.listing, msg.err != nil
	s.warnAll(msg.listing.Warnings)
	var rows []listItem
	rows = append(rows, listItem{heading: fmt.Sprintf("Resources (%d%s)", len(msg.listing.Resources), stoppedMark(r.stopped))})
	for i, res := range msg.listing.Resources {
		rows = append(rows, listItem{key: "r " + res.URI, title: res.DisplayName(), name: res.URI, desc: res.Description, kind: itemResource, index: i})
	}
	if len(msg.listing.Templates) > 0 {
		rows = append(rows, listItem{heading: fmt.Sprintf("Templates (%d)", len(msg.listing.Templates))})
	}
	for i, t := range msg.listing.Templates {
		rows = append(rows, listItem{key: "t " + t.URITemplate, title: t.DisplayName(), name: t.URITemplate, desc: t.Description, kind: itemTemplate, index: i})
	}
	r.list.Set(rows)
	return nil
}

// partial reports a listing that stopped at mcpsh's budget for one listing
// and kept what came before (got): that much is shown, as the commands
// print it, and the error is said as a notice, in the status line and the
// server pane.
func (s *serverState) partial(err error, got bool) bool {
	var le *client.ListLimitError
	if !got || !errors.As(err, &le) || !le.Partial {
		return false
	}
	text := termtext.Line(err.Error())
	s.status = text
	s.serverPane.Append(client.Event{Kind: client.EventWarning, Time: s.now(), Text: text})
	return true
}

// stoppedMark is what a list's heading adds when its listing stopped short.
func stoppedMark(stopped bool) string {
	if stopped {
		return ", stopped"
	}
	return ""
}

// noneCame is what an empty list says: that the server lists none, or that
// its listing stopped before any came.
func (s *serverState) noneCame(stopped bool, what string) string {
	if stopped {
		return "\n  " + s.st.Warning.Render("the listing stopped at mcpsh's limit before any "+what+" came: S says why")
	}
	return "\n  " + s.st.Muted.Render("the server lists no "+what)
}

// warnAll puts the client's warnings about a listing in the server pane.
func (s *serverState) warnAll(warnings []string) {
	for _, w := range warnings {
		s.serverPane.Append(client.Event{Kind: client.EventWarning, Time: s.now(), Text: w})
	}
}

// selectedResource is the resource or template under the cursor.
func (s *serverState) selectedResource() (*client.Resource, *client.ResourceTemplate) {
	it, ok := s.resources.list.Selected()
	l := s.resources.listing
	if !ok || l == nil {
		return nil, nil
	}
	if it.kind == itemTemplate && it.index < len(l.Templates) {
		return nil, l.Templates[it.index]
	}
	if it.kind == itemResource && it.index < len(l.Resources) {
		return l.Resources[it.index], nil
	}
	return nil, nil
}

func (s *serverState) onResourcesKey(msg tea.KeyPressMsg) tea.Cmd {
	if moveList(&s.resources.list, s.keys, msg, s.bodyHeight()-3) {
		return nil
	}
	if key.Matches(msg, s.keys.Call) {
		switch res, tmpl := s.selectedResource(); {
		case res != nil:
			return s.readResource(res.DisplayName(), res.URI, res.MIMEType, nil)
		case tmpl != nil:
			return s.openTemplate(tmpl, nil)
		}
	}
	return nil
}

// moveList applies the list movement keys; it reports whether msg was one.
func moveList(l *itemList, k *keymap.KeyMap, msg tea.KeyPressMsg, page int) bool {
	n, ok := scroll.CursorMove(msg, k, max(page, 1), len(l.rows))
	if ok {
		l.Move(n)
	}
	return ok
}

func (s *serverState) renderResources(h int) string {
	r := &s.resources
	switch {
	case !s.offers(viewResources):
		return strings.Join(s.notOffered("resources", "resources"), "\n")
	case r.listing == nil && r.err != "":
		return strings.Join(s.problem("listing the resources failed", r.err), "\n")
	case r.listing == nil:
		return "\n  " + s.st.Muted.Render("listing the resources…")
	case len(r.listing.Resources)+len(r.listing.Templates) == 0:
		return s.noneCame(r.stopped, "resources")
	}
	left := append(s.filterLine(s.listWidth()), strings.Split(r.list.View(s.st, s.listWidth(), s.listHeight(h)), "\n")...)
	var detail []string
	switch res, tmpl := s.selectedResource(); {
	case res != nil:
		detail = resourceDetail(res, s.subscribed[res.URI], s.detailWidth(), s.st)
	case tmpl != nil:
		detail = templateDetail(tmpl, s.detailWidth(), s.st)
	}
	return s.renderSplit(left, detail, h)
}

// problem is a failure drawn in a view: what failed, then why, wrapped.
func (s *serverState) problem(what, why string) []string {
	w := &layout.Lines{Width: max(s.width, 1)}
	w.Blank()
	w.Add(s.st.Error.Render(what))
	w.Wrap(why, s.st.Row)
	return w.Out
}

func resourceDetail(r *client.Resource, subscribed bool, width int, st *style.Styles) []string {
	w := &layout.Lines{Width: max(width, 1)}
	w.Add(st.Title.Render(termtext.Line(r.DisplayName())))
	for _, l := range layout.Wrap(termtext.Line(r.URI), w.Width) {
		w.Add(st.Name.Render(l))
	}
	var facts []string
	if r.MIMEType != "" {
		facts = append(facts, termtext.Line(r.MIMEType))
	}
	if r.Size > 0 {
		facts = append(facts, client.HumanBytes(int(r.Size)))
	}
	if subscribed {
		facts = append(facts, "following its updates")
	}
	if r.Name != "" && r.Title != "" && r.Name != r.Title {
		facts = append(facts, "name "+termtext.Line(r.Name))
	}
	if len(facts) > 0 {
		w.Wrap(strings.Join(facts, " · "), st.Muted)
	}
	if d := termtext.Sanitize(r.Description); d != "" {
		w.Blank()
		w.Wrap(d, st.Row)
	}
	w.Blank()
	w.Add(st.Muted.Render("enter reads it"))
	return w.Out
}

func templateDetail(t *client.ResourceTemplate, width int, st *style.Styles) []string {
	w := &layout.Lines{Width: max(width, 1)}
	w.Add(st.Title.Render(termtext.Line(t.DisplayName())) + "  " + st.Label.Render("template"))
	for _, l := range layout.Wrap(termtext.Line(t.URITemplate), w.Width) {
		w.Add(st.Name.Render(l))
	}
	if t.MIMEType != "" {
		w.Add(st.Muted.Render(termtext.Line(t.MIMEType)))
	}
	if d := termtext.Sanitize(t.Description); d != "" {
		w.Blank()
		w.Wrap(d, st.Row)
	}
	w.Section(st, "Variables")
	vars, err := templateVars(t.URITemplate)
	switch {
	case err != nil:
		w.Wrap("mcpsh cannot read this template: "+termtext.Line(err.Error()), st.Error)
	case len(vars) == 0:
		w.Add(st.Muted.Render("none"))
	}
	for _, v := range vars {
		name := termtext.Line(v.name)
		if v.required {
			name += "*"
		}
		w.Add(name)
	}
	w.Blank()
	w.Add(st.Muted.Render("enter fills them in, then reads the resource"))
	return w.Out
}
