package scroll

// The movement of a cursor over a list of n rows where some rows (section
// headings) cannot hold it: the tool list and the resources' and prompts'
// lists move with these, so they move alike.

// Nearest is the first row from i going dir (1 or -1) that the cursor can
// rest on, or -1 when there is none.
func Nearest(i, dir, n int, rests func(int) bool) int {
	for ; i >= 0 && i < n; i += dir {
		if rests(i) {
			return i
		}
	}
	return -1
}

// Step is where a cursor at row cursor ends after moving steps rows it can
// rest on (back when steps is negative), stopping at the ends. A cursor of
// -1 (nothing to rest on) stays.
func Step(cursor, steps, n int, rests func(int) bool) int {
	if cursor < 0 {
		return cursor
	}
	dir := 1
	if steps < 0 {
		dir, steps = -1, -steps
	}
	for ; steps > 0; steps-- {
		next := Nearest(cursor+dir, dir, n, rests)
		if next < 0 {
			break
		}
		cursor = next
	}
	return cursor
}

// Window is the first of n rows on screen in height rows, from off before:
// the cursor stays on screen, and so does the heading right above it
// (heading reports whether a row is one) when it comes into view from below.
func Window(off, cursor, height, n int, heading func(int) bool) int {
	if cursor >= 0 {
		if cursor < off {
			off = cursor
			if off > 0 && heading(off-1) {
				off--
			}
		}
		if cursor >= off+height {
			off = cursor - height + 1
		}
	}
	return max(0, min(off, n-height))
}
