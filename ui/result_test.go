package ui

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

var (
	paneTime   = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)
	monoStyles = style.NewStyles(theme.Dark(), true)
)

// plainStyles emit no escape sequences at all.
func plainStyles() *style.Styles { return &style.Styles{NoColor: true} }

// sgr matches the styling sequences lipgloss emits.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// assertTerminalSafe fails if s holds an escape sequence other than styling,
// or a control character other than a newline.
func assertTerminalSafe(t *testing.T, what, s string) {
	t.Helper()
	rest := sgr.ReplaceAllString(s, "")
	for i, r := range rest {
		if r != '\n' && (unicode.IsControl(r) || r == '\u202e') {
			t.Errorf("%s: control character %U at byte %d: %q", what, r, i, around(rest, i))
			return
		}
	}
}

// assertNoEscapes fails if s, drawn with plainStyles, holds any ESC.
func assertNoEscapes(t *testing.T, what, s string) {
	t.Helper()
	if i := strings.IndexByte(s, 0x1b); i >= 0 {
		t.Errorf("%s: escape at byte %d: %q", what, i, around(s, i))
	}
	assertTerminalSafe(t, what, s)
}

func around(s string, i int) string {
	return s[max(0, i-20):min(len(s), i+20)]
}

// assertWidth fails if a line of s is wider than width cells.
func assertWidth(t *testing.T, what, s string, width int) {
	t.Helper()
	for n, l := range strings.Split(s, "\n") {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("%s: line %d is %d cells, more than %d: %q", what, n+1, w, width, ansi.Strip(l))
		}
	}
}

// paneText is s as it reads: ANSI stripped, trailing spaces trimmed.
func paneText(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// Building results the way the client reads them, with Content and
// RawContent agreeing.

func textBlock(s string) client.Block {
	return mkBlock(client.Block{Type: "text", Text: s}, map[string]any{"type": "text", "text": s})
}

func mediaBlock(typ, mime string, n int) client.Block {
	data := base64.StdEncoding.EncodeToString(make([]byte, n))
	return mkBlock(client.Block{Type: typ, MIMEType: mime, Bytes: base64.StdEncoding.DecodedLen(len(data))},
		map[string]any{"type": typ, "mimeType": mime, "data": data})
}

func linkBlock(name, uri, mime string) client.Block {
	return mkBlock(client.Block{Type: "resource_link", Name: name, URI: uri, MIMEType: mime},
		map[string]any{"type": "resource_link", "name": name, "uri": uri, "mimeType": mime})
}

func embeddedBlock(uri, mime, text string) client.Block {
	return mkBlock(client.Block{Type: "resource", URI: uri, MIMEType: mime, Text: text},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": uri, "mimeType": mime, "text": text}})
}

func mkBlock(b client.Block, wire map[string]any) client.Block {
	raw, err := json.Marshal(wire)
	if err != nil {
		panic(err)
	}
	b.Raw = raw
	return b
}

func mkResult(isError bool, structured string, blocks ...client.Block) *client.Result {
	raws := make([]json.RawMessage, len(blocks))
	for i, b := range blocks {
		raws[i] = b.Raw
	}
	content, _ := json.Marshal(raws)
	r := &client.Result{Content: blocks, RawContent: content, IsError: isError}
	if structured != "" {
		r.Structured = json.RawMessage(structured)
	}
	r.Size = len(content) + len(structured)
	return r
}

// withResult fills o's result fields the way a finished call does.
func withResult(o *client.Outcome, r *client.Result) *client.Outcome {
	o.Result, o.ResultSize, o.IsError = r, r.Size, r.IsError
	o.Content, o.StructuredContent = r.RawContent, r.Structured
	return o
}

func baseOutcome(tool, title string) *client.Outcome {
	return &client.Outcome{
		Time: paneTime, Server: "weather", Via: "stdio", Tool: tool, Title: title,
		Class: policy.ClassReadOnly, Trust: policy.Trusted, Decision: policy.Run,
		ApprovedBy: policy.ByPolicy, Attempts: []client.Attempt{{N: 1, DurationMS: 142.6}},
		Status: client.StatusOK, DurationMS: 142.6,
	}
}

func okOutcome() *client.Outcome {
	o := baseOutcome("get_forecast", "Weather forecast")
	return withResult(o, mkResult(false, `{"city":"Lisbon","high":23,"low":15,"sky":"sunny"}`,
		textBlock("Sunny in Lisbon today, with a high of 23°C and a low of 15°C. Light winds from the north-west in the afternoon; no rain expected before the weekend.\n"),
		textBlock(`{"city":"Lisbon","temps":[21,23,19],"wind":{"speed":12,"unit":"km/h"},"alerts":[]}`),
		mediaBlock("image", "image/png", 3072),
		linkBlock("forecast.csv", "file:///data/lisbon/forecast.csv", "text/csv"),
		embeddedBlock("mem://notes/today", "text/plain", "Bring sunglasses.\n\tAnd water."),
	))
}

func toolErrorOutcome() *client.Outcome {
	o := baseOutcome("get_forecast", "Weather forecast")
	o.ApprovedBy = policy.ByUser
	o.Status, o.DurationMS = client.StatusToolError, 31
	o.Attempts[0].DurationMS = 31
	return withResult(o, mkResult(true, "", textBlock("city \"Atlantis\" not found\nTry a city that exists.")))
}

func failedOutcome() *client.Outcome {
	o := baseOutcome("fetch_page", "Fetch a web page")
	o.ApprovedBy, o.OpenWorld, o.ReplaySafe = policy.ByYes, true, true
	o.Attempts = []client.Attempt{
		{N: 1, DurationMS: 30.2, Failure: "server_error", Error: "backend unavailable", WaitMS: 300},
		{N: 2, DurationMS: 28, Failure: "server_error", Error: "backend unavailable", WaitMS: 612.5},
		{N: 3, DurationMS: 31.7, Failure: "timeout", Error: "no answer or progress within 30s (the server was told to cancel)"},
	}
	o.Status, o.DurationMS = client.StatusFailed, 31003
	o.Error = "no answer or progress within 30s (the server was told to cancel); gave up: another attempt would pass the retry limit of 1m0s"
	return o
}

func refusedOutcome() *client.Outcome {
	o := baseOutcome("delete_file", "Delete a file")
	o.Class, o.Trust, o.Decision, o.ApprovedBy = policy.ClassDestructive, policy.Untrusted, policy.Refuse, ""
	o.Attempts, o.DurationMS, o.Status = []client.Attempt{}, 0, client.StatusRefused
	o.Reason = "destructive tool and nobody to ask: pass --yes to run it"
	o.Error = "refused delete_file: " + o.Reason
	return o
}

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
				got := renderResult(c.o(), w, monoStyles)
				assertWidth(t, c.name, got, w)
				golden(t, fmt.Sprintf("result/%s-%d", c.name, w), got)
			})
		}
	}
}

func TestResultShowsEverySection(t *testing.T) {
	got := ansi.Strip(renderResult(okOutcome(), 100, monoStyles))
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
	failed := ansi.Strip(renderResult(failedOutcome(), 120, monoStyles))
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
	mismatch := ansi.Strip(renderResult(schemaMismatchOutcome(), 100, monoStyles))
	if !strings.Contains(mismatch, "structuredContent.high does not match the output schema: type: warm") ||
		!strings.Contains(mismatch, "(schema /properties/high)\nstructuredContent\n{") {
		t.Errorf("the schema warning is not above the data:\n%s", mismatch)
	}
}

func TestResultToolErrorIsErrorStyled(t *testing.T) {
	st := style.NewStyles(theme.Dark(), false)
	got := renderResult(toolErrorOutcome(), 80, st)
	want := st.Error.Render("Try a city that exists.")
	if !strings.Contains(got, want) {
		t.Errorf("tool error body not in the error style; want %q in\n%q", want, got)
	}
}

// hostileOutcome has escape sequences and control characters everywhere a
// server can put them.
func hostileOutcome() *client.Outcome {
	const evil = "\x1b]0;pwned\x07\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ \x1b[2J\x1b[H\x1b[31mred\x1b[0m\rover\x00nul\x07bell\u009b31mC1\u202eevil\x7f\u200fdone\xff"
	o := baseOutcome("tool"+evil, "Title"+evil)
	o.ApprovedBy, o.Rule = policy.ByRule, "allow "+evil
	o.Attempts = []client.Attempt{{N: 1, Failure: "server_error", Error: evil, WaitMS: 100}, {N: 2}}
	o.OutputSchemaError = "bad " + evil
	o = withResult(o, mkResult(true, `{"k":"\u001b]0;x\u0007","t":"\t"}`,
		textBlock(evil+"\n"+strings.Repeat("日本語", 40)+"\n👍🏽👍🏽👍🏽 "+strings.Repeat("x", 300)),
		textBlock(`{"a":"`+strings.ReplaceAll(evil, "\x1b", `\u001b`)+`"}`),
		mediaBlock("image", "image/"+evil, 30),
		linkBlock(evil, "file:///"+evil, evil),
		embeddedBlock("mem://"+evil, evil, "text "+evil),
		mkBlock(client.Block{Type: "holo" + evil}, map[string]any{"type": "holo" + evil}),
	))
	o.Result.Problems = []string{"isError is " + evil}
	o.LogError = "disk " + evil
	return o
}

func TestResultHostileText(t *testing.T) {
	for _, o := range []*client.Outcome{hostileOutcome(), func() *client.Outcome {
		o := hostileOutcome()
		o.Status, o.Error = client.StatusFailed, "failed "+o.Title
		return o
	}()} {
		for _, w := range []int{1, 7, 40, 80, 133} {
			plain := renderResult(o, w, plainStyles())
			assertNoEscapes(t, fmt.Sprint("plain ", w), plain)
			assertWidth(t, fmt.Sprint("plain ", w), plain, w)
			colour := renderResult(o, w, style.NewStyles(theme.Dark(), false))
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
			got := renderResult(c.o(), w, style.NewStyles(theme.Dark(), false))
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
			got := renderResult(o, 80, monoStyles)
			lines := strings.Split(got, "\n")
			if len(lines) > resultMaxLines+10 {
				t.Errorf("%d lines drawn, want at most about %d", len(lines), resultMaxLines)
			}
			if len(got) > 2*resultMaxBytes {
				t.Errorf("%d bytes drawn", len(got))
			}
			last := ansi.Strip(lines[len(lines)-1])
			if !regexp.MustCompile(`^… [0-9]+ more lines? not shown \([0-9.]+ [kM]?B\); use ` + "`mcpsh call --json`" + ` for all of it$`).MatchString(last) {
				t.Errorf("no notice of what was cut; last line %q", last)
			}
			assertWidth(t, name, got, 80)

			v := newResultView(monoStyles, keymap.Default())
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
	small := renderResult(okOutcome(), 80, monoStyles)
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
			got := renderResult(o, w, monoStyles)
			assertWidth(t, "empty", got, max(1, w))
		}
	}
	v := newResultView(monoStyles, keymap.Default())
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
	v := newResultView(monoStyles, keys)
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
