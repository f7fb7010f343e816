package resultview

import (
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
)

// The shared test helpers (ui/internal/uitest), by the names the tests use.
var (
	golden             = uitest.Golden
	assertWidth        = uitest.AssertWidth
	assertTerminalSafe = uitest.AssertTerminalSafe
	assertNoEscapes    = uitest.AssertNoEscapes
	textBlock          = uitest.TextBlock
	mkResult           = uitest.Result
	withResult         = uitest.WithResult
	baseOutcome        = uitest.BaseOutcome
	okOutcome          = uitest.OKOutcome
	toolErrorOutcome   = uitest.ToolErrorOutcome
	failedOutcome      = uitest.FailedOutcome
	refusedOutcome     = uitest.RefusedOutcome
	hostileOutcome     = uitest.HostileOutcome
)

// unrouted hands a command on as it is: the view is tested alone.
func unrouted(c tea.Cmd) tea.Cmd { return c }
