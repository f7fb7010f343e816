package overlays

import (
	"time"

	"github.com/mcpsh/mcpsh/internal/units"
)

// FormatDuration is how every duration on screen reads (units.Duration).
func FormatDuration(d time.Duration) string { return units.Duration(d) }

// FormatMS is FormatDuration for the milliseconds outcomes record.
func FormatMS(ms float64) string { return units.MS(ms) }
