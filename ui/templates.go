package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/listing"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/form"
)

// Resource templates are read and expanded by internal/listing, as the
// batch commands read them.

// openTemplate opens the form for a template's variables, filled with
// values when given (editing a read again).
func (s *serverState) openTemplate(t *client.ResourceTemplate, values map[string]string) tea.Cmd {
	vars, err := listing.Vars(t.URITemplate)
	if err != nil {
		s.status = "mcpsh cannot read the template " + termtext.Line(t.URITemplate) + ": " + termtext.Line(err.Error())
		return nil
	}
	specs := make([]form.StringSpec, len(vars))
	for i, v := range vars {
		specs[i] = form.StringSpec{Name: v.Name, Required: v.Required}
	}
	f := form.NewStringForm(specs, client.CompletionRef{URITemplate: t.URITemplate}, s.server.Capabilities.Completions, s.st, s.keys)
	f.Template = t
	return s.openStringForm(f, values)
}

// readTemplate expands the form's template and reads the resource.
func (s *serverState) readTemplate(f *form.StringForm) tea.Cmd {
	uri, err := listing.Expand(f.Template.URITemplate, f.Values())
	if err != nil {
		f.SetErr("the template does not expand: " + termtext.Line(err.Error()))
		return nil
	}
	return s.readResource(f.Template.DisplayName(), uri, f.Template.MIMEType, f)
}
