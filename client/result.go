package client

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Result is a tools/call result read from the wire. Content blocks of types
// mcpsh does not know are kept, not fatal: they render as a one-line summary.
type Result struct {
	Content    []Block
	RawContent json.RawMessage // the content array exactly as sent
	Structured json.RawMessage // structuredContent as sent; nil if none
	IsError    bool
	// Size is the length in bytes of the result on the wire.
	Size int
	// Problems are deviations from the spec that mcpsh worked around.
	Problems []string
	// Raw is the result exactly as the server sent it, for a caller that
	// passes it on (a proxy). Its text is the server's.
	Raw json.RawMessage
}

// Block is one content block.
type Block struct {
	Type     string
	Text     string // text blocks
	MIMEType string // image, audio, embedded resource
	Bytes    int    // decoded size of base64 data (image, audio, blob)
	URI      string // resource_link and embedded resource
	Name     string // resource_link
	Raw      json.RawMessage
}

type wireResult struct {
	Content           json.RawMessage `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           json.RawMessage `json:"isError"`
}

func parseResult(raw json.RawMessage) (*Result, error) {
	if r, ok := parseResultFast(raw); ok {
		return r, nil
	}
	return parseResultSlow(raw)
}

// parseResultSlow reads any result, saying what it had to work around.
func parseResultSlow(raw json.RawMessage) (*Result, error) {
	var w wireResult
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("result is not a JSON object: %s", safeText(err.Error()))
	}
	r := &Result{Size: len(raw), RawContent: w.Content}
	if !isNull(w.StructuredContent) {
		r.Structured = w.StructuredContent
	}
	switch h := hintValue(w.IsError); {
	case h.Declared():
		r.IsError = h.Or(false)
	case !isNull(w.IsError):
		r.Problems = append(r.Problems, fmt.Sprintf("isError is %s, not a boolean: treated as an error", clip(w.IsError, 20)))
		r.IsError = true
	}
	if isNull(w.Content) {
		r.RawContent = json.RawMessage("[]")
		return r, nil
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(w.Content, &blocks); err != nil {
		r.Problems = append(r.Problems, "content is not an array: ignored")
		r.RawContent = json.RawMessage("[]")
		return r, nil
	}
	for _, b := range blocks {
		r.Content = append(r.Content, parseBlock(b))
	}
	return r, nil
}

// parseBlock reads one content block. A plain block (a text block, nearly
// always) is read from the scanner's cut; anything else by encoding/json
// (parseBlockDecoded), which FuzzParseBlock holds the two equal to.
func parseBlock(raw json.RawMessage) Block {
	if b, ok := parseBlockFast(raw); ok {
		return b
	}
	return parseBlockDecoded(raw)
}

// blockKeys are the members parseBlockDecoded reads, but resource.
var blockKeys = [...]string{"type", "text", "data", "mimeType", "uri", "name"}

// parseBlockFast is parseBlock for an object whose members it reads are
// spelled exactly and are strings without escapes (or null); ok is false for
// anything else: a resource, a key encoding/json would fold onto one of
// them, an escape, a value of another type.
func parseBlockFast(raw json.RawMessage) (Block, bool) {
	fs, ok := objectFieldsFast(raw)
	if !ok {
		return Block{}, false
	}
	var vals [len(blockKeys)]string
	for _, f := range fs {
		k := slices.Index(blockKeys[:], f.key)
		if k < 0 {
			if foldEqual(f.key, "resource") || slices.ContainsFunc(blockKeys[:], func(b string) bool { return foldEqual(f.key, b) }) {
				return Block{}, false
			}
			continue
		}
		v := f.value
		if string(v) == "null" {
			continue // encoding/json leaves the field as it was
		}
		s, ok := plainString(v)
		if !ok {
			return Block{}, false
		}
		vals[k] = s
	}
	b := Block{Type: vals[0], Text: vals[1], MIMEType: vals[3], URI: vals[4], Name: vals[5], Raw: raw}
	if b.Type == "image" || b.Type == "audio" {
		b.Bytes = decodedSize(vals[2])
	}
	return b, true
}

// parseBlockDecoded reads any block with encoding/json.
func parseBlockDecoded(raw json.RawMessage) Block {
	var w struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     string `json:"data"`
		MIMEType string `json:"mimeType"`
		URI      string `json:"uri"`
		Name     string `json:"name"`
		Resource *struct {
			URI      string `json:"uri"`
			MIMEType string `json:"mimeType"`
			Text     string `json:"text"`
			Blob     string `json:"blob"`
		} `json:"resource"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return Block{Type: "invalid", Text: fmt.Sprintf("content block mcpsh cannot read: %s", clip(raw, 60)), Raw: raw}
	}
	b := Block{Type: w.Type, Text: w.Text, MIMEType: w.MIMEType, URI: w.URI, Name: w.Name, Raw: raw}
	switch w.Type {
	case "image", "audio":
		b.Bytes = decodedSize(w.Data)
	case "resource":
		if w.Resource != nil {
			b.URI, b.MIMEType, b.Text = w.Resource.URI, w.Resource.MIMEType, w.Resource.Text
			b.Bytes = decodedSize(w.Resource.Blob)
		}
	}
	return b
}

// Summary is a one-line description of a block that is not plain text. A
// text block is its text, and an embedded text resource ends with its text,
// as sent: that is the content, which the caller shows as it shows content.
// The description around it is mcpsh's, with the server's names, types and
// URIs in it made safe.
func (b Block) Summary() string {
	switch b.Type {
	case "text":
		return b.Text
	case "image", "audio":
		return fmt.Sprintf("[%s %s, %s]", b.Type, orUnknown(b.MIMEType), HumanBytes(b.Bytes))
	case "resource_link":
		if b.Name != "" {
			return fmt.Sprintf("[resource link %s: %s]", safeText(b.Name), safeText(b.URI))
		}
		return fmt.Sprintf("[resource link %s]", safeText(b.URI))
	case "resource":
		if b.Text != "" {
			return fmt.Sprintf("[resource %s, %s]\n%s", safeText(b.URI), orUnknown(b.MIMEType), b.Text)
		}
		return fmt.Sprintf("[resource %s, %s, %s]", safeText(b.URI), orUnknown(b.MIMEType), HumanBytes(b.Bytes))
	case "invalid":
		return "[" + safeText(b.Text) + "]"
	}
	return fmt.Sprintf("[content of type %q that mcpsh does not know: %s]", safeText(b.Type), clip(b.Raw, 60))
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return safeText(mime)
}

// HumanBytes formats a byte count for people.
func HumanBytes(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
}

// decodedSize is the size of the bytes that base64 s holds, without decoding
// it: DecodedLen is an upper bound that counts padding as data (93 B for 91).
// Unpadded input is counted as what it would decode to.
func decodedSize(s string) int {
	s = strings.TrimRight(s, "=")
	return len(s) * 6 / 8
}
