package demo

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// extraTool is the tool toggle_extras adds and removes.
const extraTool = "extra_stats"

// addToggleExtras registers toggle_extras, the tool that exercises a
// client's handling of notifications/tools/list_changed: go-sdk sends one
// whenever a tool is added or removed.
func (s *Server) addToggleExtras() {
	addTool(s, &mcp.Tool{
		Name:        "toggle_extras",
		Title:       "Toggle extra tools",
		Description: "Turns the read-only extra_stats tool on or off (enabled: true or false), so the tool list changes and clients are notified; idempotent, because asking for the current state changes nothing.",
		InputSchema: schema(`{"type":"object","required":["enabled"],"properties":{
			"enabled":{"type":"boolean","description":"whether extra_stats should exist"}}}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: flag(false), IdempotentHint: true, OpenWorldHint: flag(false)},
		Meta:        examples(map[string]any{"enabled": true}, map[string]any{"enabled": false}),
	}, s.toggleExtras)
}

type toggleInput struct {
	Enabled bool `json:"enabled"`
}

func (s *Server) toggleExtras(_ context.Context, _ *mcp.CallToolRequest, in toggleInput) (*mcp.CallToolResult, any, error) {
	// extrasMu keeps concurrent toggles from interleaving their add and
	// remove, which could leave the tool list disagreeing with s.extras.
	s.extrasMu.Lock()
	defer s.extrasMu.Unlock()
	if s.extras == in.Enabled {
		return textResult("%s is already %s; nothing changed.", extraTool, onOff(in.Enabled)), nil, nil
	}
	s.extras = in.Enabled
	if in.Enabled {
		addTool(s, &mcp.Tool{
			Name:        extraTool,
			Title:       "Workspace stats",
			Description: "Counts the workspace's notes, archived notes, tags and simulated messages; it exists only while toggle_extras has it enabled.",
			InputSchema: schema(emptyInput),
			Annotations: readOnly(""),
		}, s.extraStats)
	} else {
		s.mcp.RemoveTools(extraTool)
	}
	return textResult("%s is now %s; the tool list changed.", extraTool, onOff(in.Enabled)), nil, nil
}

func onOff(b bool) string {
	if b {
		return "enabled"
	}
	return "disabled"
}

func (s *Server) extraStats(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	live, archived, perTag := s.notes.counts()
	s.mu.Lock()
	sent := len(s.outbox)
	s.mu.Unlock()
	return textResult("%d notes, %d archived, %d distinct tags, %d simulated messages in the outbox.", live, archived, len(perTag), sent), nil, nil
}
