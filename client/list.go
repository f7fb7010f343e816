package client

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxPages bounds a listing even when every cursor is new.
const maxPages = 10000

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

// ListTools fetches every page of tools/list and remembers the result for Tool.
func (s *Session) ListTools(ctx context.Context) (*Listing, error) {
	s.listMu.Lock()
	defer s.listMu.Unlock()
	// A change announced from here on makes this listing stale again.
	s.listed.Store(s.changes.Load())
	c := s.current()
	out := &Listing{}
	seenCursor := map[string]bool{}
	seenName := map[string]int{} // name → index in out.Tools
	dups := map[string]int{}
	s.tools.mu.RLock()
	oldPages := s.tools.pages
	s.tools.mu.RUnlock()
	pages := map[string]json.RawMessage{}
	cursor := ""
	for page := 0; ; page++ {
		if page == maxPages {
			out.Warnings = append(out.Warnings, fmt.Sprintf("stopped after %d pages of tools", maxPages))
			break
		}
		if _, err := c.cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor}); err != nil {
			return nil, fmt.Errorf("listing tools: %s", s.Target.Redact(termtext.Line(err.Error())))
		}
		raw, ok := c.tap.takePage(cursor)
		if !ok {
			if raw, ok = oldPages[cursor]; !ok {
				return nil, fmt.Errorf("listing tools: the answer for cursor %q never reached mcpsh", cursor)
			}
		}
		pages[cursor] = raw
		var p struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor json.RawMessage   `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, fmt.Errorf("listing tools: the server's answer is not a tool list: %v", err)
		}
		for i, rt := range p.Tools {
			t, err := parseTool(rt)
			if err != nil {
				out.Warnings = append(out.Warnings, fmt.Sprintf("page %d, tool %d skipped: %s", page+1, i+1, termtext.Line(err.Error())))
				continue
			}
			if at, dup := seenName[t.Name]; dup {
				out.Tools[at] = strictestOf(out.Tools[at], t)
				dups[t.Name]++
				continue
			}
			seenName[t.Name] = len(out.Tools)
			for _, pr := range t.Problems {
				out.Warnings = append(out.Warnings, termtext.Line(t.Name)+": "+termtext.Line(pr))
			}
			out.Tools = append(out.Tools, t)
		}
		next := ""
		if !isNull(p.NextCursor) && json.Unmarshal(p.NextCursor, &next) != nil {
			out.Warnings = append(out.Warnings, "nextCursor is not a string: listing stopped")
			break
		}
		if next == "" {
			break
		}
		seenCursor[cursor] = true
		if seenCursor[next] {
			out.Warnings = append(out.Warnings, fmt.Sprintf("the server repeated cursor %q: listing stopped after %d pages", termtext.Truncate(next, 60), page+1))
			break
		}
		cursor = next
	}
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
