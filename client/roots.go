package client

import (
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SetRoots replaces the roots the session offers. go-sdk tells the server
// (notifications/roots/list_changed) when the session declared roots with
// Options.OfferRoots; a server that asks in a round (protocol 2026-07-28)
// gets the new ones. A session that declared no roots offers none, whatever
// is set here: the capability is fixed at the handshake.
func (s *Session) SetRoots(roots []Root) {
	s.rootsMu.Lock()
	old := s.roots
	s.roots = slices.Clone(roots)
	s.rootsMu.Unlock()
	var gone []string
	for _, r := range old {
		if !slices.ContainsFunc(roots, func(n Root) bool { return n.URI == r.URI }) {
			gone = append(gone, r.URI)
		}
	}
	if len(gone) > 0 {
		//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
		s.client.RemoveRoots(gone...)
	}
	//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
	var add []*mcp.Root
	for _, r := range roots {
		if !slices.Contains(old, r) {
			//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
			add = append(add, &mcp.Root{URI: r.URI, Name: r.Name})
		}
	}
	//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
	s.client.AddRoots(add...)
}

// Roots are the roots the session offers now.
func (s *Session) Roots() []Root {
	s.rootsMu.Lock()
	defer s.rootsMu.Unlock()
	return slices.Clone(s.roots)
}

// offersRoots says whether the session declares roots to the server.
func (s *Session) offersRoots() bool { return len(s.opts.Roots) > 0 || s.opts.OfferRoots }
