package ui

import "github.com/mcpsh/mcpsh/ui/internal/uitest"

// The shared test helpers (ui/internal/uitest), by the names ui's tests use.
var (
	golden     = uitest.Golden
	assertFits = uitest.AssertFits
	// testSession serves tools from an in-process server, as on the wire.
	testSession = uitest.Session
)
