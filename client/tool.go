package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpsh/mcpsh/policy"
)

// Tool is one tool as the server declared it, read from the wire so that a hint
// the server left out stays distinguishable from one it set to false.
type Tool struct {
	Name        string
	Title       string // display title: title, else annotations.title, else name
	ToolTitle   string // the tool's own title, as sent
	AnnTitle    string // annotations.title, as sent
	Description string
	Hints       policy.Hints
	// Declared holds the hints the server sent, exactly as sent (null and
	// wrongly typed values included), keyed by wire name.
	Declared map[string]json.RawMessage
	// HasAnnotations is false when the server sent no annotations object at all.
	HasAnnotations bool
	InputSchema    json.RawMessage
	OutputSchema   json.RawMessage
	// Examples are the object entries of _meta.inputExamples. They are the
	// server's data, not trusted: validate before use.
	Examples []map[string]any
	// Problems are things wrong with the declaration that mcpsh worked around,
	// e.g. a hint sent as a string. They never stop the tool from being used.
	Problems []string
	Raw      json.RawMessage
	// TaskSupport is the tool's execution.taskSupport (protocol
	// 2025-11-25): TaskRequired, TaskOptional, or "" (forbidden, the
	// default, or anything else sent).
	TaskSupport string

	schemas schemaCache
}

type schemaCache struct {
	once        sync.Once
	input       *checkedSchema
	inputErr    error
	output      *checkedSchema
	outputErr   error
	inputNotice string
	// argsOnce reads the input schema for ParseArgs once: a script of many
	// calls to one tool would read it again for every line.
	argsOnce sync.Once
	args     *Schema
}

// Effective is the tool's behaviour after the spec defaults.
func (t *Tool) Effective() policy.Effective { return t.Hints.Effective() }

// Class is the tool's safety group.
func (t *Tool) Class() policy.Class { return t.Hints.Class() }

// wireTool mirrors a tool on the wire with every field raw, so one malformed
// field spoils that field only.
type wireTool struct {
	Name         json.RawMessage `json:"name"`
	Title        json.RawMessage `json:"title"`
	Description  json.RawMessage `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
	Annotations  json.RawMessage `json:"annotations"`
	Meta         json.RawMessage `json:"_meta"`
	Execution    json.RawMessage `json:"execution"`
}

// parseTool reads one tool. Only a missing or non-string name is fatal: without
// a name the tool cannot be called.
func parseTool(raw json.RawMessage) (*Tool, error) {
	if !json.Valid(raw) {
		return parseToolSlow(raw)
	}
	return parseValidTool(raw)
}

// parseValidTool is parseTool for raw known to be valid JSON, as every item
// parseListPage cuts from a page is: the plain case is read in one pass
// (toolFast, listfast.go), anything else by parseToolSlow.
func parseValidTool(raw json.RawMessage) (*Tool, error) {
	if t, ok := toolFast(raw); ok {
		return t, nil
	}
	return parseToolSlow(raw)
}

// parseToolSlow is parseTool by encoding/json, which names what is wrong.
func parseToolSlow(raw json.RawMessage) (*Tool, error) {
	var w wireTool
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("tool is not a JSON object: %s", safeText(err.Error()))
	}
	t := &Tool{Raw: raw, InputSchema: w.InputSchema, OutputSchema: w.OutputSchema}
	if err := json.Unmarshal(w.Name, &t.Name); err != nil || t.Name == "" {
		return nil, fmt.Errorf("tool has no name (%s)", clip(raw, 80))
	}
	t.readRest(w.Title, w.Description, w.Annotations, w.Meta, w.Execution)
	return t, nil
}

// readRest reads what a tool holds besides its name and schemas, from the
// members as sent.
func (t *Tool) readRest(title, description, annotations, meta, execution json.RawMessage) {
	t.ToolTitle = t.optString("title", title)
	t.Description = t.optString("description", description)
	t.readAnnotations(annotations)
	t.readExamples(meta)
	t.TaskSupport = readTaskSupport(execution)
	if isNull(t.OutputSchema) {
		t.OutputSchema = nil
	}
	t.Title = policy.DisplayTitle(t.ToolTitle, t.AnnTitle, t.Name)
}

// optString reads an optional string member, raw valid JSON (stringOf).
func (t *Tool) optString(key string, raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	s, err := stringOf(raw)
	if err != nil {
		t.Problems = append(t.Problems, fmt.Sprintf("%s is %s, not a string: ignored", key, clip(raw, 40)))
	}
	return s
}

func (t *Tool) readAnnotations(raw json.RawMessage) {
	if isNull(raw) {
		return
	}
	// raw is valid JSON: a member of a tool json.Valid or json.Unmarshal has
	// accepted.
	ann, ok := annotationsFast(raw)
	if !ok {
		if err := json.Unmarshal(raw, &ann); err != nil {
			t.Problems = append(t.Problems, fmt.Sprintf("annotations is %s, not an object: every hint takes its spec default", clip(raw, 40)))
			return
		}
	}
	t.HasAnnotations = true
	t.AnnTitle = t.optString("annotations.title", ann["title"])
	for _, f := range policy.Fields {
		v, sent := ann[string(f)]
		if !sent {
			continue
		}
		if t.Declared == nil {
			t.Declared = map[string]json.RawMessage{}
		}
		t.Declared[string(f)] = v
		h := hintValue(v)
		if h == policy.Absent && !isNull(v) {
			t.Problems = append(t.Problems, fmt.Sprintf("%s is %s, not a boolean: treated as absent (spec default %v)",
				f, clip(v, 40), policy.Default(f)))
		}
		t.setHint(f, h)
	}
}

func (t *Tool) setHint(f policy.Field, h policy.Hint) {
	switch f {
	case policy.FieldReadOnly:
		t.Hints.ReadOnly = h
	case policy.FieldDestructive:
		t.Hints.Destructive = h
	case policy.FieldIdempotent:
		t.Hints.Idempotent = h
	case policy.FieldOpenWorld:
		t.Hints.OpenWorld = h
	}
}

func hintValue(raw json.RawMessage) policy.Hint {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return policy.True
	case "false":
		return policy.False
	}
	return policy.Absent
}

func (t *Tool) readExamples(meta json.RawMessage) {
	if isNull(meta) {
		return
	}
	var m struct {
		InputExamples json.RawMessage `json:"inputExamples"`
	}
	if json.Unmarshal(meta, &m) != nil || isNull(m.InputExamples) {
		return
	}
	var list []json.RawMessage
	if err := json.Unmarshal(m.InputExamples, &list); err != nil {
		t.Problems = append(t.Problems, "_meta.inputExamples is not an array: ignored")
		return
	}
	for i, ex := range list {
		var obj map[string]any
		if err := json.Unmarshal(ex, &obj); err != nil || obj == nil {
			t.Problems = append(t.Problems, fmt.Sprintf("_meta.inputExamples[%d] is not an object: ignored", i))
			continue
		}
		t.Examples = append(t.Examples, obj)
	}
}

func isNull(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) == 0 || string(s) == "null"
}
