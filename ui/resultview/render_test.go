package resultview

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

var monoStyles = style.NewStyles(theme.Dark(), true)

// plainStyles emit no escape sequences at all.
func plainStyles() *style.Styles { return &style.Styles{NoColor: true} }

func schemaMismatchOutcome() *client.Outcome {
	o := baseOutcome("get_forecast", "Weather forecast")
	o = withResult(o, mkResult(false, `{"city":"Lisbon","high":"warm"}`, textBlock(`{"city":"Lisbon","high":"warm"}`)))
	o.OutputSchemaError = "structuredContent.high does not match the output schema: type: warm has type \"string\", want \"number\" (schema /properties/high)"
	return o
}

var resultCases = []struct {
	name string
	o    func() *client.Outcome
}{
	{"ok", okOutcome},
	{"tool-error", toolErrorOutcome},
	{"failed-retries", failedOutcome},
	{"refused", refusedOutcome},
	{"schema-mismatch", schemaMismatchOutcome},
}

func TestResultGolden(t *testing.T) {
	for _, c := range resultCases {
		for _, w := range []int{80, 100} {
			t.Run(fmt.Sprintf("%s-%d", c.name, w), func(t *testing.T) {
				got := Render(c.o(), w, monoStyles)
				assertWidth(t, c.name, got, w)
				golden(t, fmt.Sprintf("result/%s-%d", c.name, w), got)
			})
		}
	}
}

func TestResultShowsEverySection(t *testing.T) {
	got := ansi.Strip(Render(okOutcome(), 100, monoStyles))
	for _, want := range []string{
		"Weather forecast  get_forecast  ok · 143 ms · 1 attempt", "1 attempt", "no confirmation needed",
		"\"wind\": {\n    \"speed\": 12,", // JSON text re-indented by two spaces
		"[image image/png, 3.1 kB]",
		"[resource link] forecast.csv file:///data/lisbon/forecast.csv (text/csv)",
		"[embedded resource] mem://notes/today (text/plain)\nBring sunglasses.\n        And water.",
		"structuredContent\n{\n  \"city\": \"Lisbon\",",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("result lacks %q:\n%s", want, got)
		}
	}
	failed := ansi.Strip(Render(failedOutcome(), 120, monoStyles))
	for _, want := range []string{
		"attempt 1: server_error — backend unavailable, waited 300 ms",
		"attempt 2: server_error — backend unavailable, waited 613 ms",
		"attempt 3: timeout — no answer",
		"failed", "31.0 s", "3 attempts", "approved by --yes",
	} {
		if !strings.Contains(failed, want) {
			t.Errorf("failed result lacks %q:\n%s", want, failed)
		}
	}
	mismatch := ansi.Strip(Render(schemaMismatchOutcome(), 100, monoStyles))
	if !strings.Contains(mismatch, "structuredContent.high does not match the output schema: type: warm") ||
		!strings.Contains(mismatch, "(schema /properties/high)\nstructuredContent\n{") {
		t.Errorf("the schema warning is not above the data:\n%s", mismatch)
	}
}

func TestResultToolErrorIsErrorStyled(t *testing.T) {
	st := style.NewStyles(theme.Dark(), false)
	got := Render(toolErrorOutcome(), 80, st)
	want := st.Error.Render("Try a city that exists.")
	if !strings.Contains(got, want) {
		t.Errorf("tool error body not in the error style; want %q in\n%q", want, got)
	}
}

func TestResultHostileText(t *testing.T) {
	for _, o := range []*client.Outcome{hostileOutcome(), func() *client.Outcome {
		o := hostileOutcome()
		o.Status, o.Error = client.StatusFailed, "failed "+o.Title
		return o
	}()} {
		for _, w := range []int{1, 7, 40, 80, 133} {
			plain := Render(o, w, plainStyles())
			assertNoEscapes(t, fmt.Sprint("plain ", w), plain)
			assertWidth(t, fmt.Sprint("plain ", w), plain, w)
			colour := Render(o, w, style.NewStyles(theme.Dark(), false))
			assertTerminalSafe(t, fmt.Sprint("colour ", w), colour)
			assertWidth(t, fmt.Sprint("colour ", w), colour, w)
			if !strings.Contains(ansi.Strip(plain), "click") && w > 20 {
				t.Errorf("the text around the escapes is lost at width %d", w)
			}
		}
	}
}

func TestResultWidths(t *testing.T) {
	for _, c := range resultCases {
		for w := 1; w <= 140; w += 3 {
			got := Render(c.o(), w, style.NewStyles(theme.Dark(), false))
			assertWidth(t, fmt.Sprintf("%s at %d", c.name, w), got, w)
		}
	}
}

func TestResultHugeIsCapped(t *testing.T) {
	const size = 20 << 20
	many := strings.Repeat("a line of text from a chatty server\n", size/36)
	oneLine := strings.Repeat("x", size)
	var b strings.Builder
	b.Grow(size + 64)
	b.WriteString("[")
	for b.Len() < size {
		b.WriteString(`{"id":12345,"name":"item","tags":["a","b"]},`)
	}
	b.WriteString("0]")
	arr := b.String()
	manyBlocks := make([]client.Block, 200_000)
	for i := range manyBlocks {
		manyBlocks[i] = client.Block{Type: "text", Text: "block"}
	}
	cases := map[string]*client.Result{
		"many lines":  hugeResult(many, ""),
		"one line":    hugeResult(oneLine, ""),
		"json":        hugeResult(arr, arr),
		"many blocks": {Content: manyBlocks},
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			o := withResult(baseOutcome("dump", ""), r)
			got := Render(o, 80, monoStyles)
			lines := strings.Split(got, "\n")
			if len(lines) > MaxLines+10 {
				t.Errorf("%d lines drawn, want at most about %d", len(lines), MaxLines)
			}
			if len(got) > 2*MaxBytes {
				t.Errorf("%d bytes drawn", len(got))
			}
			last := ansi.Strip(lines[len(lines)-1])
			if !regexp.MustCompile(`^… [0-9]+ more lines? not shown \([0-9.]+ [kM]?B\); use ` + "`mcpsh call --json`" + ` for all of it$`).MatchString(last) {
				t.Errorf("no notice of what was cut; last line %q", last)
			}
			assertWidth(t, name, got, 80)

			v := New(monoStyles, keymap.Default(), unrouted)
			v.SetSize(80, 20)
			v.SetOutcome(o)
			v.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
			view := v.View()
			if n := strings.Count(view, "\n") + 1; n > 20 {
				t.Errorf("view is %d lines, more than 20", n)
			}
			if !strings.Contains(view, "more line") {
				t.Errorf("the end of the view lacks the notice:\n%s", view)
			}
		})
	}
	small := Render(okOutcome(), 80, monoStyles)
	if strings.Contains(small, "not shown") {
		t.Error("a small result has a notice of lines not shown")
	}
}

// hugeResult is mkResult(false, structured, textBlock(text)) without the cost
// of encoding megabytes of JSON: text holds no quote or backslash.
func hugeResult(text, structured string) *client.Result {
	raw := `{"type":"text","text":"` + strings.ReplaceAll(text, "\n", `\n`) + `"}`
	r := &client.Result{
		Content:    []client.Block{{Type: "text", Text: text, Raw: json.RawMessage(raw)}},
		RawContent: json.RawMessage("[" + raw + "]"),
	}
	if structured != "" {
		r.Structured = json.RawMessage(structured)
	}
	r.Size = len(r.RawContent) + len(structured)
	return r
}

func TestResultNilAndEmpty(t *testing.T) {
	for _, o := range []*client.Outcome{nil, {}, {Status: client.StatusOK, Result: &client.Result{}}, {Status: client.StatusCancelled, Error: "cancelled by the user (the server was told)"}} {
		for _, w := range []int{0, 1, 80} {
			got := Render(o, w, monoStyles)
			assertWidth(t, "empty", got, max(1, w))
		}
	}
	v := New(monoStyles, keymap.Default(), unrouted)
	if v.View() != "" {
		t.Error("an unsized view draws something")
	}
	v.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	v.SetOutcome(nil)
	v.SetSize(40, 3)
	if n := strings.Count(v.View(), "\n") + 1; n > 3 {
		t.Errorf("view is %d lines", n)
	}
}

func TestResultViewScrolls(t *testing.T) {
	keys := keymap.Default()
	v := New(monoStyles, keys, unrouted)
	v.SetSize(60, 6)
	v.SetOutcome(okOutcome())
	first := func() string { return strings.SplitN(ansi.Strip(v.View()), "\n", 2)[0] }
	view := v.View()
	if n := strings.Count(view, "\n") + 1; n != 6 {
		t.Fatalf("view is %d lines, want 6", n)
	}
	assertWidth(t, "view", view, 60)
	top := first()
	if !strings.Contains(top, "get_forecast") {
		t.Fatalf("view does not start at the status line: %q", top)
	}
	press := func(code rune, text string) {
		v.Update(tea.KeyPressMsg{Code: code, Text: text})
	}
	press(tea.KeyDown, "")
	if first() == top {
		t.Error("down did not scroll")
	}
	press(tea.KeyUp, "")
	if first() != top {
		t.Error("up did not scroll back")
	}
	press('j', "j")
	press(tea.KeyPgDown, "")
	if !strings.Contains(first(), "") || v.body.Top() != 7 {
		t.Errorf("j and pgdown moved to %d, want 7", v.body.Top())
	}
	press(tea.KeyEnd, "")
	if v.body.Top() != v.body.MaxTop() {
		t.Error("end did not go to the bottom")
	}
	press(tea.KeyHome, "")
	if first() != top {
		t.Error("home did not go to the top")
	}
	// A new outcome starts from its top again.
	press(tea.KeyEnd, "")
	v.SetOutcome(failedOutcome())
	if !strings.Contains(first(), "fetch_page") {
		t.Errorf("a new outcome does not start at the top: %q", first())
	}
}
