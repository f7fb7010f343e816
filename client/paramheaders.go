package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// From protocol 2026-07-28 a streamable HTTP client mirrors each argument a
// tool marks "x-mcp-header" in its input schema into an Mcp-Param-{Name}
// header (SEP-2243), and a server may refuse a call without them. go-sdk does
// this from the tools it has listed, and the wire tap hands it none, so the
// HTTP tap adds them from mcpsh's own listing, following go-sdk v1.8.0
// (mcp/streamable_headers.go) step for step: a tool with any invalid
// annotation gets no headers at all, as go-sdk drops such a tool from its
// listing; only string, boolean and safe-integer values are sent.

const (
	paramHeaderPrefix = "Mcp-Param-"
	// minParamHeaderVersion is go-sdk's minVersionForStandardHeaders; it
	// compares protocol versions as strings, and so does mcpsh.
	minParamHeaderVersion = "2026-07-28"
	b64Prefix             = "=?base64?"
	b64Suffix             = "?="
	maxSafeInt            = 1<<53 - 1
)

// callToolKey carries the tool a tools/call is for, from attempt to the HTTP
// tap, on the context the SDK writes the request with.
type callToolKey struct{}

func withCallTool(ctx context.Context, t *Tool) context.Context {
	return context.WithValue(ctx, callToolKey{}, t)
}

// paramBinding is one argument, by its path through nested properties, and
// the header (after the prefix) it goes in.
type paramBinding struct {
	path   []string
	header string
}

// schemaProp is what go-sdk reads of a property. Decoded field by field
// because go-sdk matches JSON keys case-sensitively and encoding/json does not.
type schemaProp struct {
	typ        string
	header     json.RawMessage // nil: no x-mcp-header
	properties map[string]*schemaProp
}

// readProps reads the properties of one schema object; ok is false where
// go-sdk's decode would fail, which leaves it with no bindings for the tool.
func readProps(raw json.RawMessage, depth int) (map[string]*schemaProp, bool) {
	var obj map[string]json.RawMessage
	if depth > 64 || json.Unmarshal(raw, &obj) != nil {
		return nil, false
	}
	var typ string
	if t, ok := obj["type"]; ok && json.Unmarshal(t, &typ) != nil {
		return nil, false
	}
	var rawProps map[string]json.RawMessage
	if p, ok := obj["properties"]; ok && json.Unmarshal(p, &rawProps) != nil {
		return nil, false
	}
	props := make(map[string]*schemaProp, len(rawProps))
	for name, rp := range rawProps {
		if isNull(rp) {
			props[name] = &schemaProp{}
			continue
		}
		var po map[string]json.RawMessage
		if json.Unmarshal(rp, &po) != nil {
			return nil, false
		}
		p := &schemaProp{}
		if t, ok := po["type"]; ok && json.Unmarshal(t, &p.typ) != nil {
			return nil, false
		}
		if h, ok := po["x-mcp-header"]; ok {
			p.header = h
		}
		if _, ok := po["properties"]; ok {
			sub, ok := readProps(rp, depth+1)
			if !ok {
				return nil, false
			}
			p.properties = sub
		}
		props[name] = p
	}
	return props, true
}

// paramBindings returns the tool's x-mcp-header bindings, or none when any
// annotation is invalid (see paramHeaderFault).
func paramBindings(schema json.RawMessage) []paramBinding {
	out, fault := readBindings(schema)
	if fault != "" {
		return nil
	}
	return out
}

// paramHeaderFault says what is wrong with a tool's x-mcp-header
// annotations, or "" when nothing is. SEP-2243: a client excludes a tool
// whose annotation is invalid, as go-sdk's filterValidTools does, while the
// tools beside it stay usable. A schema go-sdk cannot decode has no
// annotations to it, so no fault either.
func paramHeaderFault(schema json.RawMessage) string {
	_, fault := readBindings(schema)
	return fault
}

// readBindings reads every annotation, and the first fault: on a
// non-primitive property, not a non-empty string, not an HTTP token (the
// name is the server's text and goes into a header name), or repeated.
func readBindings(schema json.RawMessage) ([]paramBinding, string) {
	if !bytes.Contains(schema, []byte(`"x-mcp-header"`)) {
		return nil, ""
	}
	props, ok := readProps(schema, 0)
	if !ok {
		return nil, ""
	}
	var out []paramBinding
	seen := map[string]bool{}
	if fault := collectBindings(props, nil, seen, &out); fault != "" {
		return nil, fault
	}
	return out, ""
}

func collectBindings(props map[string]*schemaProp, prefix []string, seen map[string]bool, out *[]paramBinding) string {
	for name, p := range props {
		path := append(append([]string(nil), prefix...), name)
		if p.header != nil {
			where := fmt.Sprintf("property %q", strings.Join(path, "."))
			var h string
			switch {
			case p.typ != "string" && p.typ != "integer" && p.typ != "boolean":
				typ := "no type"
				if p.typ != "" {
					typ = fmt.Sprintf("type %q", p.typ)
				}
				return fmt.Sprintf("%s: x-mcp-header is on a property of %s, where only string, integer and boolean properties may carry one", where, typ)
			case json.Unmarshal(p.header, &h) != nil || h == "":
				return where + ": x-mcp-header is not a non-empty string"
			case !isToken(h):
				return fmt.Sprintf("%s: x-mcp-header %q is not a valid header name", where, h)
			case seen[strings.ToLower(h)]:
				return fmt.Sprintf("%s: x-mcp-header %q is used twice (letter case aside)", where, h)
			}
			seen[strings.ToLower(h)] = true
			*out = append(*out, paramBinding{path: path, header: h})
		}
		if len(p.properties) > 0 {
			if fault := collectBindings(p.properties, path, seen, out); fault != "" {
				return fault
			}
		}
	}
	return ""
}

// isToken: 1*tchar, RFC 9110.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
			strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

// paramHeaders is the Mcp-Param-* headers for one tools/call's params.
func paramHeaders(t *Tool, params json.RawMessage) map[string]string {
	bindings := paramBindings(t.InputSchema)
	if len(bindings) == 0 {
		return nil
	}
	var p struct {
		Name      string                     `json:"name"`
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(params, &p) != nil || p.Name != t.Name || p.Arguments == nil {
		return nil
	}
	out := map[string]string{}
	for _, b := range bindings {
		v, ok := argAt(p.Arguments, b.path)
		if !ok || isNull(v) {
			continue
		}
		if s, ok := headerValue(v); ok {
			out[paramHeaderPrefix+b.header] = s
		}
	}
	return out
}

func argAt(args map[string]json.RawMessage, path []string) (json.RawMessage, bool) {
	cur, ok := args[path[0]]
	for _, part := range path[1:] {
		if !ok {
			return nil, false
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil {
			return nil, false
		}
		cur, ok = obj[part]
	}
	return cur, ok
}

// headerValue encodes a string, a boolean or a safe integer as SEP-2243 says;
// anything else is not sent.
func headerValue(raw json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) || v < -maxSafeInt || v > maxSafeInt {
			return "", false
		}
		return strconv.FormatInt(int64(v), 10), true
	case string:
		if needsBase64(v) {
			return b64Prefix + base64.StdEncoding.EncodeToString([]byte(v)) + b64Suffix, true
		}
		return v, true
	}
	return "", false
}

// needsBase64: leading or trailing blanks, anything outside printable ASCII
// (which covers CR and LF), or text that would read as already encoded.
func needsBase64(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == ' ' || s[0] == '\t' || s[len(s)-1] == ' ' || s[len(s)-1] == '\t' {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return true
		}
	}
	return strings.HasPrefix(s, b64Prefix) && strings.HasSuffix(s, b64Suffix)
}

// addParamHeaders adds the Mcp-Param-* headers go-sdk would have sent for a
// tools/call, leaving any header already set (by go-sdk, or configured by the
// user) as it is.
func addParamHeaders(ctx context.Context, h http.Header, params json.RawMessage) {
	if v := h.Get("Mcp-Protocol-Version"); v == "" || v < minParamHeaderVersion {
		return
	}
	t, _ := ctx.Value(callToolKey{}).(*Tool)
	if t == nil {
		return
	}
	for k, v := range paramHeaders(t, params) {
		if h.Get(k) == "" {
			h.Set(k, v)
		}
	}
}
