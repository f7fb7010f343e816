package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/policy"
)

// A baseline pins what hosts rely on in a server's tools: each tool's name,
// title, hints as declared and in effect, class and schemas, and a hash of
// the whole declaration. A later audit compares the server with it
// (CompareBaseline) and reports what weakened: a tool that now claims to be
// less dangerous, a new tool whose hints are the spec's guesses, a schema
// that refuses arguments it used to take.

// BaselineVersion is the format of the file; a file of another version is
// refused rather than misread.
const BaselineVersion = 1

// Baseline is one server's tools as a host relies on them.
type Baseline struct {
	Version int            `json:"mcpshBaseline"`
	Server  string         `json:"server"`
	Tools   []BaselineTool `json:"tools"`
}

// BaselineTool is one tool's declaration, kept.
type BaselineTool struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Hash is "sha256:" and the hex digest of the tool's declaration in
	// canonical JSON (name, title, description, annotations, schemas), so a
	// change shows even when nothing weakened (the shape of the spec's
	// signed-declaration proposal, #3140).
	Hash string `json:"hash"`
	// Declared are the hints as the server sent them (wrongly typed values
	// included), Effective the four after the spec's defaults and mcpsh's
	// reading of a conflict, Implied the hints the defaults filled in.
	Declared  map[string]json.RawMessage `json:"declared,omitempty"`
	Effective map[string]bool            `json:"effective"`
	Implied   []string                   `json:"implied,omitempty"`
	Class     policy.Class               `json:"class"`
	Input     json.RawMessage            `json:"inputSchema,omitempty"`
	Output    json.RawMessage            `json:"outputSchema,omitempty"`
}

// NewBaseline takes the baseline of a server's tools, sorted by name.
func NewBaseline(server string, tools []*client.Tool) *Baseline {
	b := &Baseline{Version: BaselineVersion, Server: server, Tools: make([]BaselineTool, 0, len(tools))}
	for _, t := range tools {
		b.Tools = append(b.Tools, baselineTool(t))
	}
	slices.SortFunc(b.Tools, func(x, y BaselineTool) int {
		switch {
		case x.Name < y.Name:
			return -1
		case x.Name > y.Name:
			return 1
		}
		return 0
	})
	return b
}

func baselineTool(t *client.Tool) BaselineTool {
	e := t.Effective()
	bt := BaselineTool{
		Name: t.Name, Title: t.ToolTitle, Description: t.Description,
		Effective: map[string]bool{
			string(policy.FieldReadOnly): e.ReadOnly, string(policy.FieldDestructive): e.Destructive,
			string(policy.FieldIdempotent): e.Idempotent, string(policy.FieldOpenWorld): e.OpenWorld,
		},
		Class:  t.Hints.Class(),
		Input:  canonical(t.InputSchema),
		Output: canonical(t.OutputSchema),
	}
	if bt.Title == "" {
		bt.Title = t.AnnTitle
	}
	if len(t.Declared) > 0 {
		bt.Declared = make(map[string]json.RawMessage, len(t.Declared))
		for k, v := range t.Declared {
			bt.Declared[k] = canonical(v)
		}
	}
	for _, f := range t.Hints.Implied() {
		bt.Implied = append(bt.Implied, string(f))
	}
	bt.Hash = declarationHash(t)
	return bt
}

// declarationHash digests what the server declared of the tool, in
// canonical JSON: equal declarations hash equal however their keys were
// ordered or spaced.
func declarationHash(t *client.Tool) string {
	decl := struct {
		Name        string          `json:"name"`
		Title       string          `json:"title"`
		AnnTitle    string          `json:"annotationsTitle"`
		Description string          `json:"description"`
		Hints       json.RawMessage `json:"hints"`
		Input       json.RawMessage `json:"inputSchema"`
		Output      json.RawMessage `json:"outputSchema"`
	}{t.Name, t.ToolTitle, t.AnnTitle, t.Description, nil, canonicalOrNull(t.InputSchema), canonicalOrNull(t.OutputSchema)}
	hints, _ := json.Marshal(t.Declared) // map keys sorted; values raw
	decl.Hints = canonical(hints)
	b, _ := json.Marshal(decl)
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// canonical re-encodes JSON with sorted keys and no spaces, numbers kept as
// written; nil for empty or invalid input (a schema the server sent broken
// is kept as nothing rather than as bytes a later run may parse otherwise).
func canonical(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return out
}

func canonicalOrNull(raw json.RawMessage) json.RawMessage {
	if c := canonical(raw); c != nil {
		return c
	}
	return json.RawMessage("null")
}

// WriteBaseline writes b as indented JSON, one tool after another, so a
// change to the file reads as a change to a tool in a review.
func WriteBaseline(w io.Writer, b *Baseline) error {
	out, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// ReadBaseline reads a baseline file's content; name is the file's name,
// for errors.
func ReadBaseline(name string, data []byte) (*Baseline, error) {
	var b Baseline
	d := json.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(&b); err != nil {
		return nil, fmt.Errorf("%s: not an mcpsh baseline: %w", name, err)
	}
	switch {
	case b.Version == 0:
		return nil, fmt.Errorf("%s: not an mcpsh baseline (no \"mcpshBaseline\" key; write one with audit --save-baseline)", name)
	case b.Version != BaselineVersion:
		return nil, fmt.Errorf("%s: mcpshBaseline: version %d, this mcpsh reads version %d", name, b.Version, BaselineVersion)
	}
	seen := map[string]bool{}
	for i := range b.Tools {
		t := &b.Tools[i]
		// Read back as written: the file is indented, comparisons are not.
		t.Input, t.Output = canonical(t.Input), canonical(t.Output)
		for k, v := range t.Declared {
			t.Declared[k] = canonical(v)
		}
		switch {
		case t.Name == "":
			return nil, fmt.Errorf("%s: tools[%d].name: missing", name, i)
		case seen[t.Name]:
			return nil, fmt.Errorf("%s: tools[%d].name: %q appears twice", name, i, t.Name)
		case t.Effective == nil:
			return nil, fmt.Errorf("%s: tools[%d].effective: missing", name, i)
		}
		seen[t.Name] = true
	}
	return &b, nil
}
