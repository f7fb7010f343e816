package snapshot

import (
	"strings"
	"testing"
)

type node struct {
	name  string
	next  *node
	tags  map[string][]int
	other *strings.Builder // another package's: not followed
	inbox *queue           // opaque
	any   any
}

type queue struct{ n int }

var opts = Options{Follow: []any{(*node)(nil)}, Opaque: []string{"snapshot.queue"}}

// A write anywhere the walk follows shows in the diff: behind pointers, in
// maps, slices and interfaces, and around a cycle.
func TestTakeSeesEveryWrite(t *testing.T) {
	writes := map[string]func(n *node){
		"behind a pointer": func(n *node) { n.next.name = "b2" },
		"in a map's slice": func(n *node) { n.tags["x"][0] = 9 },
		"a map's new key":  func(n *node) { n.tags["y"] = nil },
		"in an interface":  func(n *node) { n.any.(*node).name = "c2" },
		"a pointer moved":  func(n *node) { n.next = &node{name: "b"} },
	}
	for what, write := range writes {
		n := sample()
		before := Take(t, n, opts)
		write(n)
		if Diff(before, Take(t, n, opts)) == "" {
			t.Errorf("%s: no difference seen", what)
		}
	}
	// Nothing written: nothing differs; the cycle ends the walk.
	n := sample()
	if d := Diff(Take(t, n, opts), Take(t, n, opts)); d != "" {
		t.Errorf("two snapshots of the same value differ:\n%s", d)
	}
}

// What other packages hold behind their pointers, and the opaque types,
// are read as addresses only.
func TestTakeStopsAtOtherPackagesAndOpaqueTypes(t *testing.T) {
	n := sample()
	before := Take(t, n, opts)
	n.other.WriteString("more")
	n.inbox.n++
	if d := Diff(before, Take(t, n, opts)); d != "" {
		t.Errorf("followed what it should not:\n%s", d)
	}
}

func sample() *node {
	n := &node{name: "a", next: &node{name: "b"}, tags: map[string][]int{"x": {1}}, other: &strings.Builder{}, inbox: &queue{}}
	n.next.next = n
	n.any = &node{name: "c"}
	return n
}
