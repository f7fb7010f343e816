package overlays

import (
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/style"
)

// monoStyles draw without colour; plainStyles emit no escape sequences at all.
var monoStyles = style.NewStyles(theme.Dark(), true)

func plainStyles() *style.Styles { return &style.Styles{NoColor: true} }
