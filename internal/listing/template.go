package listing

import (
	"strings"

	"github.com/yosida95/uritemplate/v3"
)

// Resource templates are RFC 6570 URI templates. Expansion is uritemplate's
// (already in the build through go-sdk, which matches templates with it);
// mcpsh reads only which variables a template has and which of them the
// URI needs.

// Var is one variable of a template. Variables in query and fragment
// expressions ({?q}, {&q}, {;q}, {#f}) may be left out; the others make the
// URI's path, so a form asks for them.
type Var struct {
	Name     string
	Required bool
}

// Vars are the template's variables in the order they first appear; the
// error is uritemplate's when the template does not parse.
func Vars(tmpl string) ([]Var, error) {
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
	var vars []Var
	for _, n := range t.Varnames() {
		vars = append(vars, Var{Name: n, Required: !optional[n]})
	}
	return vars, nil
}

// Expand fills the template with values; a variable with no value is left
// out, as RFC 6570 says of undefined ones.
func Expand(tmpl string, values map[string]string) (string, error) {
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
