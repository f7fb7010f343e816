package termtext

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Widths. A terminal advances its cursor by what it thinks a character's
// width is, and mcpsh lays text out by what it measures: where the two
// disagree, server text draws outside its pane and stays on screen. They
// disagree in three ways, and Sanitize takes each out of server text, so
// that every measure mcpsh, lipgloss and Bubble Tea's renderer use agrees
// with the terminal on what is left:
//
//   - Characters whose width terminals count differently from Go's tables
//     (the soft hyphen and the Arabic number signs draw one cell, though
//     Unicode calls them format characters; conjoining Hangul vowels and
//     finals, symbols Unicode 16 widened, characters newer than the
//     terminals' tables, characters not assigned at all) become U+FFFD, one
//     cell everywhere (disputed). Line and paragraph separators become
//     newlines; modern conjoining Hangul is composed into its syllable.
//   - Clusters. lipgloss and mcpsh measure grapheme clusters; most terminals
//     (and Bubble Tea's renderer, unless the terminal says it clusters)
//     add up characters. An emoji sequence joined by ZWJ, a variation
//     selector, a skin tone, a lone regional indicator or an Indic vowel
//     sign measure differently the two ways. Such a cluster loses its
//     presentation marks (steady) and, if it still disagrees, is broken
//     with U+200B (zero width to every terminal, and the end of a cluster)
//     before each character that takes cells, so each piece is drawn as it
//     is measured; what still disagrees becomes U+FFFD.
//   - Edges. Text is drawn beside other text: a string that starts with a
//     mark that joins what precedes it, or ends with a character that joins
//     what follows (a prepended mark, a Hangul leading consonant, a
//     joiner), gets U+200B there, at either end of every line.
//
// East Asian ambiguous characters are one cell, as in every terminal not
// set to count them as two (RUNEWIDTH_EASTASIAN=1 tells mcpsh it is).
// internal/termtext/testdata holds the widths tmux 3.3a draws every
// assigned character at, which the tests hold these rules to.

// zwsp breaks a cluster without taking a cell.
const zwsp = '\u200b'

// disputed are the characters whose width terminals count differently from
// Go's width tables: they become U+FFFD.
var disputed = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00AD, Hi: 0x00AD, Stride: 1}, // soft hyphen: one cell to wcwidth, none to Unicode
		{Lo: 0x0600, Hi: 0x0605, Stride: 1}, // prepended concatenation marks: drawn, one cell
		{Lo: 0x06DD, Hi: 0x06DD, Stride: 1},
		{Lo: 0x070F, Hi: 0x070F, Stride: 1},
		{Lo: 0x0890, Hi: 0x0891, Stride: 1},
		{Lo: 0x08E2, Hi: 0x08E2, Stride: 1},
		{Lo: 0x0CF3, Hi: 0x0CF3, Stride: 1}, // Unicode 15, below: none to older terminals
		{Lo: 0x0ECE, Hi: 0x0ECE, Stride: 1},
		{Lo: 0x1160, Hi: 0x11FF, Stride: 1}, // conjoining Hangul vowels and finals: none to wcwidth, one to Go
		{Lo: 0x2630, Hi: 0x2637, Stride: 1}, // trigrams and digrams: two cells since Unicode 16, one before
		{Lo: 0x268A, Hi: 0x268F, Stride: 1},
		{Lo: 0x3248, Hi: 0x324F, Stride: 1}, // circled numbers on squares: two to wcwidth, one to Go
		{Lo: 0xD7B0, Hi: 0xD7FF, Stride: 1}, // more conjoining Hangul vowels and finals
	},
	R32: []unicode.Range32{
		{Lo: 0x10EFD, Hi: 0x10EFF, Stride: 1}, // Unicode 15 (Go's tables), unknown to glibc 2.36's
		{Lo: 0x110BD, Hi: 0x110BD, Stride: 1}, // Kaithi number signs: prepended marks, drawn
		{Lo: 0x110CD, Hi: 0x110CD, Stride: 1},
		{Lo: 0x1123F, Hi: 0x11241, Stride: 1},
		{Lo: 0x11B00, Hi: 0x11B09, Stride: 1},
		{Lo: 0x11F00, Hi: 0x11F10, Stride: 1},
		{Lo: 0x11F12, Hi: 0x11F3A, Stride: 1},
		{Lo: 0x11F3E, Hi: 0x11F59, Stride: 1},
		{Lo: 0x1342F, Hi: 0x1342F, Stride: 1},
		{Lo: 0x13439, Hi: 0x13455, Stride: 1},
		{Lo: 0x1B132, Hi: 0x1B132, Stride: 1},
		{Lo: 0x1B155, Hi: 0x1B155, Stride: 1},
		{Lo: 0x1D165, Hi: 0x1D166, Stride: 1}, // musical spacing marks: one cell to wcwidth, none to Go
		{Lo: 0x1D16D, Hi: 0x1D172, Stride: 1},
		{Lo: 0x1D2C0, Hi: 0x1D2D3, Stride: 1},
		{Lo: 0x1D300, Hi: 0x1D356, Stride: 1}, // Tai Xuan Jing: two cells since Unicode 16, one before
		{Lo: 0x1D360, Hi: 0x1D376, Stride: 1}, // counting rods: likewise
		{Lo: 0x1DF25, Hi: 0x1DF2A, Stride: 1},
		{Lo: 0x1E030, Hi: 0x1E06D, Stride: 1},
		{Lo: 0x1E08F, Hi: 0x1E08F, Stride: 1},
		{Lo: 0x1E4D0, Hi: 0x1E4F9, Stride: 1},
		{Lo: 0x1F6DC, Hi: 0x1F6DC, Stride: 1},
		{Lo: 0x1F774, Hi: 0x1F776, Stride: 1},
		{Lo: 0x1F77B, Hi: 0x1F77F, Stride: 1},
		{Lo: 0x1F7D9, Hi: 0x1F7D9, Stride: 1},
		{Lo: 0x1FA75, Hi: 0x1FA77, Stride: 1},
		{Lo: 0x1FA87, Hi: 0x1FA88, Stride: 1},
		{Lo: 0x1FAAD, Hi: 0x1FAAF, Stride: 1},
		{Lo: 0x1FABB, Hi: 0x1FABD, Stride: 1},
		{Lo: 0x1FABF, Hi: 0x1FABF, Stride: 1},
		{Lo: 0x1FACE, Hi: 0x1FACF, Stride: 1},
		{Lo: 0x1FADA, Hi: 0x1FADB, Stride: 1},
		{Lo: 0x1FAE8, Hi: 0x1FAE8, Stride: 1},
		{Lo: 0x1FAF7, Hi: 0x1FAF8, Stride: 1},
		{Lo: 0x2B739, Hi: 0x2B739, Stride: 1},
		{Lo: 0x31350, Hi: 0x323AF, Stride: 1},
	},
}

// tablesVersion is the Unicode version disputed was drawn up for: the
// characters Go's tables added since terminals' (glibc 2.36 knows Unicode
// 14) are in it. A test fails when Go's tables move on.
const tablesVersion = "15.0.0"

// assigned are the categories of characters that have a width; the
// controls (Cc) are gone before this is asked, surrogates cannot be
// decoded, and whatever else there is (Cn) is not assigned yet.
var assigned = []*unicode.RangeTable{unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs, unicode.Cf, unicode.Co}

// widthRune is what r, visible, becomes: itself, U+FFFD for a character
// whose width is disputed, or a newline for a line or paragraph separator.
func widthRune(r rune) rune {
	switch {
	case r < 0x300:
		if r == 0xad {
			return utf8.RuneError
		}
		return r
	case r >= 0x4e00 && r <= 0x9fff, r >= 0xac00 && r <= 0xd7a3, r >= 0x3400 && r <= 0x4dbf,
		r >= 0x3099 && r <= 0x30ff, r >= 0x3041 && r <= 0x3096, r >= 0x400 && r <= 0x52f,
		r >= 0xe000 && r <= 0xf8ff, r >= 0xf0000 && r <= 0xffffd, r >= 0x100000 && r <= 0x10fffd:
		return r // ideographs, Hangul syllables, kana, Cyrillic, private use: each assigned, none disputed
	case r == '\u2028' || r == '\u2029':
		return '\n'
	case unicode.Is(disputed, r) || !unicode.In(r, assigned...):
		return utf8.RuneError
	}
	return r
}

// Modern conjoining Hangul, which composes into a precomposed syllable.
const (
	hangulS, hangulL, hangulV, hangulT = 0xAC00, 0x1100, 0x1161, 0x11A7
	hangulLN, hangulVN, hangulTN       = 19, 21, 28
)

// hangul composes the modern conjoining jamo s starts with (r, decoded):
// a leading consonant and a vowel, or a syllable with no final, then
// perhaps a final. It returns the syllable and how many bytes of s it
// takes, or 0, 0 when there is nothing to compose.
func hangul(r rune, s string) (rune, int) {
	w := utf8.RuneLen(r)
	syl := r
	switch {
	case r >= hangulL && r < hangulL+hangulLN:
		v, n := utf8.DecodeRuneInString(s[w:])
		if v < hangulV || v >= hangulV+hangulVN {
			return 0, 0
		}
		syl, w = hangulS+((r-hangulL)*hangulVN+v-hangulV)*hangulTN, w+n
	case r < hangulS || r >= hangulS+hangulLN*hangulVN*hangulTN || (r-hangulS)%hangulTN != 0:
		return 0, 0
	}
	if t, n := utf8.DecodeRuneInString(s[w:]); t > hangulT && t < hangulT+hangulTN {
		return syl + t - hangulT, w + n
	}
	if syl == r {
		return 0, 0 // a syllable with no final after it
	}
	return syl, w
}

// plain reports whether every character of s is one that joins no
// neighbour into a cluster measuring differently (settle has nothing to
// do): below U+0300, Greek and Cyrillic, kana, ideographs, Hangul
// syllables, full-width forms, general punctuation and symbols, emoji
// other than skin tones, private use (one cell, a cluster of its own),
// U+FFFD and U+200B. Marks that draw on the character before them
// (U+0300-036F, U+3099-309A) take no cell either way. Text in other
// scripts goes the slow way.
func plain(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0xcc {
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		switch {
		case r <= 0x52f,
			r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205e, r >= 0x2070 && r <= 0x2bff,
			r >= 0x3000 && r <= 0x302d, r >= 0x3030 && r <= 0x30ff, r >= 0x3400 && r <= 0x4dbf, r >= 0x4e00 && r <= 0x9fff,
			r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff, r >= 0xff01 && r <= 0xff9d,
			r >= 0x1f300 && r <= 0x1f3fa, r >= 0x1f400 && r <= 0x1faff,
			r >= 0xe000 && r <= 0xf8ff, r >= 0xf0000 && r <= 0xffffd, r >= 0x100000 && r <= 0x10fffd,
			r == utf8.RuneError, r == zwsp:
		default:
			return false
		}
	}
	return true
}

// settle breaks the clusters of s whose widths disagree, and marks its
// lines' edges where they would join the text drawn beside them.
func settle(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 6)
	lineStart := true
	last := -1 // where the line's last cluster starts in b
	end := func() {
		if last >= 0 && joinsNext(b.String()[last:]) {
			b.WriteRune(zwsp)
		}
	}
	for rest := s; rest != ""; {
		if lineStart {
			// Marks of presentation with nothing to present would join
			// what is drawn before the line to what follows them.
			rest = strings.TrimLeftFunc(rest, presentation)
			if rest == "" {
				break
			}
		}
		c, g := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
		rest = rest[len(c):]
		switch r, n := utf8.DecodeRuneInString(c); {
		case c == "\n" || c == "\t":
			end()
			b.WriteString(c)
			lineStart, last = true, -1
		case lineStart:
			var first strings.Builder
			steady(&first, c, g)
			if joinsPrevious(first.String()) {
				b.WriteRune(zwsp)
			}
			last = b.Len()
			b.WriteString(first.String())
			lineStart = false
		case n < len(c) || r >= 0x300: // more than one character, or one that may disagree
			last = b.Len()
			steady(&b, c, g)
		default:
			last = b.Len()
			b.WriteString(c)
		}
	}
	end()
	return b.String()
}

// steady writes a cluster so it measures the same both ways: as it is when
// it does; else without its presentation marks, its pieces broken apart by
// U+200B before each character that takes cells; a piece that still
// disagrees becomes U+FFFD. g is its width as a cluster.
func steady(b *strings.Builder, c string, g int) {
	if g == ansi.StringWidthWc(c) {
		b.WriteString(c)
		return
	}
	if strings.IndexFunc(c, presentation) >= 0 {
		c = strings.Map(func(r rune) rune {
			if presentation(r) {
				return -1
			}
			return r
		}, c)
	}
	for rest := c; rest != ""; {
		sub, g := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
		rest = rest[len(sub):]
		if g == ansi.StringWidthWc(sub) {
			b.WriteString(sub)
			continue
		}
		start := 0
		for i, r := range sub {
			if i > 0 && ansi.StringWidthWc(string(r)) > 0 {
				piece(b, sub[start:i])
				b.WriteRune(zwsp)
				start = i
			}
		}
		piece(b, sub[start:])
	}
}

// piece writes one character and the zero-width marks on it, or U+FFFD
// when even alone they measure differently (a lone regional indicator).
func piece(b *strings.Builder, p string) {
	if _, g := ansi.FirstGraphemeCluster(p, ansi.GraphemeWidth); g == ansi.StringWidthWc(p) {
		b.WriteString(p)
		return
	}
	b.WriteRune(utf8.RuneError)
}

// presentation reports the characters that only change how the cluster
// they are in is drawn: variation selectors, the zero width joiner, skin
// tones and tags.
func presentation(r rune) bool {
	return r >= 0xfe00 && r <= 0xfe0f || r == '\u200d' || r >= 0x1f3fb && r <= 0x1f3ff ||
		r >= 0xe0020 && r <= 0xe007f || r >= 0xe0100 && r <= 0xe01ef
}

// Text mcpsh draws beside server text, to learn whether the server's text
// would join it: a letter, an emoji, an Indic consonant and a Hangul
// syllable.
var neighbours = []string{"a", "\U0001F44D", "\u0915", "\uAC00"}

// neighbourWidths are the neighbours' widths, measured once: joinsPrevious
// and joinsNext run at both edges of every line that is not plain. Measured
// when first needed, not at start-up, which every command pays for.
var neighbourWidths = sync.OnceValue(func() []int {
	w := make([]int, len(neighbours))
	for i, n := range neighbours {
		w[i] = ansi.StringWidth(n)
	}
	return w
})

// joinsPrevious reports whether c, at the start of a line, would make one
// cluster with what is drawn before it, measuring differently.
func joinsPrevious(c string) bool {
	if _, n := utf8.DecodeRuneInString(c); plain(c[:n]) {
		return false
	}
	g := ansi.StringWidth(c)
	nw := neighbourWidths()
	for i, n := range neighbours[:2] {
		if ansi.StringWidth(n+c) != nw[i]+g {
			return true
		}
	}
	return false
}

// joinsNext reports whether c, at the end of a line, would make one cluster
// with what is drawn after it, measuring differently.
func joinsNext(c string) bool {
	if _, n := utf8.DecodeLastRuneInString(c); plain(c[len(c)-n:]) {
		return false
	}
	g := ansi.StringWidth(c)
	nw := neighbourWidths()
	for i, n := range neighbours {
		if ansi.StringWidth(c+n) != g+nw[i] {
			return true
		}
	}
	return false
}
