package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"sync"

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

const (
	draft7URI    = "http://json-schema.org/draft-07/schema#"
	draft2020URI = "https://json-schema.org/draft/2020-12/schema"
)

// ErrNotChecked marks a value that was not checked against its schema because
// checking it would cost too much (see schemacost.go).
var ErrNotChecked = errors.New("not checked")

// lazyRegexp compiles expr when first asked for: the package's patterns are
// for rare paths (a schema violation, an oversized message), and compiling
// them at start-up cost every mcpsh process.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// checkedSchema is a schema that passed the guard, ready to validate against.
type checkedSchema struct {
	r *jsonschema.Resolved
	g *schemaGraph
}

// compile readies a schema from the wire. Remote $refs are refused (no
// loader), so validation never touches the network. A $schema this library
// does not know (draft-04, say) is dropped and the rest checked as draft
// 2020-12, with a notice. A schema the guard refuses (schemaguard.go) is an
// error like one that does not compile; noun names the value it describes.
func compile(raw json.RawMessage, noun string) (*checkedSchema, string, error) {
	if isNull(raw) {
		return nil, "", nil
	}
	if err := schemaTooBig(raw); err != nil {
		return nil, "", err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, "", fmt.Errorf("does not parse: %v", err)
	}
	notice := ""
	if d := knownDraft(s.Schema); d != "" || s.Schema == "" {
		s.Schema = d
	} else {
		notice = fmt.Sprintf("schema declares %s, which mcpsh does not know; checked as draft 2020-12", s.Schema)
		s.Schema = ""
	}
	// The guard goes first: its limits also bound the work of Resolve.
	g, err := newSchemaGraph(&s)
	if err == nil {
		err = g.checkLoops(noun)
	}
	if err != nil {
		return nil, notice, err
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, notice, fmt.Errorf("does not compile: %v", err)
	}
	return &checkedSchema{r, g}, notice, nil
}

// knownDraft is the $schema jsonschema-go knows for a spelling of draft-07 or
// 2020-12, or "". It knows only exact spellings, and refuses every value
// checked against a schema declaring "http://json-schema.org/draft-07/schema"
// (no "#") as an unsupported version.
func knownDraft(uri string) string {
	u := strings.TrimSuffix(uri, "#")
	u = strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
	switch u {
	case "json-schema.org/draft-07/schema":
		return draft7URI
	case "json-schema.org/draft/2020-12/schema":
		return draft2020URI
	}
	return ""
}

// maxReasonRunes bounds the server's words (schema values, messages quoting
// them) in one of mcpsh's messages.
const maxReasonRunes = 300

func (t *Tool) compile(which string, raw json.RawMessage, noun string) (*checkedSchema, string, error) {
	c, notice, err := compile(raw, noun)
	notice = safeText(notice)
	if err != nil {
		return nil, notice, &SchemaError{Tool: safeText(t.Name), Which: which, Reason: clipText(safeText(err.Error()), maxReasonRunes)}
	}
	return c, notice, nil
}

func (t *Tool) compileSchemas() {
	t.schemas.once.Do(func() {
		t.schemas.input, t.schemas.inputNotice, t.schemas.inputErr = t.compile("input", t.InputSchema, "the arguments")
		t.schemas.output, _, t.schemas.outputErr = t.compile("output", t.OutputSchema, "structuredContent")
	})
}

// SchemaErrors reports input and output schemas that mcpsh cannot use, each a
// *SchemaError.
func (t *Tool) SchemaErrors() (input, output error) {
	t.compileSchemas()
	return t.schemas.inputErr, t.schemas.outputErr
}

// Validate checks arguments against the input schema. It returns an *ArgError
// for a violation, or for arguments too deeply nested or too large to check.
// A schema mcpsh cannot use cannot be checked: the caller learns why from
// SchemaNotice and the server judges the arguments.
func (t *Tool) Validate(args map[string]any) error {
	t.compileSchemas()
	in := t.schemas.input
	if in == nil {
		return nil
	}
	if args == nil {
		args = map[string]any{}
	}
	if err := in.g.tooCostly(args); err != nil {
		return &ArgError{Tool: safeText(t.Name), Rule: err.Error()}
	}
	if err := in.r.Validate(args); err != nil {
		// An explicit null for an argument the schema lets be left out says
		// "not given": SEP-2243 gives such a value no Mcp-Param header, and
		// hosts send it for an optional parameter. It is sent as given; a
		// null where a value is required still fails, with the first error.
		if stripped, ok := withoutNulls(args).(map[string]any); ok && in.r.Validate(stripped) == nil {
			return nil
		}
		return schemaViolation(t.Name, err)
	}
	return nil
}

// withoutNulls is v without the null members of its objects, at any depth;
// array items stay, null or not, as an item's place is its meaning. v is
// not changed.
func withoutNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if x != nil {
				out[k] = withoutNulls(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = withoutNulls(x)
		}
		return out
	}
	return v
}

// SchemaNotice explains, when not empty, why arguments were checked only in part
// or not at all.
func (t *Tool) SchemaNotice() string {
	t.compileSchemas()
	switch {
	case t.schemas.inputErr != nil:
		return fmt.Sprintf("%v; arguments are sent unchecked", t.schemas.inputErr)
	case t.schemas.inputNotice != "":
		return fmt.Sprintf("%s: input %s", safeText(t.Name), t.schemas.inputNotice)
	}
	return ""
}

// ValidateOutput checks structuredContent against the output schema, when both
// exist. The SDK does not, and a result that breaks its own schema is a server bug
// worth flagging without hiding the result. A result too costly to check is
// not checked, and the error says so (it wraps ErrNotChecked).
func (t *Tool) ValidateOutput(structured json.RawMessage) error {
	t.compileSchemas()
	out := t.schemas.output
	if out == nil || isNull(structured) {
		return nil
	}
	var v any
	if err := json.Unmarshal(structured, &v); err != nil {
		return fmt.Errorf("structuredContent is not JSON: %s", safeText(err.Error()))
	}
	if err := out.g.tooCostly(v); err != nil {
		return fmt.Errorf("structuredContent is %v: %w", err, ErrNotChecked)
	}
	if err := out.r.Validate(v); err != nil {
		e := schemaViolation(t.Name, err)
		where := "structuredContent"
		if e.Arg != "" {
			where += "." + e.Arg
		}
		return fmt.Errorf("%s does not match the output schema: %s (schema %s)", where, e.Rule, e.SchemaPath)
	}
	return nil
}

// jsonschema-go nests its message as "validating <path>: validating <path>: rule",
// where a schema with an $id is named by it ("https://example.com/s"): a
// colon ends the name only when a space follows it.
var validatingPrefix = lazyRegexp(`^validating ((?:[^:]|:[^ ])*): `)

// schemaViolation turns jsonschema-go's message into an ArgError. Its parts
// are the server's text (property names, and schema values the message
// quotes) and the user's, so each is made safe as it goes in.
func schemaViolation(tool string, err error) *ArgError {
	msg := err.Error()
	path := ""
	for {
		m := validatingPrefix().FindStringSubmatch(msg)
		if m == nil {
			break
		}
		path = m[1]
		msg = msg[len(m[0]):]
	}
	if path == "root" {
		path = ""
	}
	// jsonschema-go prints a null value as the reflect package names a nil.
	msg = strings.ReplaceAll(msg, "<invalid reflect.Value>", "null")
	arg, rule := argFromSchemaPath(path), tidyNumbers(msg)
	if rest, ok := strings.CutPrefix(msg, "required: missing properties: "); ok {
		rule = "required but missing"
		arg = joinArg(arg, firstQuoted(rest))
		path += "/required"
	} else if rest, ok := strings.CutPrefix(msg, "unexpected additional properties "); ok {
		rule = "not an argument this tool accepts"
		arg = joinArg(arg, firstQuoted(rest))
		path += "/additionalProperties"
	}
	return &ArgError{Tool: safeText(tool), Arg: safeText(arg), SchemaPath: clipText(safeText(path), maxReasonRunes),
		Rule: clipText(safeText(rule), maxReasonRunes)}
}

// numberRule matches the numbers jsonschema-go writes into range rules: the
// value as a fraction ("500/1") and the bound with %f ("50.000000").
var numberRule = lazyRegexp(`-?\d+/\d+|-?\d+\.\d+`)

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
	return numberRule().ReplaceAllStringFunc(rule, func(n string) string {
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
	q, err := strconv.QuotedPrefix(strings.TrimPrefix(s, "["))
	if err != nil {
		return ""
	}
	name, _ := strconv.Unquote(q)
	return name
}
