package form

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/style"
)

// formField is one property in the editor: a text input, or a choice for
// booleans and enums, or a multi-select for arrays of enum items.
type formField struct {
	spec    FieldSpec
	label   string          // the name, or the title when the form labels by titles
	input   textinput.Model // text kinds
	area    *textarea.Model // a text kind's value of several lines (formmultiline.go); nil on one line
	st      *style.Styles
	options []any    // choice kinds; choice 0 is (unset), i is options[i-1]
	labels  []string // how each option shows: its title, or the value
	choice  int      // the option chosen, 0 for (unset); a multi-select's cursor, from 1
	picks   []int    // a multi-select's picks, indexes into options in the order picked
	err     string   // the last problem with the value, shown below the field
}

func newFormField(spec FieldSpec, st *style.Styles, titles bool) *formField {
	ff := &formField{spec: spec, label: spec.Name, st: st}
	if titles && spec.Title != "" {
		ff.label = spec.Title
	}
	switch spec.Kind {
	case kindBoolean:
		ff.options, ff.labels = []any{true, false}, []string{"true", "false"}
		return ff
	case kindEnum:
		ff.options = spec.Enum
		ff.labels = optionLabels(spec.Field)
		return ff
	case kindMulti:
		ff.options = spec.Items.Enum
		ff.labels = optionLabels(spec.Items)
		ff.choice = 1
		return ff
	}
	ff.input = textinput.New()
	ff.input.Prompt = ""
	ff.input.SetStyles(st.TextInput())
	ff.input.Placeholder = termtext.Line(ff.placeholder())
	return ff
}

func (ff *formField) isChoice() bool {
	switch ff.spec.Kind {
	case kindBoolean, kindEnum, kindMulti:
		return true
	}
	return false
}

// placeholder is what an empty input shows: the server's default (which the
// server applies itself when the argument is left out), or a hint.
func (ff *formField) placeholder() string {
	if ff.spec.HasDefault {
		switch ff.spec.Kind {
		case kindArray, kindJSON:
			return "default: " + compactJSON(ff.spec.Default)
		}
		return "default: " + valueText(ff.spec.Default)
	}
	switch ff.spec.Kind {
	case kindArray:
		return "a, b, c or a JSON array"
	case kindJSON:
		return "JSON"
	}
	return ""
}

func (ff *formField) focus() tea.Cmd {
	switch {
	case ff.isChoice():
		return nil
	case ff.area != nil:
		return ff.area.Focus()
	}
	return ff.input.Focus()
}

func (ff *formField) blur() {
	switch {
	case ff.isChoice():
	case ff.area != nil:
		ff.area.Blur()
	default:
		ff.input.Blur()
	}
}

func (ff *formField) clear() {
	ff.choice = 0
	ff.err = ""
	switch {
	case ff.spec.Kind == kindMulti:
		ff.choice = 1
		ff.picks = nil
	case !ff.isChoice():
		ff.area = nil
		ff.input.SetValue("")
	}
}

// value reads the field: set is false when it is left empty (the argument is
// then left out). Text is typed by the schema exactly like key=value on the
// command line (client.Field.Parse); a JSON field takes what key:=value
// takes, or else a bare word as a string.
func (ff *formField) value() (v any, set bool, err error) {
	switch ff.spec.Kind {
	case kindMulti:
		var out []any
		for _, i := range ff.picks {
			out = append(out, ff.options[i])
		}
		return out, out != nil, nil
	case kindBoolean, kindEnum:
		if ff.choice == 0 || ff.choice > len(ff.options) {
			return nil, false, nil
		}
		return ff.options[ff.choice-1], true, nil
	}
	text := ff.text()
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return nil, false, nil
	}
	if ff.spec.Kind != kindJSON {
		v, err = ff.spec.Parse(text)
		return v, true, err
	}
	v, err = client.ParseJSON(trimmed)
	if err != nil {
		if !strings.ContainsRune(`{["`, rune(trimmed[0])) {
			// A bare word is a string: untyped fields need no quotes.
			return text, true, nil
		}
		var x any
		jerr := json.Unmarshal([]byte(trimmed), &x)
		return nil, true, fmt.Errorf("not valid JSON: %v", jerr)
	}
	return v, true, nil
}

// set shows v in the field, and reports false when the field cannot hold it
// exactly (a value of the wrong type, text with control characters or more
// than one line): the caller then shows the arguments as JSON instead.
// Text that only measures differently once sanitized (an Indic cluster, an
// emoji with a skin tone) is held as it is: the JSON editor would show it
// the same way.
func (ff *formField) set(v any) bool {
	ff.err = ""
	switch ff.spec.Kind {
	case kindMulti:
		return ff.setPicks(v)
	case kindBoolean, kindEnum:
		for i, o := range ff.options {
			if jsonEqual(o, v) {
				ff.choice = i + 1
				return true
			}
		}
		return false
	}
	for _, text := range ff.candidates(v) {
		if text == "" || !strings.Contains(text, "\n") && !termtext.SafeLine(text) {
			continue
		}
		if !ff.setText(ff.st, text) {
			continue
		}
		got, set, err := ff.value()
		if err == nil && set && jsonEqual(got, v) {
			ff.input.CursorEnd()
			return true
		}
	}
	ff.area = nil
	ff.input.SetValue("")
	return false
}

// candidates are texts that might read back as v, friendliest first.
func (ff *formField) candidates(v any) []string {
	switch ff.spec.Kind {
	case kindArray:
		out := []string{}
		if items, ok := v.([]any); ok && len(items) > 0 {
			parts := make([]string, 0, len(items))
			for _, it := range items {
				s := valueText(it)
				if s == "" || strings.Contains(s, ",") || strings.TrimSpace(s) != s {
					parts = nil
					break
				}
				parts = append(parts, s)
			}
			if parts != nil {
				out = append(out, strings.Join(parts, ", "))
			}
		}
		return append(out, compactJSON(v))
	case kindJSON:
		if s, ok := v.(string); ok {
			return []string{s, compactJSON(v)}
		}
		return []string{compactJSON(v)}
	}
	return []string{valueText(v)}
}

func jsonEqual(a, b any) bool { return compactJSON(a) == compactJSON(b) }

// render draws the field's lines: name and input, then type, rules and
// description, then the error if any. labelW is the name column's width.
func (ff *formField) render(st *style.Styles, width, labelW int, focused bool) []string {
	indent := 2 + labelW + 2
	name := termtext.Line(ff.label)
	req := ""
	if ff.spec.Required {
		req = "*"
	}
	name = termtext.Truncate(name, labelW-ansi.StringWidth(req)) + req
	marker, nameStyle := "  ", st.Row
	if focused {
		marker, nameStyle = "▸ ", st.Focused
	}
	var input string
	var more []string // an area's lines after its first
	switch {
	case ff.isChoice():
		input = ff.choiceView(st, focused)
	case ff.area != nil:
		input, more = ff.areaLines()
	default:
		input = ff.input.View()
	}
	first := st.Focused.Render(marker) + termtext.Pad(nameStyle.Render(name), labelW) + "  " + input
	lines := []string{first}
	for _, l := range more {
		lines = append(lines, strings.Repeat(" ", indent)+l)
	}

	info := []string{ff.spec.TypeLabel()}
	if c := termtext.Line(ff.spec.Constraints); c != "" {
		info = append(info, c)
	}
	if d := termtext.Line(ff.spec.Description); d != "" {
		info = append(info, d)
	}
	room := max(width-indent, 1)
	second := st.Label.Render(ff.spec.TypeLabel())
	if rest := strings.Join(info[1:], " · "); rest != "" {
		second += st.Muted.Render(termtext.Truncate(" · "+rest, max(room-ansi.StringWidth(ff.spec.TypeLabel()), 0)))
	}
	lines = append(lines, strings.Repeat(" ", indent)+second)

	if ff.err != "" {
		for _, l := range strings.Split(ansi.Wrap("✗ "+termtext.Line(ff.err), room, ""), "\n") {
			lines = append(lines, strings.Repeat(" ", indent)+st.Error.Render(l))
		}
	}
	for i, l := range lines {
		lines[i] = termtext.Truncate(l, width)
	}
	return lines
}
