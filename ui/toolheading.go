package ui

import (
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/style"
)

// toolHeading is a tool's title then its name, safe to draw; a tool with no
// title of its own (its title is its name) is named once.
func toolHeading(st *style.Styles, t *client.Tool) string {
	name := st.Name.Render(termtext.Line(t.Name))
	if t.Title == "" || t.Title == t.Name {
		return name
	}
	return st.Title.Render(termtext.Line(t.Title)) + "  " + name
}
