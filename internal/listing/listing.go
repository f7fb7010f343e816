// Package listing is how a server's resources, resource templates and
// prompts are listed, the same in the batch commands (internal/cli) and the
// interactive view (ui): their groups under counted headings, what
// identifies an item across listings, an argument with the required ones
// marked, what a resource's row says of it, and reading and expanding a
// template (template.go). Each side draws the rows its own way; what is
// here is what they must agree on.
package listing

import (
	"fmt"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// Kind is what an item is.
type Kind int

const (
	Resource Kind = iota
	Template
	Prompt
)

// Item is one row of a listing, in the server's order.
type Item struct {
	Kind  Kind
	Index int    // where it is in its listing
	Title string // its display name
	Name  string // a resource's URI, a template's URI template, a prompt's name
	Desc  string
}

// Key identifies the item across listings. A resource and a template may
// have the same text for a URI, so their kind is part of it.
func (it Item) Key() string {
	switch it.Kind {
	case Resource:
		return "r " + it.Name
	case Template:
		return "t " + it.Name
	}
	return it.Name
}

// Group is the items of one kind under their heading.
type Group struct {
	What  string // "Resources", "Templates", "Prompts"
	Items []Item
}

// Heading names the group with its count; stopped says its listing stopped
// at mcpsh's budget, so more were not listed.
func (g Group) Heading(stopped bool) string {
	mark := ""
	if stopped {
		mark = ", stopped"
	}
	return fmt.Sprintf("%s (%d%s)", g.What, len(g.Items), mark)
}

// Resources groups a resource listing: the resources, under their heading
// even when there are none, then the templates when there are any.
func Resources(l *client.ResourceListing) []Group {
	rs := Group{What: "Resources"}
	for i, r := range l.Resources {
		rs.Items = append(rs.Items, Item{Kind: Resource, Index: i, Title: r.DisplayName(), Name: r.URI, Desc: r.Description})
	}
	groups := []Group{rs}
	if len(l.Templates) > 0 {
		ts := Group{What: "Templates"}
		for i, t := range l.Templates {
			ts.Items = append(ts.Items, Item{Kind: Template, Index: i, Title: t.DisplayName(), Name: t.URITemplate, Desc: t.Description})
		}
		groups = append(groups, ts)
	}
	return groups
}

// Prompts groups a prompt listing: one group.
func Prompts(l *client.PromptListing) []Group {
	g := Group{What: "Prompts"}
	for i, p := range l.Prompts {
		g.Items = append(g.Items, Item{Kind: Prompt, Index: i, Title: p.DisplayName(), Name: p.Name, Desc: p.Description})
	}
	return []Group{g}
}

// ArgName is a prompt's argument or a template's variable as a listing
// names it: one safe line, "*" after a required one.
func ArgName(name string, required bool) string {
	n := termtext.Line(name)
	if required {
		n += "*"
	}
	return n
}

// PromptArgs are the prompt's arguments as ArgName names them, in order.
func PromptArgs(p *client.Prompt) []string {
	as := make([]string, 0, len(p.Arguments))
	for _, a := range p.Arguments {
		as = append(as, ArgName(a.Name, a.Required))
	}
	return as
}

// ResourceFacts are what a listing says of a resource beside its name and
// URI, each one safe line: its type and its size, those it declares.
func ResourceFacts(r *client.Resource) []string {
	var facts []string
	if r.MIMEType != "" {
		facts = append(facts, termtext.Line(r.MIMEType))
	}
	if r.Size > 0 {
		facts = append(facts, client.HumanBytes(int(r.Size)))
	}
	return facts
}

// String is the kind's word, as a piped listing's first column says it.
func (k Kind) String() string {
	switch k {
	case Resource:
		return "resource"
	case Template:
		return "template"
	}
	return "prompt"
}
