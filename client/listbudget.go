package client

import (
	"fmt"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// A server decides how many pages a listing has: one that hands out a new
// cursor forever, with a megabyte on each page, would have mcpsh follow it
// until memory ran out. Every listing (tools, resources, resource
// templates, prompts) and every completion therefore draws on a budget of
// items, bytes and pages, and stops with a *ListLimitError when it is spent.
// Bytes are those of the answers as they came off the wire, which bounds
// both what a listing keeps and the work of reading it: a listing holds at
// most the budget plus the one answer being read (itself capped at
// maxAnswerBytes). A re-list of tools keeps the last complete listing, its
// pages included, in use until the new one is complete (list.go), so it
// holds up to about twice the budget.

// listLimits bound one listing.
type listLimits struct {
	items int
	bytes int
	pages int
}

// defaultListLimits are sized for the largest real servers, with room to
// spare: tens of thousands of tools or resources, tens of MiB of schemas
// and descriptions. A listing past them is a server paging without end.
var defaultListLimits = listLimits{items: 100_000, bytes: 64 << 20, pages: 10_000}

// completionLimits bound one completion's suggestions: the spec's 100
// values, and bytes enough for long ones.
var completionLimits = listLimits{items: maxCompletions, bytes: 1 << 20, pages: 1}

// listBudget is what one listing has drawn so far.
type listBudget struct {
	lim                 listLimits
	items, bytes, pages int
}

// ListLimitError is a listing that stopped because it spent mcpsh's budget
// for one listing: the server may be paging without end.
type ListLimitError struct {
	Server string // the server's label, made safe
	List   string // "tools", "resources", "resource templates", "prompts"
	// Limit is the bound it reached ("64 MiB", "100000 items", "10000 pages").
	Limit string
	// What the listing had drawn when it stopped.
	Pages, Items, Bytes int
	// Partial: what came before the stop is kept and may be shown. A tool
	// listing is never partial: calls are decided on it (a tool listed
	// twice takes its strictest definition, and the stricter one may be on
	// a page never read), so a cut-off one is not used at all.
	Partial bool
}

func (e *ListLimitError) Error() string {
	drawn := HumanBytes(e.Bytes)
	if e.Bytes >= 1<<20 {
		drawn = fmt.Sprintf("%.1f MiB", float64(e.Bytes)/(1<<20)) // as the limit is written
	}
	msg := fmt.Sprintf("listing %s of %s stopped at mcpsh's limit of %s for one listing, after %d pages (%d %s, %s): the server may be paging without end",
		e.List, e.Server, e.Limit, e.Pages, e.Items, e.List, drawn)
	if !e.Partial {
		msg += "; none of this listing is used"
	}
	return msg
}

// another says whether one more page may be asked for.
func (b *listBudget) another() (string, bool) {
	if b.pages >= b.lim.pages {
		return fmt.Sprintf("%d pages", b.lim.pages), false
	}
	return "", true
}

// page draws a page of n bytes, before it is read; false when it would pass
// the budget.
func (b *listBudget) page(n int) (string, bool) {
	limit, ok := b.spend(n)
	if ok {
		b.pages++
	}
	return limit, ok
}

// spend draws n bytes; false when they would pass the budget.
func (b *listBudget) spend(n int) (string, bool) {
	if b.bytes+n > b.lim.bytes {
		return bytesLimit(b.lim.bytes), false
	}
	b.bytes += n
	return "", true
}

// bytesLimit writes a limit in bytes as it was set.
func bytesLimit(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// take draws n items; false when they would pass the budget.
func (b *listBudget) take(n int) (string, bool) {
	if b.items+n > b.lim.items {
		return fmt.Sprintf("%d items", b.lim.items), false
	}
	b.items += n
	return "", true
}

// spent is the error for a listing stopped at limit.
func (s *Session) spent(list, limit string, b *listBudget, partial bool) *ListLimitError {
	return &ListLimitError{Server: termtext.Line(s.Target.Redact(s.Target.Label())), List: list, Limit: limit,
		Pages: b.pages, Items: b.items, Bytes: b.bytes, Partial: partial}
}
