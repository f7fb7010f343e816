package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// The kinds of expectation a run script can state after a call.
const (
	expectStatus = "status" // expect status ok
	expectText   = "text"   // expect text "Buy milk"
	expectJSON   = "json"   // expect json .note.tags[0] == "home"
	expectDigest = "digest" // expect digest sha256:9f86d0…
)

// expectation is one "expect" line: what a call must have ended with.
type expectation struct {
	Line   int
	Kind   string
	Status client.Status // status
	Text   string        // text: what the result's text must contain
	Path   jsonPath      // json: where in structuredContent
	Value  any           // json: the value it must have, numbers as json.Number
	Digest string        // digest: "sha256:" and 64 hex digits, as the session log keeps
}

// parseExpect reads what follows "expect" on a line.
func parseExpect(s string) (expectation, error) {
	kind, rest := s, ""
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		kind, rest = s[:i], strings.TrimSpace(s[i+1:])
	}
	switch kind {
	case expectStatus:
		return parseExpectStatus(rest)
	case expectText:
		var text string
		if !strings.HasPrefix(rest, `"`) {
			return expectation{}, fmt.Errorf(`text: want the text as a JSON string in double quotes, as in: expect text "Buy milk"`)
		}
		if err := decodeOne(rest, &text); err != nil {
			return expectation{}, fmt.Errorf("text: %v", err)
		}
		return expectation{Kind: expectText, Text: text}, nil
	case expectJSON:
		return parseExpectJSON(rest)
	case expectDigest:
		return parseExpectDigest(rest)
	case "":
		return expectation{}, fmt.Errorf("want status, text, json or digest after expect")
	}
	return expectation{}, fmt.Errorf("%q: want status, text, json or digest (a tool named expect is called as 'expect')", kind)
}

func parseExpectStatus(s string) (expectation, error) {
	switch st := client.Status(s); st {
	case client.StatusOK, client.StatusToolError, client.StatusRefused, client.StatusFailed:
		return expectation{Kind: expectStatus, Status: st}, nil
	case client.StatusCancelled:
		// Only an interruption cancels a call, and it ends the whole run.
		return expectation{}, fmt.Errorf("status cancelled cannot be expected: a call is cancelled only when the run is interrupted (a timeout is failed)")
	}
	return expectation{}, fmt.Errorf("status %q: want ok, tool_error, refused or failed", s)
}

func parseExpectJSON(s string) (expectation, error) {
	const how = `want a path, == and a JSON value, as in: expect json .note.tags[0] == "home"`
	if s == "" {
		return expectation{}, errors.New("json: " + how)
	}
	path, end, err := parsePath(s)
	if err != nil {
		return expectation{}, fmt.Errorf("json: path %s", err)
	}
	rest, ok := strings.CutPrefix(strings.TrimLeft(s[end:], " \t"), "==")
	if !ok {
		return expectation{}, fmt.Errorf("json: %s", how)
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return expectation{}, fmt.Errorf("json: no value after ==: %s", how)
	}
	var v any
	if err := decodeOne(rest, &v); err != nil {
		return expectation{}, fmt.Errorf("json: the value %v (a string is written in double quotes)", err)
	}
	return expectation{Kind: expectJSON, Path: path, Value: v}, nil
}

// parseExpectDigest reads "sha256:" and 64 hex digits, the digest a session
// log entry keeps of a result (its "result.digest").
func parseExpectDigest(s string) (expectation, error) {
	const how = "want sha256: and 64 hex digits, as a session log's result.digest"
	hexPart, ok := strings.CutPrefix(s, "sha256:")
	if !ok {
		return expectation{}, fmt.Errorf("digest %q: %s", cut(s, 20), how)
	}
	if len(hexPart) != 64 || strings.Trim(hexPart, "0123456789abcdef") != "" {
		return expectation{}, fmt.Errorf("digest %q: %s (lower case)", cut(s, 20), how)
	}
	return expectation{Kind: expectDigest, Digest: s}, nil
}

// decodeOne reads exactly one JSON value from s, numbers as json.Number.
func decodeOne(s string, v any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return errors.New("is not whole JSON: it ends too early")
		}
		return fmt.Errorf("is not JSON: %v", err)
	}
	if off := dec.InputOffset(); strings.TrimSpace(s[off:]) != "" {
		return fmt.Errorf("has more after its end: %q", termtext.Truncate(strings.TrimSpace(s[off:]), 40))
	}
	return nil
}

// String is the expectation as a script line writes it, after "expect ".
func (e expectation) String() string {
	switch e.Kind {
	case expectStatus:
		return "status " + string(e.Status)
	case expectText:
		return "text " + jsonText(e.Text)
	case expectDigest:
		return "digest " + e.Digest
	}
	return "json " + e.Path.String() + " == " + jsonText(e.Value)
}

// jsonText writes v as one line of JSON, with < > & as they are (this is for
// people), and every control a terminal acts on escaped.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%q", fmt.Sprint(v))
	}
	return string(termtext.EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))))
}
