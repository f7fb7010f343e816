package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// The items of resources/list, resources/templates/list and prompts/list,
// each read alone (pages.go hands them over as sent): one that does not
// decode is skipped with a warning, where go-sdk's typed decode failed the
// whole page. A null item is skipped quietly (nil, nil). Tools are read by
// parseTool (tool.go).

// skipped is the warning for an item that could not be read.
func skipped(what string, page, n int, err error) string {
	return fmt.Sprintf("page %d, %s %d skipped: %s", page, what, n, termtext.Line(err.Error()))
}

func resourceItem(raw json.RawMessage) (*Resource, error) {
	var w struct {
		URI         string          `json:"uri"`
		Name        string          `json:"name"`
		Title       string          `json:"title"`
		Description string          `json:"description"`
		MIMEType    string          `json:"mimeType"`
		Size        json.RawMessage `json:"size"`
	}
	if isNull(raw) {
		return nil, nil
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	return &Resource{URI: w.URI, Name: w.Name, Title: w.Title, Description: w.Description, MIMEType: w.MIMEType, Size: sizeOf(w.Size)}, nil
}

// sizeOf is a resource's size when the server gave a whole number of
// bytes, else 0 (none given).
func sizeOf(raw json.RawMessage) int64 {
	var f float64
	if json.Unmarshal(raw, &f) != nil || f < 0 || f > 1<<53 || f != float64(int64(f)) {
		return 0
	}
	return int64(f)
}

func templateItem(raw json.RawMessage) (*ResourceTemplate, error) {
	var w struct {
		URITemplate string `json:"uriTemplate"`
		Name        string `json:"name"`
		Title       string `json:"title"`
		Description string `json:"description"`
		MIMEType    string `json:"mimeType"`
	}
	if isNull(raw) {
		return nil, nil
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	return &ResourceTemplate{URITemplate: w.URITemplate, Name: w.Name, Title: w.Title, Description: w.Description, MIMEType: w.MIMEType}, nil
}

// promptItem reads a prompt; an argument it cannot read is left out, with a
// problem naming it.
func promptItem(raw json.RawMessage) (*Prompt, []string, error) {
	var w struct {
		Name        string            `json:"name"`
		Title       string            `json:"title"`
		Description string            `json:"description"`
		Arguments   []json.RawMessage `json:"arguments"`
	}
	if isNull(raw) {
		return nil, nil, nil
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, nil, err
	}
	pr := &Prompt{Name: w.Name, Title: w.Title, Description: w.Description, Arguments: []PromptArgument{}}
	var problems []string
	for i, ra := range w.Arguments {
		a, err := promptArgument(ra)
		if err != nil {
			problems = append(problems, fmt.Sprintf("prompt %s: argument %d skipped: %s", termtext.Line(w.Name), i+1, termtext.Line(err.Error())))
			continue
		}
		pr.Arguments = append(pr.Arguments, a)
	}
	return pr, problems, nil
}

// promptArgument reads one of a prompt's arguments. "required" counts only
// when it is true: anything else the server wrote there leaves the argument
// optional, and the server judges.
func promptArgument(raw json.RawMessage) (PromptArgument, error) {
	var w struct {
		Name        string          `json:"name"`
		Title       string          `json:"title"`
		Description string          `json:"description"`
		Required    json.RawMessage `json:"required"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return PromptArgument{}, err
	}
	if w.Name == "" {
		return PromptArgument{}, errors.New("it has no name")
	}
	return PromptArgument{Name: w.Name, Title: w.Title, Description: w.Description, Required: string(bytes.TrimSpace(w.Required)) == "true"}, nil
}
