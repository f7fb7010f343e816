package scroll

import "testing"

// Rows 0 and 3 are headings: the cursor rests on 1, 2, 4 and 5 only.
func TestCursorSkipsHeadingsAndStopsAtTheEnds(t *testing.T) {
	heading := func(i int) bool { return i == 0 || i == 3 }
	rests := func(i int) bool { return !heading(i) }
	for _, c := range []struct{ from, steps, want int }{
		{1, 1, 2}, {2, 1, 4}, {4, -1, 2}, {1, -1, 1}, {5, 1, 5}, {1, 10, 5}, {5, -10, 1}, {-1, 1, -1},
	} {
		if got := Step(c.from, c.steps, 6, rests); got != c.want {
			t.Errorf("Step(%d, %d) = %d, want %d", c.from, c.steps, got, c.want)
		}
	}
	if got := Nearest(3, 1, 6, rests); got != 4 {
		t.Errorf("Nearest(3, 1) = %d", got)
	}
	if got := Nearest(0, -1, 6, rests); got != -1 {
		t.Errorf("Nearest(0, -1) = %d", got)
	}
	// Scrolling back up to row 4 shows its heading, row 3, too.
	if got := Window(5, 4, 2, 6, heading); got != 3 {
		t.Errorf("Window up to 4 = %d, want 3 (its heading)", got)
	}
	if got := Window(0, 5, 2, 6, heading); got != 4 {
		t.Errorf("Window down to 5 = %d, want 4", got)
	}
}
