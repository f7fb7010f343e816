package form

import "github.com/mcpsh/mcpsh/ui/internal/uitest"

// The shared test helpers (ui/internal/uitest), by the names the form's tests use.
var (
	golden     = uitest.Golden
	assertFits = uitest.AssertFits
	// testTool serves one tool from an in-process server and lists it, as on the wire.
	testTool = uitest.Tool
)
