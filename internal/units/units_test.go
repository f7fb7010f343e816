package units

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
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
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
	if got := MS(142.6); got != "143 ms" {
		t.Errorf("MS(142.6) = %q", got)
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 tools", 1: "1 tool", 2: "2 tools", -1: "-1 tools"} {
		if got := Plural(n, "tool"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestApprox(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "less than a minute", 59 * time.Second: "less than a minute",
		50 * time.Minute: "50 min", 3*time.Hour + 59*time.Minute: "3 h", 47 * time.Hour: "47 h", 72 * time.Hour: "3 days",
	} {
		if got := Approx(d); got != want {
			t.Errorf("Approx(%v) = %q, want %q", d, got, want)
		}
	}
}
