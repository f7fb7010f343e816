package client

import (
	"encoding/json"
	"sort"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// ServerInfo describes the server as it introduced itself. Its text is the
// server's: make it safe before showing it, and never show its name as the
// server's name: any server can report any name ("bank"). The server's name
// is the one the user gave it (Target.Label); what it reports is shown only
// as such (Reported, Identity).
type ServerInfo struct {
	Name, Title, Version string
	// Protocol is the protocol version the handshake settled on.
	Protocol     string
	Instructions string
	Capabilities Capabilities
	// Logging and ToolsListChanged repeat Capabilities.Logging and
	// Capabilities.ToolsListChanged.
	Logging, ToolsListChanged bool
}

// Capabilities are what the server declared it offers.
type Capabilities struct {
	Tools                bool     `json:"tools"`
	ToolsListChanged     bool     `json:"toolsListChanged"`
	Resources            bool     `json:"resources"`
	ResourcesSubscribe   bool     `json:"resourcesSubscribe"`
	ResourcesListChanged bool     `json:"resourcesListChanged"`
	Prompts              bool     `json:"prompts"`
	PromptsListChanged   bool     `json:"promptsListChanged"`
	Completions          bool     `json:"completions"`
	Logging              bool     `json:"logging"`
	Experimental         []string `json:"experimental,omitempty"`
	Extensions           []string `json:"extensions,omitempty"`
	// Raw is the capabilities object as the server sent it.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// Server returns what the server said about itself at the handshake.
func (s *Session) Server() ServerInfo {
	res := s.current().cs.InitializeResult()
	if res == nil {
		return ServerInfo{}
	}
	info := ServerInfo{Protocol: res.ProtocolVersion, Instructions: res.Instructions}
	if res.ServerInfo != nil {
		info.Name, info.Title, info.Version = res.ServerInfo.Name, res.ServerInfo.Title, res.ServerInfo.Version
	}
	if caps := res.Capabilities; caps != nil {
		c := &info.Capabilities
		c.Raw, _ = json.Marshal(caps)
		c.Tools = caps.Tools != nil
		c.ToolsListChanged = caps.Tools != nil && caps.Tools.ListChanged
		c.Resources = caps.Resources != nil
		c.ResourcesSubscribe = caps.Resources != nil && caps.Resources.Subscribe
		c.ResourcesListChanged = caps.Resources != nil && caps.Resources.ListChanged
		c.Prompts = caps.Prompts != nil
		c.PromptsListChanged = caps.Prompts != nil && caps.Prompts.ListChanged
		c.Completions = caps.Completions != nil
		//lint:ignore SA1019 SEP-2577 deprecates roots, sampling and logging; servers use them through the deprecation window, so mcpsh keeps serving them
		c.Logging = caps.Logging != nil
		c.Experimental = keys(caps.Experimental)
		c.Extensions = keys(caps.Extensions)
	}
	info.Logging, info.ToolsListChanged = info.Capabilities.Logging, info.Capabilities.ToolsListChanged
	return info
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// reportedMax is the most cells of what a server reports itself as that
// mcpsh shows: it is the server's text, and may be any length.
const reportedMax = 60

// Reported is what the server reported itself as at the handshake, its
// name and version, safe for a terminal and cut short: to be shown only as
// that, never as its name. "" when it gave no name.
func (i ServerInfo) Reported() string {
	name := termtext.Line(i.Name)
	if name == "" {
		return ""
	}
	if v := termtext.Line(i.Version); v != "" {
		name += " " + v
	}
	return termtext.Truncate(name, reportedMax)
}

// Identity names a server to a person: the label the user knows it by
// (Target.Label), then what it reports itself as when that is another
// name, or its version when it reports the same name. Safe for a terminal.
func Identity(label string, i ServerInfo) string {
	label = termtext.Line(label)
	r := i.Reported()
	switch {
	case r == "":
		return label
	case termtext.Line(i.Name) == label:
		return r
	}
	return label + " (reports itself as " + r + ")"
}
