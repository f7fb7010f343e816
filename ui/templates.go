package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/yosida95/uritemplate/v3"
)

// Resource templates are RFC 6570 URI templates. Expansion is uritemplate's
// (already in the build through go-sdk, which matches templates with it);
// mcpsh reads only which variables a template has and which of them the
// URI needs.

// templateVar is one variable of a template. Variables in query and fragment
// expressions ({?q}, {&q}, {;q}, {#f}) may be left out; the others make the
// URI's path, so the form asks for them.
type templateVar struct {
	name     string
	required bool
}

func templateVars(tmpl string) ([]templateVar, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return nil, err
	}
	optional := map[string]bool{}
	rest := tmpl
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			break
		}
		expr := rest[i+1 : i+j]
		rest = rest[i+j+1:]
		if expr == "" || !strings.ContainsRune("?&;#", rune(expr[0])) {
			continue
		}
		for _, spec := range strings.Split(expr[1:], ",") {
			name, _, _ := strings.Cut(strings.TrimSuffix(spec, "*"), ":")
			optional[name] = true
		}
	}
	var vars []templateVar
	for _, n := range t.Varnames() {
		vars = append(vars, templateVar{name: n, required: !optional[n]})
	}
	return vars, nil
}

// expandTemplate fills the template with values; a variable with no value
// is left out, as RFC 6570 says of undefined ones.
func expandTemplate(tmpl string, values map[string]string) (string, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return "", err
	}
	vs := uritemplate.Values{}
	for k, v := range values {
		vs.Set(k, uritemplate.String(v))
	}
	return t.Expand(vs)
}

// openTemplate opens the form for a template's variables, filled with
// values when given (editing a read again).
func (s *serverState) openTemplate(t *client.ResourceTemplate, values map[string]string) tea.Cmd {
	vars, err := templateVars(t.URITemplate)
	if err != nil {
		s.status = "mcpsh cannot read the template " + termtext.Line(t.URITemplate) + ": " + termtext.Line(err.Error())
		return nil
	}
	specs := make([]form.StringSpec, len(vars))
	for i, v := range vars {
		specs[i] = form.StringSpec{Name: v.name, Required: v.required}
	}
	f := form.NewStringForm(specs, client.CompletionRef{URITemplate: t.URITemplate}, s.server.Capabilities.Completions, s.st, s.keys)
	f.Template = t
	return s.openStringForm(f, values)
}

// readTemplate expands the form's template and reads the resource.
func (s *serverState) readTemplate(f *form.StringForm) tea.Cmd {
	uri, err := expandTemplate(f.Template.URITemplate, f.Values())
	if err != nil {
		f.SetErr("the template does not expand: " + termtext.Line(err.Error()))
		return nil
	}
	return s.readResource(f.Template.DisplayName(), uri, f.Template.MIMEType, f)
}
