package keymap

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"
)

// TestAllListsEveryField: every field of KeyMap, as keys.go declares them,
// is in All, in order, by the right binding, so the sweeps and help's
// check built on All see a key as soon as it is added.
func TestAllListsEveryField(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "keys.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var fields []string
	ast.Inspect(f, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == "KeyMap" {
			for _, fl := range ts.Type.(*ast.StructType).Fields.List {
				for _, id := range fl.Names {
					fields = append(fields, id.Name)
				}
			}
			return false
		}
		return true
	})
	k := Default()
	var names []string
	for _, b := range k.All() {
		names = append(names, b.Name)
	}
	if !slices.Equal(names, fields) {
		t.Fatalf("All lists %q\nKeyMap declares %q", names, fields)
	}
	// Each entry is its own field's binding: {"Name", k.Name}.
	g, err := parser.ParseFile(token.NewFileSet(), "all.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(g, func(x ast.Node) bool {
		lit, ok := x.(*ast.CompositeLit)
		if !ok || len(lit.Elts) != 2 {
			return true
		}
		name, ok1 := lit.Elts[0].(*ast.BasicLit)
		sel, ok2 := lit.Elts[1].(*ast.SelectorExpr)
		if !ok1 || !ok2 {
			return true
		}
		n++
		if want := strconv.Quote(sel.Sel.Name); name.Value != want {
			t.Errorf("All names k.%s %s", sel.Sel.Name, name.Value)
		}
		return true
	})
	if n != len(fields) {
		t.Errorf("all.go has %d entries like {\"Name\", k.Name}, KeyMap %d fields", n, len(fields))
	}
}
