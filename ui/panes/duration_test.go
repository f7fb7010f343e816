package panes

import (
	"testing"
	"time"
)

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second:                "0 ms",
		0:                           "0 ms",
		300 * time.Microsecond:      "<1 ms",
		142600 * time.Microsecond:   "143 ms",
		999 * time.Millisecond:      "999 ms",
		999600 * time.Microsecond:   "1.0 s",
		1204 * time.Millisecond:     "1.2 s",
		31003 * time.Millisecond:    "31.0 s",
		59960 * time.Millisecond:    "1 min 00 s",
		125 * time.Second:           "2 min 05 s",
		2*time.Hour + 3*time.Second: "120 min 03 s",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
	if got := FormatMS(142.6); got != "143 ms" {
		t.Errorf("FormatMS(142.6) = %q", got)
	}
}
