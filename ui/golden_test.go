package ui

import "github.com/mcpsh/mcpsh/ui/internal/uitest"

// The shared test helpers (ui/internal/uitest), by the names ui's tests use.
var (
	golden      = uitest.Golden
	assertFits  = uitest.AssertFits
	assertWidth = uitest.AssertWidth
	paneText    = uitest.Text
	keyOf       = uitest.Key
	// testSession serves tools from an in-process server, as on the wire.
	testSession = uitest.Session

	mediaBlock       = uitest.MediaBlock
	okOutcome        = uitest.OKOutcome
	toolErrorOutcome = uitest.ToolErrorOutcome
	refusedOutcome   = uitest.RefusedOutcome
	logOutcomes      = uitest.LogOutcomes
)
