package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/listing"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

// resourcesState is the resources view: the server's resources and resource
// templates, listed again when the server says they changed.
type resourcesState struct {
	listState
	listing *client.ResourceListing
}

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
	if msg.id != r.req || !s.took(&r.listState, "resources", msg.listing != nil, msg.err, r.listing != nil) {
		return nil
	}
	r.listing = msg.listing
	s.warnAll(msg.listing.Warnings)
	r.list.Set(listRows(listing.Resources(msg.listing), r.stopped))
	return nil
}

// selectedResource is the resource or template under the cursor.
func (s *serverState) selectedResource() (*client.Resource, *client.ResourceTemplate) {
	it, ok := s.resources.list.Selected()
	l := s.resources.listing
	if !ok || l == nil {
		return nil, nil
	}
	if it.Kind == listing.Template && it.Index < len(l.Templates) {
		return nil, l.Templates[it.Index]
	}
	if it.Kind == listing.Resource && it.Index < len(l.Resources) {
		return l.Resources[it.Index], nil
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

func (s *serverState) renderResources(h int) string {
	r := &s.resources
	l := r.listing
	return s.renderListing(h, viewResources, "resources", &r.listState, l != nil, l != nil && len(l.Resources)+len(l.Templates) == 0, func() []string {
		switch res, tmpl := s.selectedResource(); {
		case res != nil:
			return resourceDetail(res, s.subscribed[res.URI], s.detailWidth(), s.st)
		case tmpl != nil:
			return templateDetail(tmpl, s.detailWidth(), s.st)
		}
		return nil
	})
}

func resourceDetail(r *client.Resource, subscribed bool, width int, st *style.Styles) []string {
	w := &layout.Lines{Width: max(width, 1)}
	w.Add(st.Title.Render(termtext.Line(r.DisplayName())))
	for _, l := range layout.Wrap(termtext.Line(r.URI), w.Width) {
		w.Add(st.Name.Render(l))
	}
	facts := listing.ResourceFacts(r)
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
	vars, err := listing.Vars(t.URITemplate)
	switch {
	case err != nil:
		w.Wrap("mcpsh cannot read this template: "+termtext.Line(err.Error()), st.Error)
	case len(vars) == 0:
		w.Add(st.Muted.Render("none"))
	}
	for _, v := range vars {
		w.Add(listing.ArgName(v.Name, v.Required))
	}
	w.Blank()
	w.Add(st.Muted.Render("enter fills them in, then reads the resource"))
	return w.Out
}
