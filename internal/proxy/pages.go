package proxy

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mcpsh/mcpsh/client"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Listings reach the host page by page with the upstream's own cursors.
//
// Tools: the host is served from the pages of mcpsh's own latest listing
// (client.Session.ToolPage), the one every call is decided on: a host's
// cursor is only a key into it, never sent upstream. The tools are listed
// again only when the server said they changed, or came back after a
// restart; otherwise the host is answered from memory.
//
// Resources, templates, prompts: each page is asked for upstream
// (client.Session.Forward), but only with a cursor the upstream handed out
// in this listing: a host cannot make mcpsh send the server a cursor of its
// own making.

// errInvalidCursor is the spec's answer to a cursor that is not in the
// current listing (stale after a list change, or never handed out).
func errInvalidCursor() error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor: it is not one of the current listing's (list again from the start)"}
}

// toolsPage is the tools/list page for cursor, listing again first when the
// last listing is out of date.
func (h *host) toolsPage(ctx context.Context, up *client.Session, cursor string) (json.RawMessage, error) {
	if _, ok := up.ToolPage(""); !ok || up.Stale() {
		if _, err := up.ListTools(ctx); err != nil {
			return nil, internalError(err)
		}
	}
	page, ok := up.ToolPage(cursor)
	if !ok {
		return nil, errInvalidCursor()
	}
	if cursor == "" {
		h.markServed(up)
	}
	return page, nil
}

// maxCursors bounds the cursors kept for one listing: a server that hands
// out a new one forever is followed by the host, not remembered by mcpsh
// past this.
const maxCursors = 10_000

// cursors are the cursors the host was handed for each forwarded listing.
type cursors struct {
	mu     sync.Mutex
	issued map[string]map[string]bool // method → cursors
}

func (c *cursors) known(method, cursor string) bool {
	if cursor == "" {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.issued[method][cursor]
}

// note keeps the nextCursor of a page the host is handed.
func (c *cursors) note(method string, page json.RawMessage) {
	var p struct {
		Next *string `json:"nextCursor"`
	}
	if json.Unmarshal(page, &p) != nil || p.Next == nil || *p.Next == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.issued == nil {
		c.issued = map[string]map[string]bool{}
	}
	set := c.issued[method]
	if set == nil || len(set) >= maxCursors {
		set = map[string]bool{}
		c.issued[method] = set
	}
	set[*p.Next] = true
}

// forget drops the cursors of listings the server said changed.
func (c *cursors) forget(methods ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range methods {
		delete(c.issued, m)
	}
}
