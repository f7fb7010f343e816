package client

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// connectRaw connects to a fixture target without listing its tools.
func connectRaw(t *testing.T, target Target) *Session {
	t.Helper()
	s, err := Connect(context.Background(), target, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// limitError checks that err is the budget's, for list, naming the server,
// and that it drew no more than the budget: the bytes it counted are those
// of every page it kept, so they bound what the listing held.
func limitError(t *testing.T, err error, s *Session, list string, partial bool) *ListLimitError {
	t.Helper()
	var le *ListLimitError
	if !errors.As(err, &le) {
		t.Fatalf("listing %s: %v, want a *ListLimitError", list, err)
	}
	lim := s.listLimits()
	if le.List != list || le.Partial != partial || le.Server != s.Target.Label() {
		t.Errorf("error for %q (partial %v) of %q: %+v", list, partial, s.Target.Label(), le)
	}
	if le.Bytes > lim.bytes || le.Items > lim.items || le.Pages > lim.pages {
		t.Errorf("the listing drew %d bytes, %d items, %d pages: more than its budget %+v", le.Bytes, le.Items, le.Pages, lim)
	}
	msg := err.Error()
	for _, want := range []string{"listing " + list + " of " + s.Target.Label(), "stopped at mcpsh's limit of " + le.Limit, "paging without end"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	return le
}

// A server that pages without end, a megabyte a page, is followed until the
// budget is spent, and no further: the listing stops with an error naming
// the server and the list. A tool listing that stops is not used; a
// resource or prompt listing keeps what came before the stop. The budget
// here is 8 MiB, an eighth of the default, which e2e's
// TestHostileEndlessListingsStopWithAClearError spends end to end: a
// megabyte of JSON costs the same to read whatever the budget.
func TestEndlessListingsStopAtTheBudget(t *testing.T) {
	t.Parallel()
	small := &listLimits{items: defaultListLimits.items, bytes: 8 << 20, pages: defaultListLimits.pages}
	target, state := fixtureTarget(t, "endless-tools")
	s := connectRaw(t, target)
	s.limits = small
	l, err := s.ListTools(context.Background())
	le := limitError(t, err, s, "tools", false)
	if l != nil || len(s.Tools()) != 0 {
		t.Errorf("a tool listing cut short was used: %v, %d tools", l, len(s.Tools()))
	}
	if le.Limit != "8 MiB" || le.Bytes < small.bytes-2*pageSize {
		t.Errorf("stopped at %s after %d bytes, want the 8 MiB budget spent", le.Limit, le.Bytes)
	}
	// mcpsh asked for the page it refused, and not one more.
	if served := len(fixture.Lines(state, "tool-pages")); served != le.Pages+1 {
		t.Errorf("the server served %d pages; mcpsh kept %d", served, le.Pages)
	}
	if !strings.Contains(err.Error(), "none of this listing is used") {
		t.Errorf("message %q does not say the listing is not used", err)
	}

	target, state = fixtureTarget(t, "endless-lists")
	s = connectFixture(t, target, nil)
	s.limits = small
	rl, err := s.ListResources(context.Background())
	le = limitError(t, err, s, "resources", true)
	if rl == nil || len(rl.Resources) != le.Items || len(rl.Templates) != 1 {
		t.Fatalf("resources kept: %v", rl)
	}
	if served := len(fixture.Lines(state, "resource-pages")); served != le.Pages+1 {
		t.Errorf("the server served %d pages of resources; mcpsh kept %d", served, le.Pages)
	}
	pl, err := s.ListPrompts(context.Background())
	le = limitError(t, err, s, "prompts", true)
	if pl == nil || len(pl.Prompts) != le.Items || le.Items == 0 {
		t.Fatalf("prompts kept: %v", pl)
	}
	c, err := s.Complete(context.Background(), CompletionRef{Prompt: "p1"}, "x", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range c.Values {
		n += len(v)
	}
	if !c.HasMore || len(c.Values) != completionLimits.items || n > completionLimits.bytes {
		t.Errorf("completion of 500 values of 4 kB: %d values, %d bytes, hasMore %v; want the first %d", len(c.Values), n, c.HasMore, completionLimits.items)
	}
	// Larger values spend the bytes first: the suggestions stop short of
	// the next value that would pass 1 MiB.
	c, err = s.Complete(context.Background(), CompletionRef{Prompt: "p1"}, "wide", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	n = 0
	for _, v := range c.Values {
		n += len(v)
	}
	if !c.HasMore || len(c.Values) == 0 || len(c.Values) >= completionLimits.items || n > completionLimits.bytes || n+40_000 <= completionLimits.bytes {
		t.Errorf("completion of 60 values of 40 kB: %d values, %d bytes, hasMore %v; want them cut at 1 MiB", len(c.Values), n, c.HasMore)
	}
}

// pageSize is about the size of a page of the endless scenarios.
const pageSize = 1 << 20

// Pages with few items, or none, stop at the items and pages budgets.
func TestSmallEndlessPagesStopAtItemsAndPages(t *testing.T) {
	t.Parallel()
	target, _ := fixtureTarget(t, "endless-small")
	s := connectFixture(t, target, nil)
	s.limits = &listLimits{items: 50, bytes: 1 << 20, pages: 30}
	rl, err := s.ListResources(context.Background())
	le := limitError(t, err, s, "resources", true)
	if le.Limit != "50 items" || le.Items != 48 || len(rl.Resources) != 48 {
		t.Errorf("three a page, at most 50: stopped at %s with %d items, %d kept", le.Limit, le.Items, len(rl.Resources))
	}
	pl, err := s.ListPrompts(context.Background())
	le = limitError(t, err, s, "prompts", true)
	if le.Limit != "30 pages" || le.Pages != 30 || len(pl.Prompts) != 0 {
		t.Errorf("empty pages: stopped at %s after %d pages, %d prompts", le.Limit, le.Pages, len(pl.Prompts))
	}
}

// After the server says its tools changed, a listing that stops at the
// budget fails the call, which is not sent, and leaves the listing stale:
// the next call lists again, rather than being decided on the old listing.
func TestCallAfterAnEndlessRelistingIsNotSent(t *testing.T) {
	t.Parallel()
	target, state := fixtureTarget(t, "endless-after-change")
	s := connectFixture(t, target, nil)
	s.limits = &listLimits{items: 100_000, bytes: 4 << 20, pages: 10_000}
	if o, _ := s.Do(context.Background(), &Call{Tool: mustTool(t, s, "trigger"), Mode: policy.Batch}); o.Status != StatusOK {
		t.Fatalf("trigger: %s %s", o.Status, o.Error)
	}
	waitFor(t, "the list change", s.Stale)
	read := mustTool(t, s, "read")
	for i := range 2 {
		o, _ := s.Do(context.Background(), &Call{Tool: read, Mode: policy.Batch})
		if o.Status != StatusFailed || !strings.Contains(o.Error, "stopped at mcpsh's limit") {
			t.Errorf("call %d after the change: %s %q", i+1, o.Status, o.Error)
		}
		if !s.Stale() {
			t.Errorf("call %d: the listing that failed is taken for the server's current one", i+1)
		}
	}
	if n := fixture.CountIn(state, "executions", "read"); n != 0 {
		t.Errorf("read ran %d times on a listing that never finished", n)
	}
}
