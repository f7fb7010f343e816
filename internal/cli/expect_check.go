package cli

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// expectResult is one checked expectation, as run --json reports it.
type expectResult struct {
	Line int    `json:"line"`
	Kind string `json:"kind"`
	Path string `json:"path,omitempty"`
	// Expected is the status or text as a string, or the JSON value.
	Expected any `json:"expected"`
	// Got is what came: the status, the result's text (cut to maxGotText), or
	// the JSON value at the path; null when there was nothing to look at.
	Got any  `json:"got"`
	OK  bool `json:"ok"`
	// Note says why Got is null.
	Note string `json:"note,omitempty"`
}

// maxGotText bounds the text a failed text expectation shows; the record's
// content holds all of it.
const maxGotText = 1 << 10

// check compares the expectation with how the call ended.
func (e expectation) check(o *client.Outcome) expectResult {
	r := expectResult{Line: e.Line, Kind: e.Kind}
	switch e.Kind {
	case expectStatus:
		r.Expected, r.Got = string(e.Status), string(o.Status)
		r.OK = o.Status == e.Status
	case expectText:
		r.Expected = e.Text
		if o.Result == nil {
			r.Note = "the call has no result: it ended " + string(o.Status)
			return r
		}
		text := resultTexts(o.Result)
		r.OK = strings.Contains(text, e.Text)
		r.Got = cutText(text, maxGotText)
	case expectJSON:
		r.Path, r.Expected = e.Path.String(), e.Value
		switch {
		case o.Result == nil:
			r.Note = "the call has no result: it ended " + string(o.Status)
			return r
		case len(o.Result.Structured) == 0:
			r.Note = "the result has no structuredContent"
			return r
		}
		var root any
		if err := decodeOne(string(o.Result.Structured), &root); err != nil {
			r.Note = "the structuredContent " + err.Error()
			return r
		}
		v, err := e.Path.lookup(root)
		if err != nil {
			r.Note = err.Error()
			return r
		}
		r.Got, r.OK = rawJSON(v), jsonEqual(v, e.Value)
	case expectDigest:
		r.Expected = e.Digest
		if o.Result == nil {
			r.Note = "the call has no result: it ended " + string(o.Status)
			return r
		}
		// The digest a log entry keeps: of the redacted result, so a
		// replay compares like with like.
		got := sessionlog.DigestOf(o.Content, o.StructuredContent)
		r.Got, r.OK = got, got == e.Digest
	}
	return r
}

// resultTexts joins the text blocks of a result, the text a person reads.
func resultTexts(r *client.Result) string {
	var parts []string
	for _, b := range r.Content {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// cutText keeps at most n bytes of s, on a rune boundary.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func rawJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return json.RawMessage("null")
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// jsonEqual compares two decoded JSON values; numbers by value, so 1 and 1.0
// are equal (exactly for integers, as float64 otherwise).
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		return ok && numbersEqual(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case string, bool, nil:
		return a == b
	}
	return false
}

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	if x, err := strconv.ParseInt(string(a), 10, 64); err == nil {
		if y, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return x == y
		}
	}
	x, errx := strconv.ParseFloat(string(a), 64)
	y, erry := strconv.ParseFloat(string(b), 64)
	return errx == nil && erry == nil && x == y
}

// statusExpected reports whether the call's status is one of its expectations:
// then the status itself does not decide the exit code, the expectation does.
func statusExpected(es []expectation) bool {
	for _, e := range es {
		if e.Kind == expectStatus {
			return true
		}
	}
	return false
}

func checkAll(es []expectation, o *client.Outcome) []expectResult {
	rs := make([]expectResult, 0, len(es))
	for _, e := range es {
		rs = append(rs, e.check(o))
	}
	return rs
}

// maxShown bounds each side of a failure message, in terminal cells.
const maxShown = 200

// failure says, on one line safe for a terminal, what was expected and what
// came. Everything from the server is made safe here.
func (e expectation) failure(r expectResult, o *client.Outcome) string {
	want := "expected " + termtext.Truncate(termtext.Line(e.String()), maxShown)
	if e.Kind == expectDigest {
		// Digests differ from the first digit on; the text says what came.
		want = "expected digest " + shortDigest(e.Digest)
	}
	var got string
	switch {
	case r.Got == nil:
		got = "nothing: " + r.Note
	case e.Kind == expectStatus:
		got = string(o.Status)
		switch why := o.Reason; o.Status {
		case client.StatusFailed, client.StatusCancelled:
			got += " (" + o.Error + ")"
		case client.StatusRefused:
			got += " (" + why + ")"
		}
	case e.Kind == expectText:
		got = jsonText(r.Got)
	case e.Kind == expectDigest:
		got = shortDigest(r.Got.(string))
		if text := resultTexts(o.Result); text != "" {
			got += " (text: " + jsonText(termtext.Truncate(termtext.Line(text), 80)) + ")"
		}
	default:
		got = string(termtext.EscapeJSON(r.Got.(json.RawMessage)))
	}
	return want + ", got " + termtext.Truncate(termtext.Line(got), maxShown)
}

// shortDigest keeps a digest's first 12 hex digits, enough to tell two
// apart in a message; --json and --update carry it whole.
func shortDigest(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12] + "…"
	}
	return d
}
