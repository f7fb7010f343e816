// Package tmuxwidth is for tests only: the width tmux 3.3a (glibc 2.36's
// wcwidth) draws each character at, measured in tmux (widths.txt,
// widthprobe), so tests can hold what mcpsh draws to what a terminal
// draws rather than to mcpsh's own measure.
package tmuxwidth

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

//go:embed widths.txt
var widthsTxt string

type table struct{ lo, hi, w []int }

var (
	once   sync.Once
	widths table
	err    error
)

func load() {
	for n, line := range strings.Split(widthsTxt, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		p := strings.Fields(line)
		if len(p) != 3 {
			err = fmt.Errorf("widths.txt:%d: %q", n+1, line)
			return
		}
		lo, err1 := strconv.ParseUint(p[0], 16, 32)
		hi, err2 := strconv.ParseUint(p[1], 16, 32)
		w, err3 := -1, error(nil)
		if p[2] != "-" {
			w, err3 = strconv.Atoi(p[2])
		}
		if err1 != nil || err2 != nil || err3 != nil {
			err = fmt.Errorf("widths.txt:%d: %q", n+1, line)
			return
		}
		widths.lo, widths.hi, widths.w = append(widths.lo, int(lo)), append(widths.hi, int(hi)), append(widths.w, w)
	}
}

// assigned are the categories measured: every character with a width.
var assigned = []*unicode.RangeTable{unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs, unicode.Cf, unicode.Co}

// Rune is the number of cells tmux advances for r, and false when it was not
// measured: a control other than newline or tab, a character not assigned
// in Go's tables, or one tmux does not know (it draws those at no width).
func Rune(r rune) (int, bool) {
	once.Do(load)
	if err != nil {
		panic(err)
	}
	switch {
	case r == '\n' || r == '\t':
		return 0, true
	case r >= 0x20 && r < 0x7f:
		return 1, true
	case r < 0xa0:
		return 0, false
	case unicode.Is(unicode.Co, r):
		return 1, true // sampled at U+E000 and U+F0000
	}
	lo, hi := 0, len(widths.lo)
	for lo < hi {
		m := (lo + hi) / 2
		if widths.hi[m] < int(r) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(widths.lo) || widths.lo[lo] > int(r) || widths.w[lo] < 0 || !unicode.In(r, assigned...) {
		return 0, false
	}
	return widths.w[lo], true
}

// Line is how many cells tmux draws a line at (escape sequences left out):
// it adds up its characters. The error names the first character it does
// not know the width of.
func Line(s string) (int, error) {
	if !plain(s) {
		s = ansi.Strip(s)
	}
	n := 0
	for _, r := range s {
		w, ok := Rune(r)
		if !ok {
			return n, fmt.Errorf("%U has no width tmux agrees on", r)
		}
		n += w
	}
	return n, nil
}

// plain reports whether s is valid UTF-8 with no control character but
// newline and tab: Strip would give it back as it is, and the width sweeps
// measure hundreds of thousands of such lines.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return false
		}
	}
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r >= 0x80 && r <= 0x9f {
			return false
		}
	}
	return true
}
