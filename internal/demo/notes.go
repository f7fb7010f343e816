package demo

import (
	"slices"
	"strings"
	"sync"
	"time"
)

// note is one entry of the in-memory workspace.
type note struct {
	ID      int
	Title   string
	Content string
	Tags    []string
	Pinned  bool
	Created time.Time
	// Rev counts the note's changes, so that the resources a client
	// subscribed to are told when their note changed (publish.go).
	Rev int
}

// store is the notes workspace every note tool works on. It lives only in
// memory, so each New starts from the same three seed notes and a demo can
// be repeated without cleaning anything up. All methods are goroutine-safe
// and return copies, so callers never share a note with the store.
type store struct {
	mu       sync.Mutex
	now      func() time.Time
	gen      int // counts every change to the live notes, so publish knows when to look
	nextID   int
	notes    []note // in ID order, which is also creation order
	archived []note
}

// newStore returns a store seeded with notes of different ages, so that
// archive_notes has something to archive and search_notes something to find.
func newStore(now func() time.Time) *store {
	st := &store{now: now, nextID: 1}
	t := now()
	st.insert(note{Title: "Welcome to mcpsh", Content: "This workspace lives in memory. Try search_notes, then add_note.", Tags: []string{"demo"}, Pinned: true, Created: t.AddDate(0, 0, -45)})
	st.insert(note{Title: "Shopping list", Content: "Coffee beans, oat milk, rice", Tags: []string{"home"}, Created: t.AddDate(0, 0, -10)})
	st.insert(note{Title: "Release checklist", Content: "Tag the release, update the changelog, announce it", Tags: []string{"work"}, Created: t.AddDate(0, 0, -1)})
	return st
}

// insert stores n under the next ID and returns the stored copy. The caller
// holds no lock.
func (st *store) insert(n note) note {
	st.mu.Lock()
	defer st.mu.Unlock()
	n.ID = st.nextID
	st.nextID++
	if n.Created.IsZero() {
		n.Created = st.now()
	}
	n.Tags = slices.Clone(n.Tags)
	st.notes = append(st.notes, n)
	st.gen++
	return clone(n)
}

// add creates a note from user input.
func (st *store) add(title, content string, tags []string, pinned bool) note {
	return st.insert(note{Title: title, Content: content, Tags: tags, Pinned: pinned})
}

// list returns every live note, optionally only those carrying tag.
func (st *store) list(tag string) []note {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []note
	for _, n := range st.notes {
		if tag == "" || slices.Contains(n.Tags, tag) {
			out = append(out, clone(n))
		}
	}
	return out
}

// get returns the note with the given ID.
func (st *store) get(id int) (note, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	i := st.index(id)
	if i < 0 {
		return note{}, false
	}
	return clone(st.notes[i]), true
}

// search returns the notes whose title, content or tags contain query,
// ignoring case.
func (st *store) search(query string) []note {
	q := fold(query)
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []note
	for _, n := range st.notes {
		hay := fold(n.Title + "\n" + n.Content + "\n" + strings.Join(n.Tags, " "))
		if strings.Contains(hay, q) {
			out = append(out, clone(n))
		}
	}
	return out
}

// tag adds tag to a note. added is false when the note already had it, which
// is what makes tag_note idempotent.
func (st *store) tag(id int, tag string) (n note, added, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	i := st.index(id)
	if i < 0 {
		return note{}, false, false
	}
	if !slices.Contains(st.notes[i].Tags, tag) {
		st.notes[i].Tags = append(st.notes[i].Tags, tag)
		st.notes[i].Rev++
		st.gen++
		added = true
	}
	return clone(st.notes[i]), added, true
}

// rename gives a note a new title and returns it as it was before. changed
// is false when the title was already that, which is what makes
// rename_note idempotent.
func (st *store) rename(id int, title string) (before note, changed, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	i := st.index(id)
	if i < 0 {
		return note{}, false, false
	}
	before = clone(st.notes[i])
	if st.notes[i].Title != title {
		st.notes[i].Title = title
		st.notes[i].Rev++
		st.gen++
		changed = true
	}
	return before, changed, true
}

// tags returns every tag of the live notes, sorted, once each.
func (st *store) tags() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []string
	for _, n := range st.notes {
		out = append(out, n.Tags...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// remove deletes a note for good and reports whether it existed.
func (st *store) remove(id int) (note, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	i := st.index(id)
	if i < 0 {
		return note{}, false
	}
	n := st.notes[i]
	st.notes = slices.Delete(st.notes, i, i+1)
	st.gen++
	return n, true
}

// pop removes and returns the newest note.
func (st *store) pop() (note, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.notes) == 0 {
		return note{}, false
	}
	n := st.notes[len(st.notes)-1]
	st.notes = st.notes[:len(st.notes)-1]
	st.gen++
	return n, true
}

// archive moves notes created before cutoff out of the workspace. Nothing
// reads the archive back, which is why the tool is destructive in effect
// whatever its description says.
func (st *store) archive(cutoff time.Time) []note {
	st.mu.Lock()
	defer st.mu.Unlock()
	var moved []note
	kept := st.notes[:0:0]
	for _, n := range st.notes {
		if n.Created.Before(cutoff) {
			moved = append(moved, clone(n))
			st.archived = append(st.archived, n)
		} else {
			kept = append(kept, n)
		}
	}
	if len(moved) > 0 {
		st.gen++
	}
	st.notes = kept
	return moved
}

// snapshot returns every live note and the generation they are of.
func (st *store) snapshot() ([]note, int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]note, len(st.notes))
	for i, n := range st.notes {
		out[i] = clone(n)
	}
	return out, st.gen
}

// generation is the count of changes so far.
func (st *store) generation() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.gen
}

// counts reports the workspace size, for extra_stats and render_chart.
func (st *store) counts() (live, archived int, perTag map[string]int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	perTag = map[string]int{}
	for _, n := range st.notes {
		for _, t := range n.Tags {
			perTag[t]++
		}
	}
	return len(st.notes), len(st.archived), perTag
}

// index returns the position of id in st.notes, or -1. Callers hold st.mu.
func (st *store) index(id int) int {
	return slices.IndexFunc(st.notes, func(n note) bool { return n.ID == id })
}

// clone copies n so that its tag slice is not shared with the store.
func clone(n note) note {
	n.Tags = slices.Clone(n.Tags)
	return n
}
