package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// SARIF 2.1.0 (OASIS), the format code-scanning dashboards read. mcpsh writes
// one run for the whole audit, every server included, and names each result's
// server in its logical location and properties: GitHub code scanning stopped
// accepting several runs of one tool and category in one upload (2025), and one
// invocation of mcpsh is one run of one tool.
const (
	SARIFVersion = "2.1.0"
	SARIFSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// HelpURI is where the rules are explained: README's audit section.
	HelpURI = "https://github.com/mcpsh/mcpsh#auditing-a-servers-annotations"
)

// SARIFServer is one server's part of the log.
type SARIFServer struct {
	// Name is the server as the user named it: its configured name, URL or command.
	Name string
	// Source is the config file the server came from, "" for none: results
	// then point at it as well, since that is where a reader would go.
	Source string
	// Report is the audit; nil when the server could not be reached.
	Report *Report
	// Err is why the server could not be audited, or "".
	Err string
	// Notes are what was not done and why (not probed: untrusted).
	Notes []string
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	ShortDescription     sarifMessage   `json:"shortDescription"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties,omitempty"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]string `json:"properties"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// sarifLevel maps a severity to SARIF's levels.
func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// WriteSARIF writes the audit of servers as one SARIF 2.1.0 log. Server text
// (names, messages) is made safe for a terminal, as a dashboard shows it to
// people, and the JSON has its C1 and bidi controls escaped.
func WriteSARIF(w io.Writer, version string, servers []SARIFServer) error {
	rules := AllRules()
	index := map[string]int{}
	driver := sarifDriver{Name: "mcpsh", Version: version, InformationURI: "https://github.com/mcpsh/mcpsh", Rules: make([]sarifRule, 0, len(rules))}
	for i, r := range rules {
		index[r.ID] = i
		kind := "baseline"
		switch {
		case i < len(Rules):
			kind = "static"
		case i < len(Rules)+len(ProbeRules):
			kind = "probe"
		}
		driver.Rules = append(driver.Rules, sarifRule{ID: r.ID, ShortDescription: sarifMessage{r.Summary}, HelpURI: HelpURI,
			DefaultConfiguration: sarifConfig{sarifLevel(r.Severity)}, Properties: map[string]any{"tags": []string{"mcp", "annotations", kind}}})
	}
	inv := sarifInvocation{ExecutionSuccessful: true}
	results := []sarifResult{}
	for _, sv := range servers {
		name := termtext.Line(sv.Name)
		if sv.Err != "" {
			inv.ExecutionSuccessful = false
			inv.Notifications = append(inv.Notifications, sarifNotification{"error", sarifMessage{name + ": could not audit: " + termtext.Line(sv.Err)}})
		}
		for _, n := range sv.Notes {
			inv.Notifications = append(inv.Notifications, sarifNotification{"warning", sarifMessage{name + ": " + termtext.Line(n)}})
		}
		if sv.Report == nil {
			continue
		}
		if pr := sv.Report.Probe; pr != nil {
			for _, n := range pr.Failed {
				inv.ExecutionSuccessful = false
				inv.Notifications = append(inv.Notifications, sarifNotification{"error", sarifMessage{name + ": could not probe " + termtext.Line(n.String()+": "+n.Why)}})
			}
		}
		var phys *sarifPhysical
		if sv.Source != "" {
			phys = &sarifPhysical{sarifArtifact{fileURI(sv.Source)}}
		}
		for _, f := range sv.Report.Findings {
			tool := termtext.Line(f.Tool)
			sum := sha256.Sum256([]byte(sv.Name + "\x00" + f.Tool + "\x00" + f.Rule + "\x00" + f.Message))
			results = append(results, sarifResult{
				RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity),
				Message: sarifMessage{termtext.Line(f.Message)},
				Locations: []sarifLocation{{PhysicalLocation: phys, LogicalLocations: []sarifLogical{{
					Name: tool, FullyQualifiedName: name + "/" + tool, Kind: "function"}}}},
				PartialFingerprints: map[string]string{"mcpshFinding/v1": hex.EncodeToString(sum[:16])},
				Properties:          map[string]string{"server": name, "tool": tool, "severity": string(f.Severity)},
			})
		}
	}
	log := sarifLog{Schema: SARIFSchema, Version: SARIFVersion, Runs: []sarifRun{{
		Tool: sarifTool{driver}, Invocations: []sarifInvocation{inv}, Results: results}}}
	b, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(termtext.EscapeJSON(b), '\n'))
	return err
}

// fileURI is path as a file: URI, absolute.
func fileURI(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
