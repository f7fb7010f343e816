package client

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolSet is the last listing, replaced whole on each refresh.
type toolSet struct {
	mu     sync.RWMutex
	tools  []*Tool
	byName map[string]*Tool
	// pages keeps the raw pages by cursor: with protocol 2026-07-28 the SDK may
	// answer a repeated list from its cache without a wire request.
	pages map[string]json.RawMessage
}

// Listing is the result of listing a server's tools.
type Listing struct {
	Tools []*Tool
	// Warnings are problems worked around: a repeated cursor, a duplicate or
	// unnamed tool. The listing is still usable.
	Warnings []string
}

// ListTools fetches every page of tools/list and remembers the result for
// Tool. A listing that fails, or stops at the listing budget (a
// *ListLimitError), is not used at all: the tools of the last complete
// listing stay, and the listing stays stale, so the next call lists again.
func (s *Session) ListTools(ctx context.Context) (*Listing, error) {
	s.listMu.Lock()
	defer s.listMu.Unlock()
	// A change announced from here on makes this listing stale again.
	before := s.listed.Swap(s.changes.Load())
	c := s.current()
	out := &Listing{}
	seenName := map[string]int{} // name → index in out.Tools
	dups := map[string]int{}
	// faults: tools left out for an invalid x-mcp-header, by name. Any one
	// definition with a fault leaves the name out, duplicates included.
	faults := map[string]string{}
	s.tools.mu.RLock()
	oldPages := s.tools.pages
	s.tools.mu.RUnlock()
	pages := map[string]json.RawMessage{}
	fetch := func(cursor string) (json.RawMessage, error) {
		if _, err := c.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor}); err != nil {
			return nil, fmt.Errorf("%s", s.Target.Redact(termtext.Line(err.Error())))
		}
		raw, ok := c.tap.takePage(cursor)
		if !ok {
			if raw, ok = oldPages[cursor]; !ok {
				return nil, fmt.Errorf("the answer for cursor %q never reached mcpsh", termtext.Truncate(termtext.Line(cursor), 60))
			}
		}
		pages[cursor] = raw
		return raw, nil
	}
	warnings, err := s.paginate("tools", "tools", false, fetch, func(page, n int, rt json.RawMessage) {
		t, err := parseValidTool(rt) // an item of a page: valid JSON
		if err != nil {
			out.Warnings = append(out.Warnings, fmt.Sprintf("page %d, tool %d skipped: %s", page, n, termtext.Line(err.Error())))
			return
		}
		if f := paramHeaderFault(t.InputSchema); f != "" {
			if _, had := faults[t.Name]; !had {
				faults[t.Name] = f
			}
		}
		if at, dup := seenName[t.Name]; dup {
			out.Tools[at] = strictestOf(out.Tools[at], t)
			dups[t.Name]++
			return
		}
		seenName[t.Name] = len(out.Tools)
		for _, pr := range t.Problems {
			out.Warnings = append(out.Warnings, termtext.Line(t.Name)+": "+termtext.Line(pr))
		}
		out.Tools = append(out.Tools, t)
	})
	if err != nil {
		// Still stale: what was announced before this listing is not yet seen.
		s.listed.CompareAndSwap(s.changes.Load(), before)
		return nil, s.listError("tools", err)
	}
	out.Warnings = append(out.Warnings, warnings...)
	out.Tools = leaveOutFaulty(out, faults)
	for _, t := range out.Tools {
		if n := dups[t.Name]; n > 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("tool %s is listed %d times: the strictest reading of its definitions decides (%s)",
				termtext.Line(t.Name), n+1, describeClass(t)))
		}
	}
	byName := make(map[string]*Tool, len(out.Tools))
	for _, t := range out.Tools {
		byName[t.Name] = t
	}
	s.tools.mu.Lock()
	s.tools.tools, s.tools.byName, s.tools.pages = out.Tools, byName, pages
	s.tools.mu.Unlock()
	return out, nil
}

// Tools returns the tools from the last listing.
func (s *Session) Tools() []*Tool {
	s.tools.mu.RLock()
	defer s.tools.mu.RUnlock()
	return s.tools.tools
}

// Tool finds a tool from the last listing by name.
func (s *Session) Tool(name string) (*Tool, bool) {
	s.tools.mu.RLock()
	defer s.tools.mu.RUnlock()
	t, ok := s.tools.byName[name]
	return t, ok
}

// ToolPage returns the page of the last complete listing that cursor asked
// for ("" the first), exactly as the server sent it, nextCursor included.
// A caller that passes the listing on (a proxy) serves its pages from here:
// they are what every decision is made on.
func (s *Session) ToolPage(cursor string) (json.RawMessage, bool) {
	s.tools.mu.RLock()
	defer s.tools.mu.RUnlock()
	p, ok := s.tools.pages[cursor]
	return p, ok
}

// ToolPages returns every page of the last complete listing by the cursor
// that asked for it. The map is the caller's; the pages are shared and
// must not be written to.
func (s *Session) ToolPages() map[string]json.RawMessage {
	s.tools.mu.RLock()
	defer s.tools.mu.RUnlock()
	out := make(map[string]json.RawMessage, len(s.tools.pages))
	for k, v := range s.tools.pages {
		out[k] = v
	}
	return out
}

// leaveOutFaulty drops the tools SEP-2243 says a client must not use (an
// invalid x-mcp-header), each with a warning naming the fault.
func leaveOutFaulty(out *Listing, faults map[string]string) []*Tool {
	if len(faults) == 0 {
		return out.Tools
	}
	kept := out.Tools[:0:0]
	for _, t := range out.Tools {
		f, bad := faults[t.Name]
		if !bad {
			kept = append(kept, t)
			continue
		}
		out.Warnings = append(out.Warnings, fmt.Sprintf("tool %s left out: %s (a tool with an invalid x-mcp-header cannot be called)",
			termtext.Line(t.Name), termtext.Line(f)))
	}
	return kept
}
