package form

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

const searchToolJSON = `{
	"name": "search",
	"description": "Search the catalogue",
	"inputSchema": {
		"type": "object",
		"properties": {
			"query":  {"type": "string", "description": "What to look for", "minLength": 1},
			"limit":  {"type": "integer", "minimum": 1, "maximum": 50, "default": 10, "description": "Maximum number of results"},
			"units":  {"type": "string", "enum": ["metric", "imperial"], "description": "Unit system"},
			"exact":  {"type": "boolean", "description": "Match the whole phrase"},
			"tags":   {"type": "array", "items": {"type": "string"}, "description": "Only results with all of these tags"},
			"filter": {"type": "object", "description": "Extra filter, as JSON"}
		},
		"required": ["query"]
	},
	"_meta": {"inputExamples": [
		{"query": "cats", "limit": 5},
		{"query": "dogs", "units": "imperial", "tags": ["a", "b"], "exact": true},
		{"query": "x", "limit": 500}
	]}
}`

// formKeys are the key presses the tests send, as Bubble Tea v2 reports them.
var formKeys = struct {
	Tab, ShiftTab, Enter, Space, Left, Right, Up, Down, Esc, CtrlR, CtrlT, CtrlE tea.KeyPressMsg
}{
	Tab:      tea.KeyPressMsg{Code: tea.KeyTab},
	ShiftTab: tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift},
	Enter:    tea.KeyPressMsg{Code: tea.KeyEnter},
	Space:    tea.KeyPressMsg{Code: tea.KeySpace, Text: " "},
	Left:     tea.KeyPressMsg{Code: tea.KeyLeft},
	Right:    tea.KeyPressMsg{Code: tea.KeyRight},
	Up:       tea.KeyPressMsg{Code: tea.KeyUp},
	Down:     tea.KeyPressMsg{Code: tea.KeyDown},
	Esc:      tea.KeyPressMsg{Code: tea.KeyEscape},
	CtrlR:    tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl},
	CtrlT:    tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl},
	CtrlE:    tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl},
}

func altKey(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModAlt} }

func formPress(f *ArgForm, keys ...tea.KeyPressMsg) {
	for _, k := range keys {
		f.Update(k)
	}
}

func formType(f *ArgForm, s string) {
	for _, r := range s {
		f.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func newTestForm(t *testing.T, toolJSON string, width, height int) *ArgForm {
	t.Helper()
	f := NewArgForm(testTool(t, toolJSON), style.NewStyles(theme.Dark(), true), keymap.Default())
	f.SetSize(width, height)
	return f
}

// fieldErr is the error shown below the named field.
func fieldErr(f *ArgForm, name string) string {
	for _, ff := range f.fields {
		if ff.spec.Name == name {
			return ff.err
		}
	}
	return "no such field " + name
}

func focusedName(f *ArgForm) string { return f.fields[f.focus].spec.Name }

func TestFormTypingCyclingAndArgs(t *testing.T) {
	f := newTestForm(t, searchToolJSON, 80, 30)
	if focusedName(f) != "query" || !f.Editing() {
		t.Fatalf("the form opens on %q (editing %v), want query", focusedName(f), f.Editing())
	}
	formType(f, "cats")
	formPress(f, formKeys.Tab)
	formType(f, "3")
	formPress(f, formKeys.Enter) // enter moves on, it does not run
	if focusedName(f) != "units" || f.Editing() {
		t.Fatalf("focus %q, editing %v; want the units choice", focusedName(f), f.Editing())
	}
	formPress(f, formKeys.Space, formKeys.Right, formKeys.Left) // metric, imperial, metric
	formPress(f, formKeys.Down, formKeys.Space)                 // exact: true
	formPress(f, formKeys.Tab)
	formType(f, "a, b")
	formPress(f, formKeys.CtrlR, formKeys.Esc) // the model's keys: nothing happens here
	if focusedName(f) != "tags" {
		t.Fatalf("focus %q after ctrl+r and esc, want tags", focusedName(f))
	}
	args, ok := f.Args()
	if !ok {
		t.Fatalf("Args failed: %v", f.Err())
	}
	want := map[string]any{"query": "cats", "limit": int64(3), "units": "metric", "exact": true, "tags": []any{"a", "b"}}
	if diff := cmp.Diff(want, args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	view := ansi.Strip(f.View())
	for _, s := range []string{"‹ metric › 1/2", "‹ true › 1/2", "a, b"} {
		if !strings.Contains(view, s) {
			t.Errorf("view lacks %q:\n%s", s, view)
		}
	}

	// Cycling wraps through (unset), and left goes back.
	formPress(f, formKeys.Up, formKeys.Up, formKeys.Right, formKeys.Right, formKeys.Left) // metric → imperial → (unset) → imperial
	if focusedName(f) != "units" {
		t.Fatalf("focus %q, want units", focusedName(f))
	}
	if args, _ := f.Args(); args["units"] != "imperial" {
		t.Errorf("units = %v after cycling, want imperial", args["units"])
	}
	// Shift+tab wraps from the first field to the last.
	formPress(f, formKeys.Up, formKeys.Up, formKeys.ShiftTab)
	if focusedName(f) != "filter" {
		t.Errorf("focus %q, want filter", focusedName(f))
	}
}

func TestFormRequiredFieldNamed(t *testing.T) {
	f := newTestForm(t, searchToolJSON, 80, 30)
	formPress(f, formKeys.Tab)
	formType(f, "7")
	if _, ok := f.Args(); ok {
		t.Fatal("Args accepted arguments without the required query")
	}
	if e := fieldErr(f, "query"); !strings.Contains(e, "query") || !strings.Contains(e, "required") {
		t.Errorf("query's error is %q", e)
	}
	if focusedName(f) != "query" {
		t.Errorf("focus %q, want the field at fault", focusedName(f))
	}
	if !strings.Contains(ansi.Strip(f.View()), "✗ query: required but missing") {
		t.Errorf("the view does not show the error:\n%s", ansi.Strip(f.View()))
	}
	// Typing into the field clears its error.
	formType(f, "q")
	if e := fieldErr(f, "query"); e != "" {
		t.Errorf("error %q stays after typing", e)
	}
}

func TestFormSchemaRuleBesideField(t *testing.T) {
	f := newTestForm(t, searchToolJSON, 80, 30)
	formType(f, "cats")
	formPress(f, formKeys.Tab)
	formType(f, "500")
	formPress(f, formKeys.Tab)
	if _, ok := f.Args(); ok {
		t.Fatal("Args accepted limit 500 (maximum 50)")
	}
	e := fieldErr(f, "limit")
	if !strings.HasPrefix(e, "limit: ") || !strings.Contains(e, "50") {
		t.Errorf("limit's error is %q, want the schema's maximum rule", e)
	}
	if focusedName(f) != "limit" || fieldErr(f, "query") != "" {
		t.Errorf("focus %q, query error %q", focusedName(f), fieldErr(f, "query"))
	}
	// The error is drawn below the limit field, before the next one.
	lines := strings.Split(ansi.Strip(f.View()), "\n")
	at := func(s string) int {
		for i, l := range lines {
			if strings.Contains(l, s) {
				return i
			}
		}
		return -1
	}
	if el, li, ui := at("✗ limit:"), at("limit "), at("units"); !(li >= 0 && li < el && el < ui) {
		t.Errorf("error at line %d, limit at %d, units at %d:\n%s", el, li, ui, strings.Join(lines, "\n"))
	}

	// Text that is not an integer is caught before the schema.
	formPress(f, formKeys.Left, formKeys.Left, formKeys.Left)
	formType(f, "x")
	if _, ok := f.Args(); ok || !strings.Contains(fieldErr(f, "limit"), "not an integer") {
		t.Errorf("limit error %q", fieldErr(f, "limit"))
	}
	if f.Err() == nil {
		t.Error("Err is nil after a failed Args")
	}
}

func TestFormExamples(t *testing.T) {
	f := newTestForm(t, searchToolJSON, 80, 30)
	if !f.FillExample(1) {
		t.Fatal("FillExample(1) = false")
	}
	args, ok := f.Args()
	if !ok || !cmp.Equal(args, map[string]any{"query": "cats", "limit": int64(5)}) {
		t.Errorf("example 1 gives %v, %v (%v)", args, ok, f.Err())
	}
	if f.FillExample(0) || f.FillExample(4) {
		t.Error("FillExample accepted an example that does not exist")
	}

	formPress(f, altKey('2'))
	args, ok = f.Args()
	want := map[string]any{"query": "dogs", "units": "imperial", "tags": []any{"a", "b"}, "exact": true}
	if !ok {
		t.Fatalf("example 2: %v", f.Err())
	}
	if diff := cmp.Diff(want, args); diff != "" {
		t.Errorf("alt+2 fills (-want +got), and clears limit:\n%s", diff)
	}
	if f.jsonMode {
		t.Error("example 2 fits the form but switched to JSON")
	}

	// An example that breaks the schema still fills; Args names the problem.
	formPress(f, altKey('3'))
	if _, ok := f.Args(); ok || fieldErr(f, "limit") == "" {
		t.Errorf("example 3 (limit 500) passed: limit error %q", fieldErr(f, "limit"))
	}
	formPress(f, altKey('9'))
	if !strings.Contains(f.notice, "no input example 9") {
		t.Errorf("alt+9 notice %q", f.notice)
	}
}

func TestFormExamplePicker(t *testing.T) {
	f := newTestForm(t, searchToolJSON, 80, 30)
	formPress(f, formKeys.CtrlE)
	if !f.Picking() || !f.Editing() {
		t.Fatal("ctrl+e did not open the picker")
	}
	view := ansi.Strip(f.View())
	for _, s := range []string{"Input examples", `▸ 1 {"limit":5,"query":"cats"}`, `  3 {"limit":500,"query":"x"}`} {
		if !strings.Contains(view, s) {
			t.Errorf("picker lacks %q:\n%s", s, view)
		}
	}
	assertFits(t, f.View(), 80, 30)

	formPress(f, formKeys.Down, formKeys.Down, formKeys.Up, formKeys.Enter)
	if f.Picking() {
		t.Fatal("enter did not close the picker")
	}
	if args, _ := f.Args(); args["query"] != "dogs" {
		t.Errorf("enter on the second example filled %v", args)
	}

	formPress(f, formKeys.CtrlE)
	formType(f, "1")
	if args, _ := f.Args(); f.Picking() || args["query"] != "cats" {
		t.Errorf("digit 1 filled %v (picking %v)", args, f.Picking())
	}

	formPress(f, formKeys.CtrlE, formKeys.Esc)
	if f.Picking() {
		t.Error("esc did not close the picker")
	}
	if args, _ := f.Args(); args["query"] != "cats" {
		t.Errorf("closing the picker changed the arguments: %v", args)
	}

	none := newTestForm(t, `{"name":"plain","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}`, 80, 20)
	formPress(none, formKeys.CtrlE)
	if none.Picking() || !strings.Contains(ansi.Strip(none.View()), "no input examples") {
		t.Errorf("ctrl+e without examples: picking %v\n%s", none.Picking(), ansi.Strip(none.View()))
	}
}

func TestFormJSONToggle(t *testing.T) {
	f := newTestForm(t, searchToolJSON, 80, 30)
	formType(f, "cats")
	formPress(f, formKeys.Tab)
	formType(f, "4")
	formPress(f, formKeys.Tab, formKeys.Right, formKeys.Tab, formKeys.Tab, formKeys.Tab)
	formType(f, `{"lang": "en"}`)
	formPress(f, formKeys.CtrlT)
	if !f.jsonMode || !f.Editing() {
		t.Fatal("ctrl+t did not open the JSON editor")
	}
	wantJSON := "{\n  \"query\": \"cats\",\n  \"limit\": 4,\n  \"units\": \"metric\",\n  \"filter\": {\n    \"lang\": \"en\"\n  }\n}"
	if got := f.editor.Value(); got != wantJSON {
		t.Errorf("editor holds\n%s\nwant\n%s", got, wantJSON)
	}
	args, ok := f.Args()
	if !ok || args["limit"] != float64(4) {
		t.Errorf("Args from the editor: %v %v (%v)", args, ok, f.Err())
	}

	// Back to the form: the same values.
	formPress(f, formKeys.CtrlT)
	if f.jsonMode {
		t.Fatalf("ctrl+t did not go back to the form: %s", f.topErr)
	}
	args, ok = f.Args()
	want := map[string]any{"query": "cats", "limit": int64(4), "units": "metric", "filter": map[string]any{"lang": "en"}}
	if diff := cmp.Diff(want, args); !ok || diff != "" {
		t.Errorf("round trip (-want +got), ok %v:\n%s", ok, diff)
	}

	// Invalid JSON keeps you in the editor with the error shown.
	formPress(f, formKeys.CtrlT)
	formType(f, "oops")
	formPress(f, formKeys.CtrlT)
	if !f.jsonMode || !strings.Contains(f.topErr, "not valid JSON at line") {
		t.Fatalf("invalid JSON: json mode %v, error %q", f.jsonMode, f.topErr)
	}
	if view := ansi.Strip(f.View()); !strings.Contains(view, "✗ not valid JSON") {
		t.Errorf("the error is not shown:\n%s", view)
	}
	if _, ok := f.Args(); ok {
		t.Error("Args accepted invalid JSON")
	}

	// JSON the form cannot show (an argument the schema lacks) stays too.
	f.editor.SetValue(`{"query": "x", "extra": 1}`)
	formPress(f, formKeys.CtrlT)
	if !f.jsonMode || !strings.Contains(f.topErr, `"extra" is not in the input schema`) {
		t.Errorf("extra argument: json mode %v, error %q", f.jsonMode, f.topErr)
	}
}

func TestFormSetArgsThatDoNotFit(t *testing.T) {
	f := newTestForm(t, searchToolJSON, 80, 30)
	f.SetArgs(map[string]any{"query": "q", "limit": "five"})
	if !f.jsonMode || !strings.Contains(f.notice, "limit") {
		t.Fatalf("a string limit: json mode %v, notice %q", f.jsonMode, f.notice)
	}
	if _, ok := f.Args(); ok || !strings.Contains(f.topErr, "limit") {
		t.Errorf("Args let a string limit through: %q", f.topErr)
	}

	// Server text with escape sequences never reaches the screen raw.
	g := newTestForm(t, searchToolJSON, 80, 30)
	g.SetArgs(map[string]any{"query": "evil\x1b[31m\u202etext"})
	if !g.jsonMode {
		t.Fatal("a value with control characters went into a text input")
	}
	if v := g.editor.Value(); !strings.Contains(v, `evil\u001b[31m\u202etext`) {
		t.Errorf("editor holds %q", v)
	}
	if strings.Contains(g.View(), "\x1b[31m") || strings.Contains(g.View(), "\u202e") {
		t.Error("the view carries the server's escape sequence")
	}
	args, ok := g.Args()
	if !ok || args["query"] != "evil\x1b[31m\u202etext" {
		t.Errorf("the value changed on the way: %q %v", args["query"], ok)
	}
}

// Text that only measures differently once sanitized (an Indic cluster,
// an emoji with a skin tone, a soft hyphen) goes in the field as it is,
// and comes back out unchanged: the form does not drop to JSON for it.
func TestFormSetArgsOfTextThatOnlyMeasuresDifferently(t *testing.T) {
	for _, q := range []string{"नमस्ते", "vote 👍🏽", "wipe\u00addisk"} {
		f := newTestForm(t, searchToolJSON, 80, 30)
		f.SetArgs(map[string]any{"query": q})
		if f.jsonMode {
			t.Errorf("%+q: shown as JSON (%s)", q, f.notice)
			continue
		}
		if args, ok := f.Args(); !ok || args["query"] != q {
			t.Errorf("%+q: the value changed on the way: %+q %v", q, args["query"], ok)
		}
	}
}

func TestFormUntrustedSchemaText(t *testing.T) {
	f := newTestForm(t, `{"name":"x","inputSchema":{"type":"object","properties":{
		"na\u001b]0;pwned\u0007me": {"type":"string","description":"desc \u001b[2J cleared","default":"d\u001b[1m"},
		"pick": {"type":"string","enum":["a\u001b[5mb","c"]}}}}`, 80, 20)
	formPress(f, formKeys.Tab, formKeys.Space)
	view := f.View()
	for _, bad := range []string{"pwned", "\x1b[2J", "d\x1b[1m", "\x1b[5m", "\x07"} {
		if strings.Contains(view, bad) {
			t.Errorf("the view carries %q from the server:\n%q", bad, view)
		}
	}
	if plain := ansi.Strip(view); !strings.Contains(plain, "‹ ab ›") || !strings.Contains(plain, "desc  cleared") {
		t.Errorf("sanitized text missing:\n%s", plain)
	}
}

func TestFormNoArguments(t *testing.T) {
	f := newTestForm(t, `{"name":"ping"}`, 80, 10)
	if f.jsonMode || f.Editing() {
		t.Errorf("json mode %v, editing %v", f.jsonMode, f.Editing())
	}
	if view := ansi.Strip(f.View()); !strings.Contains(view, "this tool takes no arguments") {
		t.Errorf("view:\n%s", view)
	}
	formPress(f, formKeys.Tab, formKeys.Space, formKeys.Enter)
	args, ok := f.Args()
	if !ok || args == nil || len(args) != 0 {
		t.Errorf("Args = %v, %v; want {}", args, ok)
	}
}

func TestFormStartsInJSONForComplexSchemas(t *testing.T) {
	for name, schema := range map[string]string{
		"additionalProperties": `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}}`,
		"anyOf":                `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"anyOf":[{"required":["a"]},{"required":["b"]}]}`,
		"objects only":         `{"type":"object","properties":{"spec":{"type":"object"}}}`,
	} {
		f := newTestForm(t, `{"name":"x","inputSchema":`+schema+`}`, 80, 20)
		if !f.jsonMode {
			t.Errorf("%s: the form did not start in the JSON editor", name)
		}
	}
	// The anyOf rule is checked as a whole: it goes at the top.
	f := newTestForm(t, `{"name":"x","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"anyOf":[{"required":["a"]},{"required":["b"]}]}}`, 80, 20)
	f.editor.SetValue(`{}`)
	if _, ok := f.Args(); ok || f.topErr == "" {
		t.Errorf("anyOf unmet: ok %v, top error %q", ok, f.topErr)
	}
	f.editor.SetValue(`{"b": "x"}`)
	if args, ok := f.Args(); !ok || args["b"] != "x" {
		t.Errorf("anyOf met: %v %v (%v)", args, ok, f.Err())
	}
}

func TestFormScrollsToFocus(t *testing.T) {
	f := newTestForm(t, searchToolJSON, 60, 7)
	for range 5 {
		formPress(f, formKeys.Tab)
		assertFits(t, f.View(), 60, 7)
	}
	view := ansi.Strip(f.View())
	if focusedName(f) != "filter" || !strings.Contains(view, "▸ filter") || strings.Contains(view, "query") {
		t.Errorf("focused %q; view:\n%s", focusedName(f), view)
	}
	if !strings.Contains(view, "↑") {
		t.Errorf("no sign of the fields above:\n%s", view)
	}
	formPress(f, formKeys.Tab) // wraps to the top
	if view := ansi.Strip(f.View()); !strings.Contains(view, "▸ query") || !strings.Contains(view, "↓") {
		t.Errorf("after wrapping:\n%s", view)
	}
	for _, size := range [][2]int{{20, 3}, {10, 1}, {1, 1}, {200, 50}} {
		f.SetSize(size[0], size[1])
		assertFits(t, f.View(), size[0], size[1])
	}
}

func TestFormGolden(t *testing.T) {
	for _, width := range []int{80, 100} {
		f := newTestForm(t, searchToolJSON, width, 20)
		golden(t, fmt.Sprintf("mixed-%d", width), f.View())
		assertFits(t, f.View(), width, 20)
	}

	// The required query left empty.
	f := newTestForm(t, searchToolJSON, 80, 20)
	formPress(f, formKeys.Tab)
	formType(f, "7")
	formPress(f, formKeys.Tab, formKeys.Right, formKeys.Tab, formKeys.Space, formKeys.Tab)
	formType(f, "red, green")
	f.Args()
	golden(t, "required-80", f.View())
	assertFits(t, f.View(), 80, 20)

	// An integer out of range.
	f = newTestForm(t, searchToolJSON, 80, 20)
	formType(f, "cats")
	formPress(f, formKeys.Tab)
	formType(f, "500")
	formPress(f, formKeys.Tab)
	f.Args()
	golden(t, "limit-80", f.View())
	assertFits(t, f.View(), 80, 20)

	formPress(f, formKeys.CtrlE, formKeys.Down)
	golden(t, "picker-80", f.View())
	assertFits(t, f.View(), 80, 20)

	formPress(f, formKeys.Esc, formKeys.CtrlT)
	if !f.jsonMode {
		t.Fatalf("ctrl+t stayed in the form: %v", f.Err())
	}
	golden(t, "json-80", f.View())
	assertFits(t, f.View(), 80, 20)
}

func TestFormUnreadableSchema(t *testing.T) {
	f := newTestForm(t, `{"name":"odd","inputSchema":{"type":"object","properties":5}}`, 80, 20)
	if !f.jsonMode {
		t.Fatal("a schema without readable properties did not open the JSON editor")
	}
	if view := ansi.Strip(f.View()); !strings.Contains(view, "schema properties are a number, not an object; edit the arguments as JSON") {
		t.Errorf("view:\n%s", view)
	}
	formPress(f, formKeys.CtrlT)
	if !f.jsonMode || !strings.Contains(f.topErr, "the form is not available") {
		t.Errorf("ctrl+t: json mode %v, error %q", f.jsonMode, f.topErr)
	}
	f.editor.SetValue(`{"anything": [1, 2]}`)
	if args, ok := f.Args(); !ok || len(args) != 1 {
		t.Errorf("Args = %v, %v (%v)", args, ok, f.Err())
	}
}

func TestFormHelpAndPaste(t *testing.T) {
	f := newTestForm(t, searchToolJSON, 80, 20)
	keysOf := func() string {
		var s []string
		for _, b := range f.ShortHelp() {
			s = append(s, b.Help().Key)
		}
		return strings.Join(s, " ")
	}
	if got, want := keysOf(), "tab/↓ shift+tab/↑ alt+enter ctrl+t ctrl+e alt+1-9"; got != want {
		t.Errorf("help on a text field: %q, want %q", got, want)
	}
	f.Update(tea.PasteMsg{Content: "pasted text"})
	formPress(f, formKeys.Tab, formKeys.Tab)
	if got, want := keysOf(), "tab/↓ shift+tab/↑ space/←/→ ctrl+t ctrl+e alt+1-9"; got != want {
		t.Errorf("help on a choice: %q, want %q", got, want)
	}
	f.Update(tea.PasteMsg{Content: "ignored"}) // a choice takes no text
	formPress(f, formKeys.CtrlE)
	if got, want := keysOf(), "1-9/enter ↑/k ↓/j"; got != want {
		t.Errorf("help in the picker: %q, want %q", got, want)
	}
	formPress(f, formKeys.Esc, formKeys.CtrlT)
	if got, want := keysOf(), "ctrl+t ctrl+e alt+1-9"; got != want {
		t.Errorf("help in the JSON editor: %q, want %q", got, want)
	}
	formPress(f, formKeys.CtrlT)
	if args, ok := f.Args(); !ok || !cmp.Equal(args, map[string]any{"query": "pasted text"}) {
		t.Errorf("Args = %v, %v (%v)", args, ok, f.Err())
	}
}

// Submitting the form validates the arguments: against a schema that refers
// to itself without descending, that overflowed the stack in jsonschema-go
// and killed mcpsh with the terminal left raw.
func TestFormWithARecursiveSchema(t *testing.T) {
	for name, schema := range recursiveInputSchemas {
		f := newTestForm(t, `{"name":"x","inputSchema":`+schema+`}`, 80, 20)
		if !f.jsonMode {
			formPress(f, formKeys.CtrlT)
		}
		f.editor.SetValue(`{"children": [{"children": []}]}`)
		if _, ok := f.Args(); !ok {
			t.Errorf("%s: Args failed: %v", name, f.Err())
		}
		if name == "tree" {
			continue
		}
		if !strings.Contains(f.schemaNotice, "recursive schemas like this cannot be checked; arguments are sent unchecked") ||
			!strings.Contains(ansi.Strip(f.View()), "leads back to") {
			t.Errorf("%s: the form does not say the arguments go unchecked (notice %q):\n%s", name, f.schemaNotice, ansi.Strip(f.View()))
		}
	}
}

// A rule broken beside a field whose server-sent name carries escapes: the
// error names the field without them, and still lands beside it.
func TestFormRuleBesideAFieldWithAnUnsafeName(t *testing.T) {
	f := newTestForm(t, `{"name":"x","inputSchema":{"type":"object","properties":{
		"a": {"type":"string"},
		"n\u001b[31mame\u202e": {"type":"string","minLength":3}}}}`, 80, 20)
	name := "n\x1b[31mame\u202e"
	for i, ff := range f.fields {
		if ff.spec.Name == name {
			f.FocusField(i)
		}
	}
	formType(f, "ab")
	if _, ok := f.Args(); ok {
		t.Fatal("minLength 3 passed with 2 characters")
	}
	if e := fieldErr(f, name); !strings.Contains(e, "minLength") || strings.ContainsAny(e, "\x1b\u202e") {
		t.Errorf("error beside the field %q; top error %q", e, f.topErr)
	}
}

// A text field takes several lines: enter moves to the next field, the
// Newline key (alt+enter, ctrl+j) breaks the line, and pasted lines keep
// their breaks; a value of several lines fills the form again without
// turning it to JSON. A number stays on one line.
func TestATextFieldTakesSeveralLines(t *testing.T) {
	f := newTestForm(t, searchToolJSON, 80, 20)
	formType(f, "first")
	formPress(f, tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt})
	formType(f, "second")
	formPress(f, tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
	f.Update(tea.PasteMsg{Content: "third\nfourth"})
	if got := f.View(); !strings.Contains(got, "second") || !strings.Contains(got, "fourth") {
		t.Fatalf("the field does not show its lines:\n%s", got)
	}
	args, ok := f.Args()
	if want := "first\nsecond\nthird\nfourth"; !ok || args["query"] != want {
		t.Fatalf("Args = %q, %v (%v); want query %q", args, ok, f.Err(), want)
	}
	formPress(f, formKeys.Enter) // enter moves on
	if f.focus == 0 {
		t.Fatal("enter stayed in the field of several lines")
	}
	if got := f.fields[f.focus].spec.Name; got != "limit" {
		t.Fatalf("focus on %q after enter, want limit", got)
	}
	formType(f, "5")
	formPress(f, tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt})
	if f.fields[f.focus].area != nil {
		t.Fatal("a number field took a line break")
	}

	g := newTestForm(t, searchToolJSON, 80, 20)
	g.SetArgs(map[string]any{"query": "a\nb", "limit": 5.0})
	if g.jsonMode {
		t.Fatalf("a value of two lines turned the form to JSON: %s", g.notice)
	}
	if args, ok := g.Args(); !ok || args["query"] != "a\nb" {
		t.Fatalf("refilled Args = %q, %v (%v)", args, ok, g.Err())
	}
	assertFits(t, g.View(), 80, 20)
}
