package form

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/style"
)

// The elicitation shapes of the 2025-11-25 spec, as a server would ask.
const elicitFormSchema = `{"type":"object","properties":{
	"name":{"type":"string","title":"Your name","minLength":1,"maxLength":50},
	"email":{"type":"string","title":"Email","format":"email","description":"where we write back"},
	"age":{"type":"integer","title":"Age","minimum":0,"maximum":150,"default":30},
	"score":{"type":"number","minimum":0,"maximum":1},
	"subscribe":{"type":"boolean","title":"Subscribe","default":true},
	"size":{"type":"string","enum":["s","m","l"],"default":"m"},
	"colour":{"type":"string","title":"Colour","oneOf":[{"const":"#f00","title":"Red"},{"const":"#0f0","title":"Green"}],"default":"#0f0"},
	"legacy":{"type":"string","enum":["a","b"],"enumNames":["Alpha","Beta"]},
	"toppings":{"type":"array","title":"Toppings","items":{"type":"string","enum":["cheese","ham","olives"]},"maxItems":2,"default":["cheese"]},
	"pets":{"type":"array","items":{"anyOf":[{"const":"cat","title":"Cat"},{"const":"dog","title":"Dog"}]}}},
 "required":["name","email"]}`

func newElicitForm(t *testing.T, width, height int) *ArgForm {
	t.Helper()
	sc := client.ReadSchema("the server's form", "requested", json.RawMessage(elicitFormSchema))
	f := NewSchemaForm("the server's form", sc, nil, style.NewStyles(theme.Dark(), true), keymap.Default(), WithDefaultsFilled(), WithTitleLabels())
	f.SetSize(width, height)
	return f
}

func fieldNamed(f *ArgForm, name string) *formField {
	for _, ff := range f.fields {
		if ff.spec.Name == name {
			return ff
		}
	}
	return nil
}

func TestSchemaFormElicitation(t *testing.T) {
	f := newElicitForm(t, 80, 30)
	if f.jsonMode || f.Tool() != nil || focusedName(f) != "name" {
		t.Fatalf("json mode %v, tool %v, focus %q", f.jsonMode, f.Tool(), focusedName(f))
	}
	// Defaults are filled in: what is sent is what the user sees.
	formType(f, "Ada")
	formPress(f, formKeys.Tab)
	formType(f, "ada@example.com")
	args, ok := f.Args()
	want := map[string]any{"name": "Ada", "email": "ada@example.com", "age": int64(30), "subscribe": true,
		"size": "m", "colour": "#0f0", "toppings": []any{"cheese"}}
	if diff := cmp.Diff(want, args); !ok || diff != "" {
		t.Fatalf("Args ok %v (%v) (-want +got):\n%s", ok, f.Err(), diff)
	}
	view := ansi.Strip(f.View())
	for _, s := range []string{"Your name*", "Email*", "‹ Green › 2/2", "‹ [x] cheese › 1/3 · cheese", "30", "‹ (unset) › 2 choices",
		"format email · where we write back"} {
		if !strings.Contains(view, s) {
			t.Errorf("view lacks %q:\n%s", s, view)
		}
	}

	// A multi-select: → moves, space picks; a third topping breaks maxItems.
	focus(t, f, "toppings")
	formPress(f, formKeys.Right, formKeys.Space, formKeys.Right, formKeys.Space)
	if _, ok := f.Args(); ok || !strings.Contains(fieldErr(f, "toppings"), "maxItems") || focusedName(f) != "toppings" {
		t.Errorf("three toppings passed: error %q, focus %q", fieldErr(f, "toppings"), focusedName(f))
	}
	formPress(f, formKeys.Left, formKeys.Left, formKeys.Space) // unpick cheese
	if args, ok := f.Args(); !ok || !cmp.Equal(args["toppings"], []any{"ham", "olives"}) {
		t.Errorf("toppings %v (%v)", args["toppings"], f.Err())
	}
	// Titled choices pick values by their titles.
	focus(t, f, "colour")
	formPress(f, formKeys.Left)
	focus(t, f, "legacy")
	formPress(f, formKeys.Space, formKeys.Space)
	focus(t, f, "pets")
	formPress(f, formKeys.Space, formKeys.Right, formKeys.Space)
	args, _ = f.Args()
	if args["colour"] != "#f00" || args["legacy"] != "b" || !cmp.Equal(args["pets"], []any{"cat", "dog"}) {
		t.Errorf("colour %v, legacy %v, pets %v", args["colour"], args["legacy"], args["pets"])
	}
	if v := ansi.Strip(f.View()); !strings.Contains(v, "‹ Red ›") || !strings.Contains(v, "‹ Beta ›") || !strings.Contains(v, "Cat, Dog") {
		t.Errorf("titles not shown:\n%s", v)
	}
	// Bounds are checked beside the field.
	focus(t, f, "age")
	formPress(f, formKeys.Left) // 3|0
	formType(f, "1")
	if _, ok := f.Args(); ok || !strings.Contains(fieldErr(f, "age"), "maximum: 310 is greater than 150") {
		t.Errorf("age 310: %q", fieldErr(f, "age"))
	}
	assertFits(t, f.View(), 80, 30)
}

// focus moves the form's focus to the named field, as tab would.
func focus(t *testing.T, f *ArgForm, name string) {
	t.Helper()
	for range f.fields {
		if focusedName(f) == name {
			return
		}
		formPress(f, formKeys.Tab)
	}
	t.Fatalf("no field %q", name)
}

func TestSchemaFormGolden(t *testing.T) {
	f := newElicitForm(t, 80, 30)
	golden(t, "elicit-80", f.View())
	assertFits(t, f.View(), 80, 30)

	f.Args() // name and email are required
	focus(t, f, "toppings")
	formPress(f, formKeys.Right)
	golden(t, "elicit-required-80", f.View())
	assertFits(t, f.View(), 80, 30)
}

func TestSchemaFormValidateAndJSON(t *testing.T) {
	sc := client.ReadSchema("ask", "requested", json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","default":2}}}`))
	called := 0
	f := NewSchemaForm("ask", sc, func(v map[string]any) error {
		called++
		if v["n"] == int64(7) {
			return errors.New("seven is not allowed")
		}
		return nil
	}, style.NewStyles(theme.Dark(), true), keymap.Default())
	f.SetSize(80, 10)
	if args, ok := f.Args(); !ok || len(args) != 0 || called != 1 {
		t.Errorf("defaults are placeholders without WithDefaultsFilled: %v %v, called %d", args, ok, called)
	}
	formType(f, "7")
	if _, ok := f.Args(); ok || f.topErr != "seven is not allowed" {
		t.Errorf("the caller's check: ok %v, %q", ok, f.topErr)
	}
	formPress(f, formKeys.CtrlE)
	if !strings.Contains(f.notice, "there are no examples") {
		t.Errorf("notice %q", f.notice)
	}

	// A schema a form cannot express opens on JSON, with its defaults.
	whole := client.ReadSchema("ask", "requested", json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","default":"x"}},"anyOf":[{"required":["a"]}]}`))
	g := NewSchemaForm("ask", whole, nil, style.NewStyles(theme.Dark(), true), keymap.Default(), WithDefaultsFilled())
	if !g.jsonMode || g.editor.Value() != "{\n  \"a\": \"x\"\n}" {
		t.Errorf("json mode %v, editor %q", g.jsonMode, g.editor.Value())
	}
	none := NewSchemaForm("ask", nil, nil, style.NewStyles(theme.Dark(), true), keymap.Default())
	none.SetSize(80, 5)
	if !strings.Contains(ansi.Strip(none.View()), "nothing to fill in") {
		t.Errorf("empty form:\n%s", ansi.Strip(none.View()))
	}
	bad := NewSchemaForm("ask", client.ReadSchemaText(json.RawMessage(`{"properties":5}`)), nil, style.NewStyles(theme.Dark(), true), keymap.Default())
	bad.SetSize(80, 5)
	if !strings.Contains(ansi.Strip(bad.View()), "schema properties are a number, not an object; edit") {
		t.Errorf("unreadable:\n%s", ansi.Strip(bad.View()))
	}
}

// A tool's form follows the $refs pydantic writes, through the tool's
// checked schema, as key=value does.
func TestFormFollowsRefs(t *testing.T) {
	f := newTestForm(t, `{"name":"paint","inputSchema":{"type":"object",
		"$defs":{"Color":{"enum":["red","green"],"title":"Color","type":"string"}},
		"properties":{"color":{"$ref":"#/$defs/Color"},"maybe":{"anyOf":[{"$ref":"#/$defs/Color"},{"type":"null"}],"default":null}}}}`, 80, 20)
	if f.jsonMode || fieldNamed(f, "color").spec.Kind != kindEnum || fieldNamed(f, "maybe").spec.Kind != kindEnum {
		t.Fatalf("json mode %v; kinds %v %v", f.jsonMode, fieldNamed(f, "color").spec.Kind, fieldNamed(f, "maybe").spec.Kind)
	}
	formPress(f, formKeys.Space, formKeys.Tab, formKeys.Space, formKeys.Space)
	if args, ok := f.Args(); !ok || !cmp.Equal(args, map[string]any{"color": "red", "maybe": "green"}) {
		t.Errorf("args %v %v (%v)", args, ok, f.Err())
	}
	if v := ansi.Strip(f.View()); !strings.Contains(v, "string enum") {
		t.Errorf("view:\n%s", v)
	}
}

// agreement is one value typed both ways: as key=value (key:=value for JSON
// text in a JSON field, whose bare words are strings) and into the form's field (a choice picks the option the text
// names, by title or value; a multi-select picks each of a comma list).
var agreement = []struct {
	prop, text string
	want       string // the value as JSON, or "error"
}{
	{`{"type":"string"}`, " cats ", `" cats "`},
	{`{"type":"integer"}`, " 3", `3`},
	{`{"type":"integer"}`, "x", `error`},
	{`{"type":"number"}`, "0.5", `0.5`},
	{`{"type":"boolean"}`, "true", `true`},
	{`{"type":["integer","null"]}`, "null", `null`},
	{`{"type":["null","array"],"items":{"type":"string"}}`, "x, y", `["x","y"]`},
	{`{"anyOf":[{"type":"string"},{"type":"null"}]}`, "null", `"null"`},
	{`{"anyOf":[{"type":"integer"},{"type":"null"}]}`, "null", `null`},
	{`{"anyOf":[{"type":"integer"},{"type":"null"}]}`, "12", `12`},
	{`{"anyOf":[{"const":"auto","type":"string"},{"type":"integer"}]}`, "5", `5`},
	{`{"anyOf":[{"const":"auto","type":"string"},{"type":"integer"}]}`, "auto", `"auto"`},
	{`{"type":["boolean","string"]}`, "yes", `"yes"`},
	{`{"type":["boolean","string"]}`, "true", `true`},
	{`{"type":"integer","enum":[1,2,3]}`, "2", `2`},
	{`{"enum":["a",1,true]}`, "1", `1`},
	{`{"const":3}`, "3", `3`},
	{`{"type":"string","oneOf":[{"const":"#f00","title":"Red"},{"const":"#0f0","title":"Green"}]}`, "Red", `"#f00"`},
	{`{"type":"string","enum":["a","b"],"enumNames":["Alpha","Beta"]}`, "Beta", `"b"`},
	{`{"type":"array","items":{"type":"string"}}`, "a, b", `["a","b"]`},
	{`{"type":"array","items":{"type":"integer"}}`, "1, 2", `[1,2]`},
	{`{"type":"array","items":{"type":"integer"}}`, "1, x", `error`},
	{`{"type":"array","items":{"type":"string"}}`, `["a,b"]`, `["a,b"]`},
	{`{"type":"array","items":{"type":"string","enum":["cheese","ham","olives"]}}`, "ham, olives", `["ham","olives"]`},
	{`{"type":"array","items":{"anyOf":[{"const":"cat","title":"Cat"},{"const":"dog","title":"Dog"}]}}`, "Cat, Dog", `["cat","dog"]`},
	{`{"type":"array","items":[{"type":"integer"}]}`, "1,2", `["1","2"]`},
	{`{"type":"object"}`, `{"a": 1}`, `{"a":1}`},
	{`{}`, "5", `5`},       // a JSON field: key:=5
	{`{}`, "abc", `"abc"`}, // …that takes a bare word as a string
	{`{"allOf":[{"type":"integer"}],"not":{"const":4}}`, "4", `4`},
}

func TestFormAgreesWithKeyValue(t *testing.T) {
	var props []string
	for i, row := range agreement {
		props = append(props, fmt.Sprintf(`"p%d":%s`, i, row.prop))
	}
	sc := client.ReadSchema("agree", "input", json.RawMessage(`{"type":"object","properties":{`+strings.Join(props, ",")+`}}`))
	f := NewSchemaForm("agree", sc, nil, style.NewStyles(theme.Dark(), true), keymap.Default())
	for i, row := range agreement {
		name := fmt.Sprintf("p%d", i)
		ff := fieldNamed(f, name)
		pair := name + "=" + row.text
		if ff.spec.Kind == kindJSON && json.Valid([]byte(row.text)) {
			pair = name + ":=" + row.text
		}
		args, kvErr := sc.ParseArgs([]string{pair})
		formVal, formErr := enterText(ff, row.text)
		if row.want == "error" {
			if kvErr == nil || formErr == nil {
				t.Errorf("%s %q: key=value %v (%v), form %v (%v); want errors", row.prop, row.text, args[name], kvErr, formVal, formErr)
			}
			continue
		}
		if kvErr != nil || formErr != nil {
			t.Errorf("%s %q: key=value error %v, form error %v", row.prop, row.text, kvErr, formErr)
			continue
		}
		if kv, fv := compactJSON(args[name]), compactJSON(formVal); kv != row.want || fv != row.want {
			t.Errorf("%s %q: key=value %s, form %s; want %s", row.prop, row.text, kv, fv, row.want)
		}
	}
}

// enterText gives a field text the way a user would: typed into an input,
// or the options it names picked.
func enterText(ff *formField, text string) (any, error) {
	ff.clear()
	pick := func(s string) int {
		for i := range ff.options {
			if ff.labels[i] == s || valueText(ff.options[i]) == s {
				return i
			}
		}
		return -1
	}
	switch ff.spec.Kind {
	case kindBoolean, kindEnum:
		i := pick(text)
		if i < 0 {
			return nil, fmt.Errorf("no option %q", text)
		}
		ff.choice = i + 1
	case kindMulti:
		for _, s := range strings.Split(text, ",") {
			i := pick(strings.TrimSpace(s))
			if i < 0 {
				return nil, fmt.Errorf("no option %q", s)
			}
			ff.choice = i + 1
			ff.toggle()
		}
	default:
		ff.input.SetValue(text)
	}
	v, _, err := ff.value()
	return v, err
}

// Titles are the server's text, like names: drawn safe wherever they show.
func TestSchemaFormUntrustedTitles(t *testing.T) {
	sc := client.ReadSchema("ask", "requested", json.RawMessage(`{"type":"object","properties":{
		"a":{"type":"string","title":"Na\u001b]0;pwned\u0007me","minLength":2},
		"b":{"type":"string","oneOf":[{"const":"x","title":"E\u001b[31mvil\u202e"}]},
		"c":{"type":"array","items":{"anyOf":[{"const":"y","title":"Bi\u001b[5mdi"}]},"default":["y"]}}}`))
	f := NewSchemaForm("ask", sc, nil, style.NewStyles(theme.Dark(), true), keymap.Default(), WithTitleLabels(), WithDefaultsFilled())
	f.SetSize(80, 20)
	formType(f, "z")
	f.Args()
	view := f.View()
	for _, bad := range []string{"pwned", "\x1b[31m", "\x1b[5m", "\u202e", "\x07"} {
		if strings.Contains(view, bad) {
			t.Errorf("the view carries %q:\n%q", bad, view)
		}
	}
	if plain := ansi.Strip(view); !strings.Contains(plain, "✗ Name: minLength") || !strings.Contains(plain, "[x] Bidi") {
		t.Errorf("view:\n%s", plain)
	}
}
