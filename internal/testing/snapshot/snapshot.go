// Package snapshot is for tests only: every value a data structure holds,
// as "path = value" lines, so that a test can show a call wrote nothing to
// it (ui's test that View is pure). It follows pointers only into the
// packages it is told to, and reads other packages' values in place but not
// behind their pointers (a session's internals, a bubble's private caches,
// run on their own).
package snapshot

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Options say how far Take goes.
type Options struct {
	// Follow are values of the packages whose pointers are followed: a nil
	// pointer to any type of the package will do.
	Follow []any
	// Opaque are the types, as reflect writes them ("ui.inbox"), whose
	// pointers are not followed though their package is: what other
	// goroutines write. Each must be met, so a rename cannot make one
	// followed unnoticed.
	Opaque []string
}

// Take is every value v holds, by path.
func Take(t testing.TB, v any, o Options) map[string]string {
	t.Helper()
	w := &walker{out: map[string]string{}, seen: map[ref]string{}, pkgs: map[string]bool{}, opaque: map[string]bool{}}
	for _, x := range o.Follow {
		ty := reflect.TypeOf(x)
		for ty.Kind() == reflect.Pointer {
			ty = ty.Elem()
		}
		w.pkgs[ty.PkgPath()] = true
	}
	for _, name := range o.Opaque {
		w.opaque[name] = false
	}
	w.walk("v", reflect.ValueOf(v))
	for name, met := range w.opaque {
		if !met {
			t.Errorf("snapshot: the opaque type %s was never met: renamed?", name)
		}
	}
	return w.out
}

// Diff says which paths differ between two snapshots, at most a dozen.
func Diff(before, after map[string]string) string {
	var diffs []string
	for p, v := range before {
		if a, ok := after[p]; !ok {
			diffs = append(diffs, p+": "+v+" → (gone)")
		} else if a != v {
			diffs = append(diffs, p+": "+v+" → "+a)
		}
	}
	for p, a := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, p+": (new) → "+a)
		}
	}
	slices.Sort(diffs)
	if len(diffs) > 12 {
		diffs = append(diffs[:12], fmt.Sprintf("… and %d more", len(diffs)-12))
	}
	return strings.Join(diffs, "\n")
}

type ref struct {
	p uintptr
	t reflect.Type
}

type walker struct {
	out    map[string]string
	seen   map[ref]string
	pkgs   map[string]bool
	opaque map[string]bool // by name: met yet
}

func (w *walker) walk(path string, v reflect.Value) {
	switch v.Kind() {
	case reflect.Invalid:
		w.out[path] = "invalid"
	case reflect.Bool:
		w.out[path] = fmt.Sprint(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.out[path] = fmt.Sprint(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		w.out[path] = fmt.Sprint(v.Uint())
	case reflect.Float32, reflect.Float64:
		w.out[path] = fmt.Sprint(v.Float())
	case reflect.Complex64, reflect.Complex128:
		w.out[path] = fmt.Sprint(v.Complex())
	case reflect.String:
		w.out[path] = fmt.Sprintf("%q", v.String())
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		w.out[path] = fmt.Sprintf("%#x", v.Pointer())
	case reflect.Pointer:
		t := v.Type().Elem()
		_, opaque := w.opaque[t.String()]
		if opaque {
			w.opaque[t.String()] = true
		}
		switch {
		case v.IsNil():
			w.out[path] = "nil"
		case !w.pkgs[t.PkgPath()] || opaque:
			w.out[path] = fmt.Sprintf("%#x", v.Pointer())
		default:
			r := ref{v.Pointer(), t}
			if first, ok := w.seen[r]; ok {
				w.out[path] = "→ " + first
				return
			}
			w.seen[r] = path
			w.walk(path, v.Elem())
		}
	case reflect.Interface:
		if v.IsNil() {
			w.out[path] = "nil"
			return
		}
		w.walk(path+"("+v.Elem().Type().String()+")", v.Elem())
	case reflect.Struct:
		if p := v.Type().PkgPath(); p == "sync" || p == "sync/atomic" {
			return
		}
		for i := range v.NumField() {
			w.walk(path+"."+v.Type().Field(i).Name, v.Field(i))
		}
	case reflect.Slice:
		if v.IsNil() {
			w.out[path] = "nil"
			return
		}
		fallthrough
	case reflect.Array:
		w.out[path+".len"] = fmt.Sprint(v.Len())
		for i := range v.Len() {
			w.walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			w.out[path] = "nil"
			return
		}
		w.out[path+".len"] = fmt.Sprint(v.Len())
		iter := v.MapRange()
		for iter.Next() {
			k := iter.Key()
			var ks string
			switch k.Kind() {
			case reflect.String:
				ks = fmt.Sprintf("%q", k.String())
			case reflect.Pointer:
				ks = fmt.Sprintf("%#x", k.Pointer())
			default:
				ks = fmt.Sprint(k)
			}
			w.walk(path+"["+ks+"]", iter.Value())
		}
	default:
		w.out[path] = "?" + v.Kind().String()
	}
}
