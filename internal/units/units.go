// Package units words quantities the one way mcpsh says them everywhere (the
// TUI, batch output, the log, errors), so a duration or a count reads the
// same wherever a person meets it.
package units

import (
	"fmt"
	"time"
)

// Duration is how every duration reads: "143 ms" below a second, "1.4 s"
// below a minute, then "2 min 05 s".
func Duration(d time.Duration) string {
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

// MS is Duration for the milliseconds the session log records.
func MS(ms float64) string {
	return Duration(time.Duration(ms * float64(time.Millisecond)))
}

// Plural is n and the word, with an s unless n is 1: "1 tool", "3 tools".
// Words whose plural is not word+"s" are not passed to it.
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Approx is how long in the largest unit that fits, for times a person
// plans around rather than compares (a token's expiry): "50 min", "3 h",
// "2 days".
func Approx(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "less than a minute"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d/time.Hour))
	}
	return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
}
