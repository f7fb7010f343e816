package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// fillMark stands, in a script, for an argument value someone must supply:
// `mcpsh log --as-script` writes it where the log redacted a value or kept no
// arguments. run refuses a script that still holds one, since sending the
// mark (or the log's "[redacted]") as a password or an ID would be wrong.
const fillMark = "<FILL>"

// unfilled says which arguments of a call line are still fillMark.
func unfilled(argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	const fix = ": put the value to send in its place"
	if len(argv) == 1 && strings.HasPrefix(argv[0], "{") {
		if !strings.Contains(argv[0], fillMark) {
			return nil
		}
		var v any
		if decodeOne(argv[0], &v) != nil {
			return []string{"the arguments still hold " + fillMark + fix}
		}
		obj, _ := v.(map[string]any)
		var msgs []string
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			for _, at := range fillsIn(obj[k], nil) {
				where := ""
				if len(at) > 0 {
					where = " at " + at.String()
				}
				msgs = append(msgs, fmt.Sprintf("argument %q is still %s%s%s", k, fillMark, where, fix))
			}
		}
		return msgs
	}
	var msgs []string
	for _, a := range argv {
		if !strings.Contains(a, fillMark) {
			continue
		}
		key, _, ok := strings.Cut(a, "=")
		if !ok || key == "" || key == ":" {
			msgs = append(msgs, fmt.Sprintf("the arguments are still %s (the log kept none): replace it with the call's arguments, or delete it if the call takes none", fillMark))
			continue
		}
		msgs = append(msgs, fmt.Sprintf("argument %q is still %s%s", strings.TrimSuffix(key, ":"), fillMark, fix))
	}
	return msgs
}

// fillsIn lists where in v a string holds fillMark.
func fillsIn(v any, at jsonPath) []jsonPath {
	switch x := v.(type) {
	case string:
		if strings.Contains(x, fillMark) {
			return []jsonPath{append(jsonPath(nil), at...)}
		}
	case []any:
		var out []jsonPath
		for i, item := range x {
			out = append(out, fillsIn(item, append(at, pathStep{Index: i, IsIndex: true}))...)
		}
		return out
	case map[string]any:
		var out []jsonPath
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out = append(out, fillsIn(x[k], append(at, pathStep{Key: k}))...)
		}
		return out
	}
	return nil
}
