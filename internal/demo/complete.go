package demo

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// complete answers completion/complete for the template's id and the
// prompts' arguments: the values that start with what was typed (ignoring
// case), all of them for nothing typed. Anything else has no suggestions.
func (s *Server) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	var values []string
	if p != nil && p.Ref != nil {
		values = s.completions(p.Ref.Type, p.Ref.Name, p.Ref.URI, p.Argument.Name)
	}
	typed := ""
	if p != nil {
		typed = fold(p.Argument.Value)
	}
	out := []string{}
	for _, v := range values {
		if strings.HasPrefix(fold(v), typed) {
			out = append(out, v)
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: out, Total: len(out)}}, nil
}

// completions are every value an argument may take.
func (s *Server) completions(refType, name, uri, arg string) []string {
	switch {
	case refType == "ref/resource" && uri == noteTemplate && arg == "id",
		refType == "ref/prompt" && name == "summarize_note" && arg == "id":
		return s.noteIDs()
	case refType == "ref/prompt" && name == "summarize_note" && arg == "style":
		return slices.Clone(styles)
	case refType == "ref/prompt" && name == "triage_notes" && arg == "tag":
		return s.notes.tags()
	}
	return nil
}

// noteIDs are the live notes' ids, in order.
func (s *Server) noteIDs() []string {
	notes := s.notes.list("")
	ids := make([]string, len(notes))
	for i, n := range notes {
		ids[i] = strconv.Itoa(n.ID)
	}
	return ids
}
