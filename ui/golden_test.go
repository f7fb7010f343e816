package ui

import "github.com/mcpsh/mcpsh/ui/internal/uitest"

// The shared test helpers (ui/internal/uitest), by the names ui's tests use.
var (
	golden             = uitest.Golden
	assertFits         = uitest.AssertFits
	assertWidth        = uitest.AssertWidth
	assertTerminalSafe = uitest.AssertTerminalSafe
	assertNoEscapes    = uitest.AssertNoEscapes
	paneText           = uitest.Text
	keyOf              = uitest.Key
	// testSession serves tools from an in-process server, as on the wire.
	testSession = uitest.Session

	textBlock        = uitest.TextBlock
	mediaBlock       = uitest.MediaBlock
	mkResult         = uitest.Result
	withResult       = uitest.WithResult
	baseOutcome      = uitest.BaseOutcome
	okOutcome        = uitest.OKOutcome
	toolErrorOutcome = uitest.ToolErrorOutcome
	failedOutcome    = uitest.FailedOutcome
	refusedOutcome   = uitest.RefusedOutcome
	hostileOutcome   = uitest.HostileOutcome
	logOutcomes      = uitest.LogOutcomes
)
