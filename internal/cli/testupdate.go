package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// lineUpdate is one expectation --update rewrote: its line, and the
// expectation before and after, as written after "expect ".
type lineUpdate struct {
	Line int    `json:"line"`
	From string `json:"from"`
	To   string `json:"to"`
}

// maxUpdateText bounds the text --update writes into an expectation; a
// longer one is expected by its digest.
const maxUpdateText = 64 << 10

// updateFor is what a failed expectation becomes given how the call ended,
// as written after "expect "; "" and why when nothing can take its place.
func updateFor(e expectation, r expectResult, o *client.Outcome) (string, string) {
	if e.Kind == expectStatus {
		if _, ok := expectedStatus(o.Status); !ok {
			return "", "the call ended " + string(o.Status) + ", which a script cannot expect"
		}
		return "status " + string(o.Status), ""
	}
	if o.Result == nil {
		return "", "the call has no result: it ended " + string(o.Status)
	}
	switch e.Kind {
	case expectText:
		text := resultTexts(o.Result)
		switch {
		case text == "":
			return "", "the result has no text"
		case len(text) > maxUpdateText:
			return "digest " + sessionlog.DigestOf(o.Content, o.StructuredContent), ""
		}
		return expectation{Kind: expectText, Text: text}.String(), ""
	case expectJSON:
		raw, ok := r.Got.(json.RawMessage)
		if !ok {
			return "", r.Note
		}
		return "json " + e.Path.String() + " == " + string(termtext.EscapeJSON(raw)), ""
	case expectDigest:
		return "digest " + sessionlog.DigestOf(o.Content, o.StructuredContent), ""
	}
	return "", "an expectation of kind " + e.Kind
}

// updateScript rewrites the failing expectations of one script that ran,
// and notes what it changed and what it could not.
func (opts *testOptions) updateScript(r *testResult) {
	if r.report == nil {
		return
	}
	edits := map[int]string{}
	var updates []lineUpdate
	var left []string
	for _, step := range r.report.steps {
		for j, res := range step.results {
			if res.OK {
				continue
			}
			e := step.call.expects[j]
			to, why := updateFor(e, res, step.outcome)
			if to == "" {
				left = append(left, fmt.Sprintf("%s:%d: left as it is: %s", r.script.path, res.Line, why))
				continue
			}
			edits[res.Line] = to
			updates = append(updates, lineUpdate{Line: res.Line, From: e.String(), To: to})
		}
	}
	if len(edits) > 0 {
		if err := writeKeepingMode(r.script.path, rewriteLines(r.script.data, edits)); err != nil {
			left = append(left, fmt.Sprintf("%s: not updated: %v", r.script.path, err))
			updates = nil
		}
	}
	r.updates, r.notUpdated = updates, left
}

// rewriteLines replaces the expectation on each line edits names with
// "expect " and its new text, keeping the line's indentation, the blanks
// after it and its ending (\n, \r\n or none), and every other line byte
// for byte. Lines are counted as run counts them: split at \n.
func rewriteLines(data []byte, edits map[int]string) []byte {
	var out bytes.Buffer
	out.Grow(len(data))
	for n, rest := 1, data; len(rest) > 0; n++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		to, ok := edits[n]
		if !ok {
			out.Write(line)
			continue
		}
		body := bytes.TrimSuffix(line, []byte("\n"))
		body = bytes.TrimSuffix(body, []byte("\r"))
		ending := line[len(body):]
		trimmed := bytes.TrimLeft(body, " \t")
		indent := body[:len(body)-len(trimmed)]
		core := bytes.TrimRight(trimmed, " \t")
		out.Write(indent)
		out.WriteString("expect " + to)
		out.Write(trimmed[len(core):])
		out.Write(ending)
	}
	return out.Bytes()
}

// writeKeepingMode replaces path with data through a file beside it, so a
// crash leaves the old script or the new one, never half of each.
func writeKeepingMode(path string, data []byte) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
