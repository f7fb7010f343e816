package panes

import (
	"fmt"
	"time"
)

// FormatDuration is how every duration on screen reads (the log pane, the
// result view, the running call), so times can be compared at a glance:
// "143 ms" below a second, "1.4 s" below a minute, then "2 min 05 s".
func FormatDuration(d time.Duration) string {
	switch {
	case d < 0:
		d = 0
	case d >= time.Minute-50*time.Millisecond: // would read "60.0 s"
		s := int((d + time.Second/2) / time.Second)
		return fmt.Sprintf("%d min %02d s", s/60, s%60)
	}
	if d < time.Second-time.Millisecond/2 {
		ms := d.Round(time.Millisecond).Milliseconds()
		if ms == 0 && d > 0 {
			return "<1 ms"
		}
		return fmt.Sprintf("%d ms", ms)
	}
	// Rounded rather than cut, as the milliseconds are.
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// FormatMS is FormatDuration for the milliseconds outcomes record.
func FormatMS(ms float64) string {
	return FormatDuration(time.Duration(ms * float64(time.Millisecond)))
}
