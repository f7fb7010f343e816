package markdown

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/internal/uitest"
	"github.com/mcpsh/mcpsh/ui/style"
)

const markdownSample = `Title
=====

Some *emphasis*, **strong**, ` + "`code`" + `, snake_case_name and a [link](https://example.com "t").
A second line of the same paragraph, long enough that it has to wrap at forty cells.  
A hard break before this line.

## Lists

- one
- two with **bold**
  - nested
1. first
2. second

> quoted text that is long enough to wrap inside the quote bar
> > nested quote

` + "```go" + `
func main() { fmt.Println("a line of code that is longer than the width of the pane") }
` + "```" + `

    indented code

---

| name | value |
|------|------:|
| a    | 1     |
| long name | 22 |

![alt text](img.png) <https://auto.example> \*not emphasis\* **unclosed
### Third level ###
`

func TestMarkdownGolden(t *testing.T) {
	st := style.NewStyles(theme.Dark(), true)
	for _, w := range []int{40, 80} {
		out := Render(markdownSample, w, st)
		for i, l := range out {
			if n := ansi.StringWidth(l); n > w {
				t.Errorf("width %d: line %d is %d cells: %q", w, i+1, n, ansi.Strip(l))
			}
		}
		uitest.Golden(t, "sample-"+strconv.Itoa(w), strings.Join(out, "\n"))
	}
}

func TestMarkdownInline(t *testing.T) {
	st := style.NewStyles(theme.Dark(), true)
	for in, want := range map[string]string{
		"a *b* c":                                "a b c",
		"**x** and __y__":                        "x and y",
		"snake_case_name":                        "snake_case_name",
		"2 * 3 * 4":                              "2 * 3 * 4",
		"`a*b*c`":                                "a*b*c",
		"``a ` b``":                              "a ` b",
		"[x](https://e.example)":                 "x (https://e.example)",
		"[https://e.example](https://e.example)": "https://e.example",
		"![i](p.png)":                            "[image: i] (p.png)",
		`\*lit\*`:                                "*lit*",
		"**open":                                 "**open",
		"<https://a.example/x>":                  "https://a.example/x",
		"a <b> c":                                "a <b> c",
	} {
		got := ansi.Strip(strings.Join(Render(in, 80, st), "\n"))
		if got != want {
			t.Errorf("%q drew %q, want %q", in, got, want)
		}
	}
}

func TestMarkdownStaysInTheWidth(t *testing.T) {
	st := style.NewStyles(theme.Dark(), false)
	long := strings.Repeat("x", 300)
	for _, src := range []string{long, "# " + long, "- " + long, "> " + long, "| " + long + " |\n|---|\n| a |", "```\n" + long + "\n```", "界" + strings.Repeat("界", 100)} {
		for _, w := range []int{1, 2, 7, 33} {
			for _, l := range Render(src, w, st) {
				if n := ansi.StringWidth(l); n > w {
					t.Fatalf("%.20q at %d: a line of %d cells", src, w, n)
				}
			}
		}
	}
}
