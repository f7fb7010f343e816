package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/policy"
)

// sarifShape is the part of the SARIF 2.1.0 schema (OASIS) that mcpsh's log
// uses, with the schema's own property names, required fields and
// enumerations. Every object is closed (additionalProperties: false, as in the
// SARIF schema), so a misspelt or invented property fails. On top of the
// schema, ruleId, message.text and $schema are required here: code-scanning
// dashboards need them.
const sarifShape = `{
  "type": "object", "additionalProperties": false,
  "required": ["$schema", "version", "runs"],
  "properties": {
    "$schema": {"type": "string"},
    "version": {"enum": ["2.1.0"]},
    "runs": {"type": "array", "items": {"$ref": "#/$defs/run"}}
  },
  "$defs": {
    "message": {"type": "object", "additionalProperties": false, "required": ["text"], "properties": {"text": {"type": "string", "minLength": 1}}},
    "level": {"enum": ["none", "note", "warning", "error"]},
    "propertyBag": {"type": "object", "properties": {"tags": {"type": "array", "uniqueItems": true, "items": {"type": "string"}}}},
    "run": {
      "type": "object", "additionalProperties": false, "required": ["tool"],
      "properties": {
        "tool": {"type": "object", "additionalProperties": false, "required": ["driver"], "properties": {"driver": {"$ref": "#/$defs/toolComponent"}}},
        "invocations": {"type": "array", "items": {"$ref": "#/$defs/invocation"}},
        "results": {"type": "array", "items": {"$ref": "#/$defs/result"}}
      }
    },
    "toolComponent": {
      "type": "object", "additionalProperties": false, "required": ["name"],
      "properties": {
        "name": {"type": "string", "minLength": 1}, "version": {"type": "string"}, "informationUri": {"type": "string"},
        "rules": {"type": "array", "uniqueItems": true, "items": {"$ref": "#/$defs/reportingDescriptor"}}
      }
    },
    "reportingDescriptor": {
      "type": "object", "additionalProperties": false, "required": ["id"],
      "properties": {
        "id": {"type": "string"}, "shortDescription": {"$ref": "#/$defs/message"}, "helpUri": {"type": "string"},
        "defaultConfiguration": {"type": "object", "additionalProperties": false, "properties": {"level": {"$ref": "#/$defs/level"}}},
        "properties": {"$ref": "#/$defs/propertyBag"}
      }
    },
    "invocation": {
      "type": "object", "additionalProperties": false, "required": ["executionSuccessful"],
      "properties": {
        "executionSuccessful": {"type": "boolean"},
        "toolExecutionNotifications": {"type": "array", "items": {
          "type": "object", "additionalProperties": false, "required": ["message"],
          "properties": {"message": {"$ref": "#/$defs/message"}, "level": {"$ref": "#/$defs/level"}}}}
      }
    },
    "result": {
      "type": "object", "additionalProperties": false, "required": ["ruleId", "message"],
      "properties": {
        "ruleId": {"type": "string"}, "ruleIndex": {"type": "integer", "minimum": -1}, "level": {"$ref": "#/$defs/level"},
        "message": {"$ref": "#/$defs/message"},
        "locations": {"type": "array", "items": {"$ref": "#/$defs/location"}},
        "partialFingerprints": {"type": "object", "additionalProperties": {"type": "string"}},
        "properties": {"$ref": "#/$defs/propertyBag"}
      }
    },
    "location": {
      "type": "object", "additionalProperties": false,
      "properties": {
        "physicalLocation": {"type": "object", "additionalProperties": false, "properties": {
          "artifactLocation": {"type": "object", "additionalProperties": false, "properties": {"uri": {"type": "string"}}}}},
        "logicalLocations": {"type": "array", "items": {"type": "object", "additionalProperties": false, "properties": {
          "name": {"type": "string"}, "fullyQualifiedName": {"type": "string"}, "kind": {"type": "string"}}}}
      }
    }
  }
}`

func sarifValidator(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(sarifShape), &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type sarifOut struct {
	Schema  string `json:"$schema"`
	Version string
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string
				Rules []struct {
					ID                   string
					HelpURI              string
					DefaultConfiguration struct{ Level string }
				}
			}
		}
		Invocations []struct {
			ExecutionSuccessful        bool
			ToolExecutionNotifications []struct {
				Level   string
				Message struct{ Text string }
			}
		}
		Results []struct {
			RuleID    string
			RuleIndex int
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation *struct{ ArtifactLocation struct{ URI string } }
				LogicalLocations []struct{ Name, FullyQualifiedName, Kind string }
			}
			Properties map[string]string
		}
	}
}

func TestSARIFHasTheShapeDashboardsRead(t *testing.T) {
	tools := listFixture(t, "planted.json")
	r := New("planted 1", "stdio: x", policy.Trusted, tools)
	r.AddProbe(&Probe{
		Findings: []Finding{{Tool: "peek" + fixture.Evil, Rule: RuleChangedState, Severity: Error, Message: "sent " + fixture.Evil + " list_changed"}},
		Failed:   []ProbeNote{{Tool: "explode", Why: "boom"}},
	})
	var buf bytes.Buffer
	err := WriteSARIF(&buf, "1.2.3", []SARIFServer{
		{Name: "mine", Source: "/etc/mcpsh/config.json", Report: r},
		{Name: "broken", Source: "/etc/mcpsh/config.json", Err: "connecting to broken: exit 3"},
		{Name: "other", Report: New("other", "http: u", policy.Untrusted, nil), Notes: []string{"not probed: the server is untrusted"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if bad := regexp.MustCompile("[\x00-\x09\x0b-\x1f\x7f\u0080-\u009f\u202a-\u202e\u2066-\u2069]").FindString(buf.String()); bad != "" {
		t.Errorf("the SARIF carries a raw control %q", bad)
	}
	var v any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, buf.String())
	}
	if err := sarifValidator(t).Validate(v); err != nil {
		t.Fatalf("the log breaks the SARIF shape: %v", err)
	}
	var log sarifOut
	json.Unmarshal(buf.Bytes(), &log)
	if log.Version != "2.1.0" || log.Schema != SARIFSchema || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "mcpsh" {
		t.Fatalf("log: version %q schema %q runs %d", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	rules := run.Tool.Driver.Rules
	if len(rules) != len(Rules)+len(ProbeRules)+len(BaselineRules) {
		t.Errorf("%d rules, want every static, probe and baseline rule", len(rules))
	}
	for _, res := range run.Results {
		if res.RuleIndex < 0 || res.RuleIndex >= len(rules) || rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s points at rule %d", res.RuleID, res.RuleIndex)
		}
		if want := sarifLevel(Severity(res.Properties["severity"])); res.Level != want {
			t.Errorf("%s: level %s, want %s", res.RuleID, res.Level, want)
		}
	}
	byRule := map[string]int{}
	for i, res := range run.Results {
		byRule[res.RuleID] = i
	}
	contra := run.Results[byRule[RuleHintsContradict]]
	if l := contra.Locations[0]; l.LogicalLocations[0].Name != "scan_disk" || l.LogicalLocations[0].FullyQualifiedName != "mine/scan_disk" ||
		l.LogicalLocations[0].Kind != "function" || l.PhysicalLocation == nil || l.PhysicalLocation.ArtifactLocation.URI != "file:///etc/mcpsh/config.json" {
		t.Errorf("location of a finding: %+v", l)
	}
	if run.Results[byRule[RuleReadOnlyDefault]].Level != "note" || contra.Level != "error" || run.Results[byRule[RuleNoTitle]].Level != "warning" {
		t.Error("severities map to note, warning and error")
	}
	changed := run.Results[byRule[RuleChangedState]]
	if changed.Properties["server"] != "mine" || !strings.HasPrefix(changed.Locations[0].LogicalLocations[0].Name, "peek") {
		t.Errorf("probe finding: %+v", changed)
	}
	inv := run.Invocations[0]
	var notes []string
	for _, n := range inv.ToolExecutionNotifications {
		notes = append(notes, n.Level+": "+n.Message.Text)
	}
	joined := strings.Join(notes, "\n")
	if inv.ExecutionSuccessful || !strings.Contains(joined, "error: broken: could not audit: connecting to broken: exit 3") ||
		!strings.Contains(joined, "error: mine: could not probe explode: boom") || !strings.Contains(joined, "warning: other: not probed") {
		t.Errorf("invocation: successful %v, notifications:\n%s", inv.ExecutionSuccessful, joined)
	}

	// The check is not vacuous: a result without its ruleId, or with a
	// level SARIF does not know, fails it.
	for _, breakIt := range []func(map[string]any){
		func(r map[string]any) { delete(r, "ruleId") },
		func(r map[string]any) { r["level"] = "info" },
		func(r map[string]any) { r["message"] = map[string]any{"markdown": "x"} },
	} {
		var broken map[string]any
		json.Unmarshal(buf.Bytes(), &broken)
		res := broken["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
		breakIt(res)
		if sarifValidator(t).Validate(broken) == nil {
			t.Errorf("a broken result passed the SARIF shape: %v", res)
		}
	}
}

func TestSARIFOfACleanAuditSucceedsWithNoResults(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, "dev", []SARIFServer{{Name: "ok", Report: New("ok", "x", policy.Trusted, []*client.Tool{})}}); err != nil {
		t.Fatal(err)
	}
	var v any
	json.Unmarshal(buf.Bytes(), &v)
	if err := sarifValidator(t).Validate(v); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"results": []`) || !strings.Contains(buf.String(), `"executionSuccessful": true`) {
		t.Errorf("a clean audit: %s", buf.String())
	}
}

// The rules' helpUri lands on a heading README really has.
func TestSARIFHelpURIIsAREADMEHeading(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, anchor, _ := strings.Cut(HelpURI, "#")
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		// GitHub's anchor: lower case, punctuation dropped, spaces to hyphens.
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		h = regexp.MustCompile(`[^a-z0-9 _-]`).ReplaceAllString(h, "")
		if strings.ReplaceAll(h, " ", "-") == anchor {
			return
		}
	}
	t.Errorf("README has no heading for #%s", anchor)
}
