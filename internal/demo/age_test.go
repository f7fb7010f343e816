package demo

import (
	"testing"
	"time"
)

// A note reads the same whichever day the demo starts: a session recorded
// one day replays the next (expect digest), because a seed note says its
// age, not its date.
func TestANoteReadsTheSameEveryDay(t *testing.T) {
	monday := time.Date(2026, 11, 23, 23, 59, 0, 0, time.Local)
	tuesday := monday.Add(2 * time.Minute)
	for _, days := range []int{0, 1, 10, 45} {
		a := render(note{ID: 1, Title: "t", Created: monday.AddDate(0, 0, -days)}, monday)
		b := render(note{ID: 1, Title: "t", Created: tuesday.AddDate(0, 0, -days)}, tuesday)
		if a != b {
			t.Errorf("%d days old: %q one day, %q the next", days, a, b)
		}
	}
	for _, tt := range []struct {
		created time.Time
		want    string
	}{
		{monday, "today"}, {monday.Add(-24 * time.Hour), "yesterday"}, {monday.AddDate(0, 0, -45), "45 days ago"},
		{monday.Add(time.Hour), "today"},
	} {
		if got := age(tt.created, monday); got != tt.want {
			t.Errorf("age(%v) = %q, want %q", tt.created, got, tt.want)
		}
	}
}
