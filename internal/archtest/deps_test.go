// Package archtest checks the dependency rule of ARCHITECTURE.md against
// what the code imports. It has tests only.
package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

const module = "github.com/mcpsh/mcpsh"

// platforms are the systems mcpsh is built for: an import behind a build tag
// is seen only when go list is asked for its system.
var platforms = []string{"linux", "darwin", "windows"}

// TestDependencyRule holds every import between mcpsh's packages, and from
// them to other modules, to the table in ARCHITECTURE.md, read from the file
// itself so the two cannot drift apart.
func TestDependencyRule(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	table := readTable(t, filepath.Join(root, "ARCHITECTURE.md"))
	g := listAll(t, root)
	for _, err := range table.check(g) {
		t.Error(err)
	}
	for _, err := range invariants(g, table.testOnly()) {
		t.Error(err)
	}
}

// row is one package's row of the table.
type row struct {
	line     int
	text     string
	pkg      string
	mcpsh    map[string][]string // package → the platforms named, nil for all
	modules  map[string][]string // module → the platforms named, nil for all
	testOnly bool
}

func (r row) String() string { return fmt.Sprintf("ARCHITECTURE.md:%d: %s", r.line, r.text) }

type table struct{ rows map[string]row }

func (tb table) testOnly() map[string]bool {
	m := map[string]bool{}
	for p, r := range tb.rows {
		if r.testOnly {
			m[p] = true
		}
	}
	return m
}

var entryRE = regexp.MustCompile("^`([^`]+)`(?:\\s*\\(([a-z, ]+)\\))?$")

// readTable reads the first table under "## Dependency rule". A cell is "—"
// or backquoted entries separated by commas, each optionally followed by the
// platforms it is imported on; anything else is an error, so that a row
// cannot say more than the test reads.
func readTable(t *testing.T, path string) table {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	start := slices.Index(lines, "## Dependency rule")
	if start < 0 {
		t.Fatalf("%s has no \"## Dependency rule\" section", path)
	}
	tb := table{rows: map[string]row{}}
	var header []string
	for i := start + 1; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "## ") {
			break
		}
		if !strings.HasPrefix(l, "|") {
			if header != nil {
				break // the table has ended
			}
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		if header == nil {
			header = cells
			want := []string{"package", "imports from mcpsh", "imports from other modules", "tests only"}
			if !slices.Equal(header, want) {
				t.Fatalf("ARCHITECTURE.md:%d: the dependency table's columns are %q, want %q", i+1, header, want)
			}
			continue
		}
		if strings.Trim(l, "|-: ") == "" {
			continue // the delimiter row
		}
		if len(cells) != len(header) {
			t.Fatalf("ARCHITECTURE.md:%d: %d cells, want %d: %s", i+1, len(cells), len(header), l)
		}
		r := row{line: i + 1, text: l}
		m := entryRE.FindStringSubmatch(cells[0])
		if m == nil || m[2] != "" {
			t.Fatalf("ARCHITECTURE.md:%d: the first cell must be one backquoted package: %s", i+1, l)
		}
		r.pkg = m[1]
		if r.mcpsh, err = readCell(cells[1]); err != nil {
			t.Fatalf("ARCHITECTURE.md:%d: imports from mcpsh: %v", i+1, err)
		}
		if r.modules, err = readCell(cells[2]); err != nil {
			t.Fatalf("ARCHITECTURE.md:%d: imports from other modules: %v", i+1, err)
		}
		switch cells[3] {
		case "yes":
			r.testOnly = true
		case "":
		default:
			t.Fatalf("ARCHITECTURE.md:%d: \"tests only\" is \"yes\" or empty, not %q", i+1, cells[3])
		}
		if prev, ok := tb.rows[r.pkg]; ok {
			t.Fatalf("ARCHITECTURE.md:%d: %s has a second row (the first is line %d)", i+1, r.pkg, prev.line)
		}
		tb.rows[r.pkg] = r
	}
	// A table read wrong would hold nothing to anything.
	for _, p := range []string{"cmd/mcpsh", "policy", "client", "internal/testing/testenv"} {
		if _, ok := tb.rows[p]; !ok {
			t.Fatalf("the dependency table in %s has no row for %s: it was not read", path, p)
		}
	}
	return tb
}

// splitEntries splits a cell at the commas between entries, not at those
// of a platform list: `golang.org/x/sys` (darwin, linux).
func splitEntries(c string) []string {
	var out []string
	depth, from := 0, 0
	for i, r := range c {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, c[from:i])
				from = i + 1
			}
		}
	}
	return append(out, c[from:])
}

func readCell(c string) (map[string][]string, error) {
	m := map[string][]string{}
	if c == "—" {
		return m, nil
	}
	for _, e := range splitEntries(c) {
		e = strings.TrimSpace(e)
		sub := entryRE.FindStringSubmatch(e)
		if sub == nil {
			return nil, fmt.Errorf("%q is not a backquoted entry, optionally followed by platforms in parentheses (write \"—\" for none)", e)
		}
		var on []string
		if sub[2] != "" {
			for p := range strings.SplitSeq(sub[2], ",") {
				p = strings.TrimSpace(p)
				if !slices.Contains(platforms, p) {
					return nil, fmt.Errorf("%q: %q is not one of %v", e, p, platforms)
				}
				on = append(on, p)
			}
			sort.Strings(on)
		}
		m[sub[1]] = on
	}
	return m, nil
}

// pkg is what go list -json says of one package.
type pkg struct {
	ImportPath   string
	Standard     bool
	Module       *struct{ Path string }
	Imports      []string
	TestImports  []string
	XTestImports []string
	Deps         []string
	Error        *struct{ Err string }
}

func (p *pkg) local() bool { return p.Module != nil && p.Module.Path == module }

// graph is go list's answer for each platform.
type graph map[string]map[string]*pkg // platform → import path → package

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		t.Fatalf("go env GOMOD: %v %s", err, out)
	}
	return filepath.Dir(string(bytes.TrimSpace(out)))
}

func listAll(t *testing.T, root string) graph {
	t.Helper()
	g := graph{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make([]error, len(platforms))
	for i, goos := range platforms {
		wg.Go(func() {
			m, err := list(root, goos)
			mu.Lock()
			defer mu.Unlock()
			g[goos], errs[i] = m, err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return g
}

func list(root, goos string) (map[string]*pkg, error) {
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("GOOS=%s go list -deps -json ./...: %v\n%s", goos, err, stderr.Bytes())
	}
	m := map[string]*pkg{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(pkg)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("GOOS=%s go list: %v", goos, err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("GOOS=%s go list: %s: %s", goos, p.ImportPath, p.Error.Err)
		}
		m[p.ImportPath] = p
	}
	if m[module+"/cmd/mcpsh"] == nil {
		return nil, fmt.Errorf("GOOS=%s go list -deps ./... does not list cmd/mcpsh; the check would pass blind", goos)
	}
	return m, nil
}

func short(path string) string { return strings.TrimPrefix(path, module+"/") }

// arrows gives, for each of mcpsh's packages, what its non-test files import
// of mcpsh and of other modules, each with the platforms it is imported on.
func (g graph) arrows() (mcpsh, modules map[string]map[string][]string) {
	mcpsh, modules = map[string]map[string][]string{}, map[string]map[string][]string{}
	add := func(m map[string]map[string][]string, from, to, goos string) {
		if m[from] == nil {
			m[from] = map[string][]string{}
		}
		if !slices.Contains(m[from][to], goos) {
			m[from][to] = append(m[from][to], goos)
		}
	}
	for _, goos := range platforms {
		pkgs := g[goos]
		for _, p := range pkgs {
			if !p.local() {
				continue
			}
			from := short(p.ImportPath)
			if mcpsh[from] == nil {
				mcpsh[from], modules[from] = map[string][]string{}, map[string][]string{}
			}
			for _, imp := range p.Imports {
				q := pkgs[imp]
				switch {
				case q == nil:
					add(mcpsh, from, "(unlisted) "+imp, goos)
				case q.local():
					add(mcpsh, from, short(imp), goos)
				case q.Module != nil:
					add(modules, from, q.Module.Path, goos)
				}
			}
		}
	}
	for _, m := range []map[string]map[string][]string{mcpsh, modules} {
		for _, to := range m {
			for k := range to {
				sort.Strings(to[k])
			}
		}
	}
	return mcpsh, modules
}

func (tb table) check(g graph) []error {
	var errs []error
	mcpsh, modules := g.arrows()
	for _, from := range sortedKeys(mcpsh) {
		r, ok := tb.rows[from]
		if !ok {
			errs = append(errs, fmt.Errorf("%s has no row in ARCHITECTURE.md's dependency table: add one that lists what it imports", from))
			continue
		}
		errs = append(errs, compare(r, "mcpsh", r.mcpsh, mcpsh[from])...)
		errs = append(errs, compare(r, "other modules", r.modules, modules[from])...)
	}
	for _, p := range sortedKeys(tb.rows) {
		if _, ok := mcpsh[p]; !ok {
			errs = append(errs, fmt.Errorf("%v\n\tnames %s, which go list does not know: take the row out or fix its name", tb.rows[p], p))
		}
	}
	return errs
}

// compare holds what a package imports to what its row allows, both ways.
func compare(r row, column string, allowed, actual map[string][]string) []error {
	var errs []error
	for _, imp := range sortedKeys(actual) {
		on := actual[imp]
		want, ok := allowed[imp]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("%s imports %s%s, which its row does not allow:\n\t%v\n\tadd it to the row's \"imports from %s\" if the arrow belongs there, or take the import out", r.pkg, imp, platformsOf(on), r, column))
		case want == nil && len(on) != len(platforms):
			errs = append(errs, fmt.Errorf("%s imports %s only%s, which its row lists for every platform:\n\t%v\n\twrite `%s` (%s)", r.pkg, imp, platformsOf(on), r, imp, strings.Join(on, ", ")))
		case want != nil && !slices.Equal(want, on):
			errs = append(errs, fmt.Errorf("%s imports %s%s, which its row lists for %s:\n\t%v", r.pkg, imp, platformsOf(on), strings.Join(want, ", "), r))
		}
	}
	for _, imp := range sortedKeys(allowed) {
		if _, ok := actual[imp]; !ok {
			errs = append(errs, fmt.Errorf("%s does not import %s, which its row lists:\n\t%v\n\ttake it out of the row", r.pkg, imp, r))
		}
	}
	return errs
}

func platformsOf(on []string) string {
	if len(on) == len(platforms) {
		return ""
	}
	return " (on " + strings.Join(on, ", ") + ")"
}

// invariants are the rules that hold whatever the table says: a row edited
// to allow an arrow does not allow these.
func invariants(g graph, testOnly map[string]bool) []error {
	// Each finding once, with the platforms it was found on.
	found := map[string][]string{}
	var order []string
	note := func(goos, format string, args ...any) {
		k := fmt.Sprintf(format, args...)
		if _, ok := found[k]; !ok {
			order = append(order, k)
		}
		if !slices.Contains(found[k], goos) {
			found[k] = append(found[k], goos)
		}
	}
	for _, goos := range platforms {
		pkgs := g[goos]
		for _, lib := range []string{"policy", "client"} {
			var bad []string
			for _, d := range pkgs[module+"/"+lib].Deps {
				if s := short(d); s == "internal/cli" || s == "ui" || strings.HasPrefix(s, "ui/") {
					bad = append(bad, s)
				}
			}
			if bad != nil {
				note(goos, "%s depends on %s: client and policy are libraries and never depend on internal/cli or ui", lib, strings.Join(bad, ", "))
			}
		}
		policy := pkgs[module+"/policy"]
		var bad []string
		for _, d := range policy.Deps {
			if q := pkgs[d]; q == nil || !q.Standard {
				bad = append(bad, short(d))
			}
		}
		if bad != nil {
			note(goos, "policy depends on %s: policy may use the standard library only", strings.Join(bad, ", "))
		}
		for _, imp := range append(slices.Clone(policy.TestImports), policy.XTestImports...) {
			// go list -deps lists no test's imports, but a path whose first
			// element has no dot is the standard library's. An example
			// (package policy_test) imports policy as a program would.
			if strings.Contains(strings.Split(imp, "/")[0], ".") && imp != module+"/policy" {
				note(goos, "policy's tests import %s: policy and its tests may use the standard library only", short(imp))
			}
		}
		// ui routes and compares without reflection, its tests included
		// (issue 20): a walk of the model's state is internal/testing/snapshot's.
		ui := pkgs[module+"/ui"]
		if slices.Contains(slices.Concat(ui.Imports, ui.TestImports, ui.XTestImports), "reflect") {
			note(goos, "ui or its tests import reflect: ui routes, lists its keys and compares without reflection")
		}
		for _, p := range pkgs {
			if !p.local() || testOnly[short(p.ImportPath)] {
				continue
			}
			for _, imp := range p.Imports {
				if testOnly[short(imp)] {
					note(goos, "%s imports %s, which only tests may import (its row says tests only)", short(p.ImportPath), short(imp))
				}
			}
		}
		bin := pkgs[module+"/cmd/mcpsh"]
		if !slices.Contains(bin.Deps, module+"/internal/cli") {
			note(goos, "go list -deps does not list internal/cli under cmd/mcpsh; the check of the binary would pass blind")
		}
		for _, d := range bin.Deps {
			if testOnly[short(d)] {
				note(goos, "mcpsh's binary depends on %s, which only tests may import", short(d))
			}
		}
	}
	var errs []error
	if !testOnly["internal/testing/testenv"] {
		errs = append(errs, fmt.Errorf("the table does not mark internal/testing/testenv tests only; the test-only check would pass blind"))
	}
	sort.Strings(order)
	for _, k := range order {
		errs = append(errs, fmt.Errorf("%s%s", k, platformsOf(found[k])))
	}
	return errs
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
