package client

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// FuzzReadSchema reads any text as a schema, with and without the guard, and
// types any text by each field: nothing may panic or hang, the model must
// hold together, and what mcpsh says about it must be safe to print.
func FuzzReadSchema(f *testing.F) {
	for _, s := range append(slices.Clone(fuzzSchemas), pydanticSchema, zodSchema, elicitSchema) {
		f.Add(s, "a, b")
	}
	for _, rs := range recursiveSchemas {
		f.Add(rs.schema, "1")
	}
	f.Add(`{"properties":{"p":{"type":"string","oneOf":[{"const":"x","title":"X`+evil+`"}]}}}`, "X"+evil)
	f.Fuzz(func(t *testing.T, schema, text string) {
		for _, sc := range []*Schema{ReadSchema("fuzz"+rawEvil, "requested", json.RawMessage(schema)), ReadSchemaText(json.RawMessage(schema))} {
			if sc.Err() != nil {
				assertFuzzSafe(t, "schema error", sc.Err().Error())
			}
			assertFuzzSafe(t, "notice", sc.Notice())
			for i, fl := range sc.Fields {
				checkField(t, fl, 0)
				v, err := fl.Parse(text)
				if err == nil && i < 8 { // ParseArgs reads every field: not for each of thousands
					// key=value types the same text the same way (for names
					// key=value can spell, and that do not read as JSON).
					if strings.ContainsRune(fl.Name, '=') || fl.Name == "" || strings.HasSuffix(fl.Name, ":") ||
						strings.HasPrefix(strings.TrimSpace(fl.Name), "{") {
						continue
					}
					args, perr := sc.ParseArgs([]string{fl.Name + "=" + text})
					if perr != nil || !sameJSON(args[fl.Name], v) {
						t.Fatalf("%q: Parse gives %v, ParseArgs %v (%v)", fl.Name, v, args, perr)
					}
				}
			}
			d := sc.Defaults()
			_ = sc.Missing(d)
			checkArgError(t, sc.Validate(d))
		}
	})
}

// checkField checks what every field must be: a known input, a title per
// enum value when there are titles, each type once, items as deep as the
// reader goes and no deeper.
func checkField(t *testing.T, f *Field, depth int) {
	t.Helper()
	if f.Input < InputText || f.Input > InputJSON {
		t.Fatalf("field %q has input %d", f.Name, f.Input)
	}
	if f.EnumTitles != nil && len(f.EnumTitles) != len(f.Enum) {
		t.Fatalf("field %q: %d titles for %d values", f.Name, len(f.EnumTitles), len(f.Enum))
	}
	for i, typ := range f.Types {
		if slices.Contains(f.Types[:i], typ) {
			t.Fatalf("field %q lists %q twice", f.Name, typ)
		}
	}
	if f.Input == InputMulti && (f.Items == nil || len(f.Items.Enum) == 0) {
		t.Fatalf("field %q is a multi-select without values", f.Name)
	}
	if depth > maxReadDepth+1 {
		t.Fatalf("items nest %d deep", depth)
	}
	if f.Items != nil {
		checkField(t, f.Items, depth+1)
	}
}
