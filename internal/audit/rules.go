package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// Rule IDs are stable: scripts and CI configurations refer to them.
const (
	RuleHintsContradict    = "hints-contradict"
	RuleMalformedHint      = "malformed-hint"
	RuleInvalidExample     = "invalid-example"
	RuleSchemaInvalid      = "schema-invalid"
	RuleNoAnnotations      = "no-annotations"
	RuleDestructiveDefault = "destructive-by-default"
	RuleOpenWorldDefault   = "open-world-by-default"
	RuleNullHint           = "null-hint"
	RuleNoTitle            = "no-title"
	RuleNameDestructive    = "name-suggests-destructive"
	RuleNameRead           = "name-suggests-read"
	RuleNameOpenWorld      = "name-suggests-open-world"
	RuleIdempotentCreate   = "idempotent-create"
	RuleBadName            = "bad-name"
	RuleDuplicateTitle     = "duplicate-title"
	RuleEmptyDescription   = "empty-description"
	RuleReadOnlyDefault    = "read-only-by-default"
)

// Rules is the catalogue, in report order.
var Rules = []Rule{
	{RuleHintsContradict, Error, "readOnlyHint and destructiveHint are both true", hintsContradict},
	{RuleMalformedHint, Error, "a hint or the annotations object has the wrong JSON type", malformedHint},
	{RuleSchemaInvalid, Error, "the input or output schema does not compile", schemaInvalid},
	{RuleInvalidExample, Error, "an input example does not validate against the input schema", invalidExample},
	{RuleNoAnnotations, Warning, "no annotations at all", noAnnotations},
	{RuleDestructiveDefault, Warning, "destructiveHint left out on a tool that is not read-only", destructiveDefault},
	{RuleOpenWorldDefault, Warning, "openWorldHint left out", openWorldDefault},
	{RuleNullHint, Warning, "a hint sent as null", nullHint},
	{RuleNoTitle, Warning, "no title anywhere", noTitle},
	{RuleNameDestructive, Warning, "name or description suggests deleting, overwriting, revoking, cancelling, sending or paying, but the hints say read-only or non-destructive", nameDestructive},
	{RuleNameRead, Warning, "name suggests a pure read, but the hints say destructive", nameRead},
	{RuleNameOpenWorld, Warning, "name or description suggests the web, email, URLs or third-party services, but openWorldHint is false", nameOpenWorld},
	{RuleIdempotentCreate, Warning, "idempotentHint is true on a tool whose name suggests creating, appending or sending", idempotentCreate},
	{RuleBadName, Warning, "the name is outside the spec's recommended characters or longer than 128", badName},
	{RuleDuplicateTitle, Warning, "another tool has the same display title", nil},
	{RuleEmptyDescription, Warning, "the description is empty", emptyDescription},
	{RuleReadOnlyDefault, Info, "readOnlyHint left out", readOnlyDefault},
}

func one(format string, args ...any) []string { return []string{fmt.Sprintf(format, args...)} }

// sent reports whether the server sent hint f at all (null and wrongly typed included).
func sent(t *client.Tool, f policy.Field) bool {
	_, ok := t.Declared[string(f)]
	return ok
}

// hintsContradict explains a policy.Hints.Conflict: mcpsh believes the more
// dangerous half, but hosts that read the spec literally believe readOnlyHint.
func hintsContradict(t *client.Tool) []string {
	if !t.Hints.Conflict() {
		return nil
	}
	replay := "does not treat it as replay-safe (idempotentHint is not true)"
	if t.Hints.Idempotent == policy.True {
		replay = "treats it as replay-safe only because idempotentHint is true"
	}
	return one("readOnlyHint and destructiveHint are both true: mcpsh reads that the strict way, as destructive and not read-only, so it asks before every call and %s; "+
		"VS Code, Claude Code plan mode, Cursor Ask mode and Codex look at readOnlyHint and run it without asking; "+
		"if it can delete or overwrite, set readOnlyHint: false, otherwise set destructiveHint: false", replay)
}

func malformedHint(t *client.Tool) []string {
	var out []string
	for _, p := range t.Problems {
		if strings.Contains(p, "not a boolean") || strings.HasPrefix(p, "annotations is") {
			out = append(out, p+"; clients that parse hints strictly may reject the whole tool list; send true or false")
		}
	}
	return out
}

func schemaInvalid(t *client.Tool) []string {
	in, out := t.SchemaErrors()
	var msgs []string
	if in != nil {
		msgs = append(msgs, fmt.Sprintf("the input schema is unusable (%s): clients cannot check arguments, and strict clients may refuse the tool; fix the schema", schemaReason(in)))
	}
	if out != nil {
		msgs = append(msgs, fmt.Sprintf("the output schema is unusable (%s): clients cannot check structuredContent; fix the schema", schemaReason(out)))
	}
	return msgs
}

// schemaReason is what is wrong with a schema, without the tool's name, which
// the finding already carries.
func schemaReason(err error) string {
	var se *client.SchemaError
	if errors.As(err, &se) {
		return se.Reason
	}
	return err.Error()
}

func invalidExample(t *client.Tool) []string {
	var msgs []string
	for _, p := range t.Problems {
		if strings.HasPrefix(p, "_meta.inputExamples") {
			msgs = append(msgs, p+"; clients fill calls from examples, so send an array of argument objects")
		}
	}
	if in, _ := t.SchemaErrors(); in != nil {
		return msgs // the schema is the problem, reported by schema-invalid
	}
	for i, ex := range t.Examples {
		if err := t.Validate(ex); err != nil {
			var where string
			if ae, ok := err.(*client.ArgError); ok {
				where = ae.Rule
				if ae.Arg != "" {
					where = fmt.Sprintf("argument %q: %s", ae.Arg, ae.Rule)
				}
			} else {
				where = err.Error()
			}
			b, _ := json.Marshal(ex)
			msgs = append(msgs, fmt.Sprintf("input example %d (%s) breaks the input schema, %s: a client that fills a call from it sends invalid arguments; fix the example or the schema",
				i+1, clip(string(b), 60), where))
		}
	}
	return msgs
}

func noAnnotations(t *client.Tool) []string {
	if t.HasAnnotations || hasMalformedAnnotations(t) {
		return nil
	}
	return one("no annotations at all: clients treat it as destructive, not idempotent and open-world, so they ask before every call and never retry it; " +
		"declare readOnlyHint, destructiveHint, idempotentHint and openWorldHint")
}

func hasMalformedAnnotations(t *client.Tool) bool {
	for _, p := range t.Problems {
		if strings.HasPrefix(p, "annotations is") {
			return true
		}
	}
	return false
}

func destructiveDefault(t *client.Tool) []string {
	if !t.HasAnnotations || sent(t, policy.FieldDestructive) || t.Effective().ReadOnly {
		return nil
	}
	return one("destructiveHint is absent on a tool that is not read-only: clients treat it as destructive and will ask before every call; " +
		"set destructiveHint: false if it only adds, or true to say so")
}

func openWorldDefault(t *client.Tool) []string {
	if !t.HasAnnotations || sent(t, policy.FieldOpenWorld) {
		return nil
	}
	return one("openWorldHint is absent: clients treat the tool as reaching outside systems (web, email, third parties) and flag or review its results; " +
		"set openWorldHint: false if it only touches its own data")
}

func readOnlyDefault(t *client.Tool) []string {
	if !t.HasAnnotations || sent(t, policy.FieldReadOnly) {
		return nil
	}
	return one("readOnlyHint is absent: clients treat the tool as one that changes things (plan modes hide it; VS Code asks before it runs); " +
		"set readOnlyHint: true if it only reads, or false to say it writes")
}

func nullHint(t *client.Tool) []string {
	var out []string
	for _, f := range policy.Fields {
		if raw, ok := t.Declared[string(f)]; ok && strings.TrimSpace(string(raw)) == "null" {
			out = append(out, fmt.Sprintf("%s is null: clients read that as absent and apply the default (%v); send true or false, or leave the key out",
				f, policy.Default(f)))
		}
	}
	return out
}

func noTitle(t *client.Tool) []string {
	if t.ToolTitle != "" || t.AnnTitle != "" {
		return nil
	}
	return one("no title: clients show the raw name %q to people, and the Anthropic directory requires a title; set title (or annotations.title)", t.Name)
}

func nameDestructive(t *client.Tool) []string {
	if nameStartsWith(t.Name, readWords()) != "" {
		return nil // "get_payment", "list_deleted": the verb is a read
	}
	w, where := suggests(t.Name, t.Description, destructiveWords())
	if w == "" {
		return nil
	}
	switch {
	case t.Hints.ReadOnly == policy.True:
		return one("the %s says %q but readOnlyHint is true: clients run it without asking, and plan modes offer it; "+
			"if it can delete, overwrite, revoke, cancel, send or pay, set readOnlyHint: false and destructiveHint: true", where, w)
	case t.Hints.Destructive == policy.False && !t.Effective().ReadOnly:
		return one("the %s says %q but destructiveHint is false: clients run it without asking; "+
			"if it can delete, overwrite, revoke, cancel, send or pay, set destructiveHint: true", where, w)
	}
	return nil
}

func nameRead(t *client.Tool) []string {
	w := nameStartsWith(t.Name, readWords())
	if w == "" || t.Hints.Destructive != policy.True || t.Effective().ReadOnly {
		return nil
	}
	if t.Hints.Conflict() {
		return nil // readOnlyHint is already true: hints-contradict has the fix
	}
	return one("the name starts with %q, a read, but destructiveHint is true: clients ask before every call and plan modes hide it; "+
		"if it only reads, set readOnlyHint: true", w)
}

func nameOpenWorld(t *client.Tool) []string {
	if t.Hints.OpenWorld != policy.False {
		return nil
	}
	w, where := suggests(t.Name, t.Description, openWorldWords())
	if w == "" {
		return nil
	}
	return one("the %s says %q but openWorldHint is false: clients will not flag its calls or review its results as coming from outside; "+
		"if it reaches the web, email or a third-party service, set openWorldHint: true", where, w)
}

func idempotentCreate(t *client.Tool) []string {
	if t.Hints.Idempotent != policy.True || t.Effective().ReadOnly {
		return nil
	}
	w := nameStartsWith(t.Name, createWords())
	if w == "" || hasIdempotentEvidence(t.Description) {
		return nil
	}
	return one("idempotentHint is true but the name starts with %q: mcpsh retries idempotent calls after failures, so a call that did run may run again and %s twice; "+
		"set idempotentHint: false unless a repeated call really changes nothing (and say so in the description)", w, w)
}

// validName is the spec's recommendation (2025-11-25): 1 to 128 characters of
// A-Z, a-z, 0-9, underscore, hyphen and dot. A loop, not a regexp: the
// regexp's {1,128} compiled to 128 copies of the class, 0.7 ms of every
// mcpsh start-up, audit or not.
func validName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '_', c == '.', c == '-':
		default:
			return false
		}
	}
	return true
}

func badName(t *client.Tool) []string {
	if validName(t.Name) {
		return nil
	}
	if n := len([]rune(t.Name)); n > 128 {
		return one("the name is %d characters long, over the spec's 128: some clients truncate or reject it; shorten it", n)
	}
	return one("the name %q has characters outside A-Z, a-z, 0-9, _, - and .: some clients and model APIs reject it; rename the tool", t.Name)
}

// dupNamed is how many of the other tools a duplicate-title finding names: a
// title shared by thousands of tools must not make a message per tool that
// lists them all (quadratic in time and in the report's size).
const dupNamed = 3

// dupMessage names the first of the others (sorted), and counts the rest.
func dupMessage(title string, named []string, others int) string {
	with := strings.Join(named, ", ")
	if others > len(named) {
		with = fmt.Sprintf("%s other tools (%s and %s more)", thousands(others), with, thousands(others-len(named)))
	}
	return fmt.Sprintf("the display title %q is shared with %s: people cannot tell them apart in a client's tool list; give each tool its own title",
		title, with)
}

// thousands writes n with comma separators: 39,999.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func emptyDescription(t *client.Tool) []string {
	if strings.TrimSpace(t.Description) != "" {
		return nil
	}
	return one("the description is empty: models choose tools by their descriptions and people read them before approving a call; say what it does and what it changes")
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
