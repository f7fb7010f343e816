package termtext

import (
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/testing/tmuxwidth"
)

// alike are the large blocks of characters that measure and cluster alike:
// ideographs, Hangul syllables, Tangut.
func alike(r rune) bool {
	return unicode.Is(unicode.Han, r) || r >= 0xac00 && r <= 0xd7a3 || r >= 0x17000 && r <= 0x18cff
}

// drawn is the width tmux draws s at.
func drawn(fail func(string, ...any), in, s string) int {
	n, err := tmuxwidth.Line(s)
	if err != nil {
		fail("Sanitize(%+q) = %+q: %v", in, s, err)
	}
	return n
}

// What mcpsh draws beside server text: ASCII, its marks and rules, and
// other server text, sanitised: so a Hangul leading consonant (which would
// have U+200B after it) comes after, never before.
var (
	before = []string{"a", " ", "…", "│", "✓", "\U0001F44D", "\u0915", "\uAC00", "\U0001F1EB\U0001F1F7"}
	after  = append([]string{"\u1100"}, before...)

	// Their widths, measured once rather than for each line of the sweep.
	beforeWidths, afterWidths = widths(before), widths(after)
)

func widths(ss []string) []int {
	w := make([]int, len(ss))
	for i, s := range ss {
		w[i] = ansi.StringWidth(s)
	}
	return w
}

// TestSanitizedTextMeasuresAsTmuxDraws holds every character, alone and in
// the company that makes clusters, to what tmux draws: after Sanitize,
// mcpsh's measure (grapheme clusters), the renderer's (characters added up)
// and tmux's agree, and stay so beside what mcpsh draws next to it.
func TestSanitizedTextMeasuresAsTmuxDraws(t *testing.T) {
	if unicode.Version != tablesVersion {
		t.Fatalf("Go's Unicode tables are %s, disputed was drawn up for %s: add the characters new since to disputed "+
			"(terminals' tables lag), measure them with testdata/widthprobe, and set tablesVersion", unicode.Version, tablesVersion)
	}
	// The company a character keeps that makes clusters: after a letter,
	// repeated, after an emoji and a joiner, Indic consonants and a virama,
	// a Hangul leading consonant; then at both edges of lines.
	contexts := []func(string) string{
		func(c string) string { return "a" + c + c + c },
		func(c string) string { return "\U0001F44D" + c },
		func(c string) string { return "\U0001F44D\u200d" + c },
		func(c string) string { return "\u0915" + c + "\u093f" },
		func(c string) string { return "\u0915\u094d" + c },
		func(c string) string { return "\u1100" + c },
		func(c string) string { return c + "\n" + c + "\t" + c },
	}
	var runes []rune
	for r := rune(0xa0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff || !unicode.In(r, assigned...) && r%97 != 0 || alike(r) && r%31 != 0 || r%sweepEvery != 0 {
			continue // a sample of what is not assigned, and of the large blocks of alike characters
		}
		runes = append(runes, r)
	}
	var failures atomic.Int32
	fail := func(format string, args ...any) {
		if failures.Add(1) <= 20 {
			t.Errorf(format, args...)
		}
	}
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(runes) && failures.Load() < 20; i += workers {
				for j, ctx := range contexts {
					in := ctx(string(runes[i]))
					out := Sanitize(in)
					g, wc := ansi.StringWidth(out), ansi.StringWidthWc(out)
					if d := drawn(fail, in, out); g != wc || g != d {
						fail("Sanitize(%+q) = %+q measures %d cells, %d added up, and tmux draws %d", in, out, g, wc, d)
					}
					if j == len(contexts)-1 {
						edges(fail, in, out)
					}
				}
			}
		})
	}
	wg.Wait()
}

// edges fails when a line of out, sanitised from in, would join what mcpsh
// draws beside it into a cluster that measures differently.
func edges(fail func(string, ...any), in, out string) {
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.ReplaceAll(out, "\t", "\n"), "\n") {
		if seen[l] {
			continue
		}
		seen[l] = true
		lw := ansi.StringWidth(l)
		for i, n := range before {
			if ansi.StringWidth(n+l) != beforeWidths[i]+lw {
				fail("Sanitize(%+q) has the line %+q, which joins %+q before it", in, l, n)
			}
		}
		for i, n := range after {
			if ansi.StringWidth(l+n) != lw+afterWidths[i] {
				fail("Sanitize(%+q) has the line %+q, which joins %+q after it", in, l, n)
			}
		}
	}
}

func TestSanitizeSettlesWidths(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"wipe\u00addisk", "wipe\ufffddisk"},                                             // soft hyphen: one cell to terminals
		{"\u0600\u0601\u06dd\u070f\u0890\u08e2", "\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd"}, // Arabic number signs
		{"\u200b\u2060\ufeff ok", "\u200b\u2060\ufeff ok"},                               // none to everyone
		{"\u26a0\ufe0f careful", "\u26a0 careful"},                                       // a text symbol stays one cell
		{"\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F468\U0001F469\U0001F467"},
		{"\U0001F44D\U0001F3FD", "\U0001F44D"},
		{"\U0001F1EB\U0001F1F7 fr", "\U0001F1EB\U0001F1F7 fr"},
		{"\U0001F1EB fr", "\ufffd fr"},
		{"\u0915\u093f", "\u0915\u200b\u093f"}, // an Indic vowel sign: one cell of its own to terminals
		{"\u0938\u094d\u0924\u0947", "\u0938\u094d\u200b\u0924\u0947"},
		{"\u1100\u1161\u11a8 \u1100\u1161", "\uac01 \uac00"}, // conjoining Hangul, composed
		{"\u1161 \u11a8", "\ufffd \ufffd"},
		{"\ufe0fa", "a"},
		{"\u093fa", "\u200b\u093fa"},
		{"a\u0d4e", "a\u0d4e\u200b"}, // a prepended mark joins what follows
		{"line\u2028next\u2029", "line\nnext\n"},
		{"\U0001FAE8 \U000323AF", "\ufffd \ufffd"}, // Unicode 15: unknown to older terminals
		{"\U000E0001x\U000E0041", "\U000E0001x\U000E0041"},
		{"\u0378 \U000FFFFF \uFDD0 \U000F0001", "\ufffd \ufffd \ufffd \U000F0001"}, // unassigned; private use stays
		{"é\u0301 日本 한국어 Ελληνικά", "é\u0301 日本 한국어 Ελληνικά"},
	} {
		if got := Sanitize(tt.in); got != tt.want {
			t.Errorf("Sanitize(%+q) = %+q, want %+q", tt.in, got, tt.want)
		}
	}
	if got := Line("a\u2028b"); got != "a b" {
		t.Errorf("Line(a U+2028 b) = %+q", got)
	}
}

// agreesEverywhere reports whether s measures the same as clusters and as
// characters, and holds only characters with a width.
func agreesEverywhere(s string) string {
	if ansi.StringWidth(s) != ansi.StringWidthWc(s) {
		return "measures differently as clusters and as characters"
	}
	for _, r := range s {
		if r >= 0x7f && !unicode.In(r, assigned...) {
			return "holds " + strconv.QuoteRune(r)
		}
		if unicode.Is(disputed, r) {
			return "holds " + strconv.QuoteRune(r)
		}
	}
	return ""
}

func BenchmarkSanitize(b *testing.B) {
	for _, c := range []struct{ name, s string }{
		{"ascii", "List the notes in a folder, newest first, with their titles and sizes."},
		{"latin", "Liste les notes d'un dossier, les plus récentes d'abord, avec leurs titres."},
		{"cjk", "フォルダー内のノートを新しい順に一覧表示します。タイトルとサイズ付き。"},
		{"emoji", "🔍 Search the web ⚠️ may cost money 👍🏽"},
		{"hindi", "किसी फ़ोल्डर में नोट्स की सूची, सबसे नए पहले, उनके शीर्षक और आकार के साथ।"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				Sanitize(c.s)
			}
		})
	}
}
