package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// formField is one property in the argument editor: a text input, or a
// choice for booleans and enums.
type formField struct {
	spec    fieldSpec
	input   textinput.Model // text kinds
	options []any           // choice kinds; choice 0 is (unset), i is options[i-1]
	choice  int
	err     string // the last problem with the value, shown below the field
}

func newFormField(spec fieldSpec, st *Styles) *formField {
	ff := &formField{spec: spec}
	switch spec.Kind {
	case kindBoolean:
		ff.options = []any{true, false}
		return ff
	case kindEnum:
		ff.options = spec.Enum
		return ff
	}
	ff.input = textinput.New()
	ff.input.Prompt = ""
	ff.input.SetStyles(inputStyles(st))
	ff.input.Placeholder = termtext.Line(ff.placeholder())
	return ff
}

// inputStyles dresses a text input in mcpsh's styles, with a steady cursor
// (no blink timers).
func inputStyles(st *Styles) textinput.Styles {
	state := textinput.StyleState{Text: st.Row, Placeholder: st.Muted, Suggestion: st.Muted, Prompt: st.Muted}
	return textinput.Styles{
		Focused: state,
		Blurred: state,
		Cursor:  textinput.CursorStyle{Shape: tea.CursorBlock},
	}
}

func (ff *formField) isChoice() bool {
	return ff.spec.Kind == kindBoolean || ff.spec.Kind == kindEnum
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
	if ff.isChoice() {
		return nil
	}
	return ff.input.Focus()
}

func (ff *formField) blur() {
	if !ff.isChoice() {
		ff.input.Blur()
	}
}

func (ff *formField) clear() {
	ff.choice = 0
	ff.err = ""
	if !ff.isChoice() {
		ff.input.SetValue("")
	}
}

// cycle moves a choice by delta, wrapping through (unset).
func (ff *formField) cycle(delta int) {
	n := len(ff.options) + 1
	ff.choice = ((ff.choice+delta)%n + n) % n
	ff.err = ""
}

// value reads the field: set is false when it is left empty (the argument is
// then left out). Text is typed by the schema exactly like key=value on the
// command line, except that JSON fields take JSON.
func (ff *formField) value(tool *client.Tool) (v any, set bool, err error) {
	if ff.isChoice() {
		if ff.choice == 0 || ff.choice > len(ff.options) {
			return nil, false, nil
		}
		return ff.options[ff.choice-1], true, nil
	}
	text := ff.input.Value()
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return nil, false, nil
	}
	name := ff.spec.Name
	switch ff.spec.Kind {
	case kindString:
		v, err = tool.ParseValue(name, text, false)
	case kindArray:
		if !strings.HasPrefix(trimmed, "[") {
			parts := strings.Split(trimmed, ",")
			for i := range parts {
				parts[i] = strings.TrimSpace(parts[i])
			}
			trimmed = strings.Join(parts, ",")
		}
		v, err = tool.ParseValue(name, trimmed, false)
	case kindJSON:
		v, err = tool.ParseValue(name, trimmed, true)
		if err != nil {
			if !strings.ContainsRune(`{["`, rune(trimmed[0])) {
				// A bare word is a string, so "optional string" fields
				// (anyOf string/null) need no quotes.
				return text, true, nil
			}
			var x any
			jerr := json.Unmarshal([]byte(trimmed), &x)
			return nil, true, fmt.Errorf("not valid JSON: %v", jerr)
		}
	default:
		v, err = tool.ParseValue(name, trimmed, false)
	}
	return v, true, err
}

// set shows v in the field, and reports false when the field cannot hold it
// exactly (a value of the wrong type, text with control characters): the
// caller then shows the arguments as JSON instead.
func (ff *formField) set(tool *client.Tool, v any) bool {
	ff.err = ""
	if ff.isChoice() {
		for i, o := range ff.options {
			if jsonEqual(o, v) {
				ff.choice = i + 1
				return true
			}
		}
		return false
	}
	for _, text := range ff.candidates(v) {
		if text == "" || termtext.Sanitize(text) != text || strings.ContainsAny(text, "\n\t") {
			continue
		}
		ff.input.SetValue(text)
		if ff.input.Value() != text {
			continue
		}
		got, set, err := ff.value(tool)
		if err == nil && set && jsonEqual(got, v) {
			ff.input.CursorEnd()
			return true
		}
	}
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

// choiceView shows a choice as ‹ value › with its place among the others.
func (ff *formField) choiceView(st *Styles, focused bool) string {
	cur := "(unset)"
	if ff.spec.HasDefault {
		cur = "(default: " + valueText(ff.spec.Default) + ")"
	}
	style := st.Muted
	if ff.choice > 0 && ff.choice <= len(ff.options) {
		cur, style = valueText(ff.options[ff.choice-1]), st.Row
	}
	arrows := st.Muted
	if focused {
		arrows = st.Focused
	}
	pos := fmt.Sprintf(" %d/%d", ff.choice, len(ff.options))
	if ff.choice == 0 {
		pos = fmt.Sprintf(" %d choices", len(ff.options))
		if len(ff.options) == 1 {
			pos = " 1 choice"
		}
	}
	return arrows.Render("‹ ") + style.Render(termtext.Line(cur)) + arrows.Render(" ›") + st.Muted.Render(pos)
}

// render draws the field's lines: name and input, then type, rules and
// description, then the error if any. labelW is the name column's width.
func (ff *formField) render(st *Styles, width, labelW int, focused bool) []string {
	indent := 2 + labelW + 2
	name := termtext.Line(ff.spec.Name)
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
	if ff.isChoice() {
		input = ff.choiceView(st, focused)
	} else {
		input = ff.input.View()
	}
	first := st.Focused.Render(marker) + nameStyle.Render(name) + strings.Repeat(" ", max(labelW-ansi.StringWidth(name), 0)+2) + input
	lines := []string{first}

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
