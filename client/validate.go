package client

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// ArgError is an argument that breaks the tool's input schema. Nothing is sent
// when a call has one.
type ArgError struct {
	Tool string
	// Arg is the argument at fault ("title", "filter.limit", "tags[]"), or ""
	// when the fault is the arguments as a whole.
	Arg string
	// SchemaPath is where in the input schema the broken rule lives.
	SchemaPath string
	// Rule is the schema's own words for what is wrong.
	Rule string
}

func (e *ArgError) Error() string {
	where := "arguments"
	if e.Arg != "" {
		where = fmt.Sprintf("argument %q", e.Arg)
	}
	s := fmt.Sprintf("%s: %s: %s", e.Tool, where, e.Rule)
	if e.SchemaPath != "" {
		s += fmt.Sprintf(" (schema %s)", e.SchemaPath)
	}
	return s
}

// compile resolves a schema from the wire. Remote $refs are refused (no loader),
// so validation never touches the network. A $schema this library does not know
// (draft-04, say) is dropped and the rest checked as draft 2020-12, with a notice.
func compile(raw json.RawMessage) (*jsonschema.Resolved, string, error) {
	if isNull(raw) {
		return nil, "", nil
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, "", fmt.Errorf("schema does not parse: %v", err)
	}
	notice := ""
	switch s.Schema {
	case "", "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema",
		"https://json-schema.org/draft/2020-12/schema":
	default:
		notice = fmt.Sprintf("schema declares %s, which mcpsh does not know; checked as draft 2020-12", s.Schema)
		s.Schema = ""
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, notice, fmt.Errorf("schema does not compile: %v", err)
	}
	return r, notice, nil
}

func (t *Tool) compileSchemas() {
	t.schemas.once.Do(func() {
		t.schemas.input, t.schemas.inputNotice, t.schemas.inputErr = compile(t.InputSchema)
		t.schemas.output, _, t.schemas.outputErr = compile(t.OutputSchema)
	})
}

// SchemaErrors reports input and output schemas that do not compile.
func (t *Tool) SchemaErrors() (input, output error) {
	t.compileSchemas()
	return t.schemas.inputErr, t.schemas.outputErr
}

// Validate checks arguments against the input schema. It returns an *ArgError
// for a violation. A schema that cannot be compiled cannot be checked: the
// caller learns why from SchemaNotice and the server judges the arguments.
func (t *Tool) Validate(args map[string]any) error {
	t.compileSchemas()
	if t.schemas.input == nil {
		return nil
	}
	if args == nil {
		args = map[string]any{}
	}
	if err := t.schemas.input.Validate(args); err != nil {
		return schemaViolation(t.Name, err)
	}
	return nil
}

// SchemaNotice explains, when not empty, why arguments were checked only in part
// or not at all.
func (t *Tool) SchemaNotice() string {
	t.compileSchemas()
	switch {
	case t.schemas.inputErr != nil:
		return fmt.Sprintf("%s: input %v; arguments are sent unchecked", t.Name, t.schemas.inputErr)
	case t.schemas.inputNotice != "":
		return fmt.Sprintf("%s: input %s", t.Name, t.schemas.inputNotice)
	}
	return ""
}

// ValidateOutput checks structuredContent against the output schema, when both
// exist. The SDK does not, and a result that breaks its own schema is a server bug
// worth flagging without hiding the result.
func (t *Tool) ValidateOutput(structured json.RawMessage) error {
	t.compileSchemas()
	if t.schemas.output == nil || isNull(structured) {
		return nil
	}
	var v any
	if err := json.Unmarshal(structured, &v); err != nil {
		return fmt.Errorf("structuredContent is not JSON: %v", err)
	}
	if err := t.schemas.output.Validate(v); err != nil {
		e := schemaViolation(t.Name, err).(*ArgError)
		where := "structuredContent"
		if e.Arg != "" {
			where += "." + e.Arg
		}
		return fmt.Errorf("%s does not match the output schema: %s (schema %s)", where, e.Rule, e.SchemaPath)
	}
	return nil
}

// jsonschema-go nests its message as "validating <path>: validating <path>: rule".
var validatingPrefix = regexp.MustCompile(`^validating ([^:]*): `)

func schemaViolation(tool string, err error) error {
	msg := err.Error()
	path := ""
	for {
		m := validatingPrefix.FindStringSubmatch(msg)
		if m == nil {
			break
		}
		path = m[1]
		msg = msg[len(m[0]):]
	}
	if path == "root" {
		path = ""
	}
	e := &ArgError{Tool: tool, SchemaPath: path, Arg: argFromSchemaPath(path), Rule: tidyNumbers(msg)}
	if rest, ok := strings.CutPrefix(msg, "required: missing properties: "); ok {
		e.Rule = "required but missing"
		e.Arg = joinArg(e.Arg, firstQuoted(rest))
		e.SchemaPath = path + "/required"
	} else if rest, ok := strings.CutPrefix(msg, "unexpected additional properties "); ok {
		e.Rule = "not an argument this tool accepts"
		e.Arg = joinArg(e.Arg, firstQuoted(rest))
		e.SchemaPath = path + "/additionalProperties"
	}
	return e
}

// numberRule matches the numbers jsonschema-go writes into range rules: the
// value as a fraction ("500/1") and the bound with %f ("50.000000").
var numberRule = regexp.MustCompile(`-?\d+/\d+|-?\d+\.\d+`)

// tidyNumbers writes the numbers in a range rule the way people write them:
// "maximum: 500/1 is greater than 50.000000" becomes "maximum: 500 is
// greater than 50". Other rules quote the user's text and are left alone.
func tidyNumbers(rule string) string {
	name, _, _ := strings.Cut(rule, ":")
	switch name {
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
	default:
		return rule
	}
	return numberRule.ReplaceAllStringFunc(rule, func(n string) string {
		r, ok := new(big.Rat).SetString(n)
		if !ok {
			return n
		}
		if r.IsInt() {
			return r.Num().String()
		}
		f, _ := r.Float64()
		return strconv.FormatFloat(f, 'g', -1, 64)
	})
}

// argFromSchemaPath turns /properties/a/properties/b/items into "a.b[]".
func argFromSchemaPath(path string) string {
	var b strings.Builder
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i := 0; i < len(segs); i++ {
		switch segs[i] {
		case "properties":
			if i+1 < len(segs) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(unescapePointer(segs[i+1]))
				i++
			}
		case "items":
			if b.Len() > 0 {
				b.WriteString("[]")
			}
		}
	}
	return b.String()
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func joinArg(parent, child string) string {
	switch {
	case parent == "":
		return child
	case child == "":
		return parent
	}
	return parent + "." + child
}

// firstQuoted extracts the first name from a Go-quoted list like ["a" "b"].
func firstQuoted(s string) string {
	i := strings.IndexByte(s, '"')
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(s[i+1:], '"')
	if j < 0 {
		return ""
	}
	return s[i+1 : i+1+j]
}
