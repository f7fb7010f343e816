package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeJSONLine writes v on one line, for streams of records (run --json).
func writeJSONLine(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}

// resultText renders a result for people: text blocks as they are, other blocks
// as a one-line summary, and structuredContent pretty-printed when there is no
// text. On a terminal the server's text is sanitized; piped, it is passed as sent.
func resultText(r *client.Result, tty bool) string {
	if r == nil {
		return ""
	}
	var b strings.Builder
	hasText := false
	for _, blk := range r.Content {
		s := blk.Summary()
		if blk.Type == "text" {
			hasText = true
		}
		if tty {
			s = termtext.Sanitize(s)
		}
		b.WriteString(s)
		if !strings.HasSuffix(s, "\n") {
			b.WriteByte('\n')
		}
	}
	if !hasText && len(r.Structured) > 0 {
		var v any
		if json.Unmarshal(r.Structured, &v) == nil {
			pretty, _ := json.MarshalIndent(v, "", "  ")
			b.Write(pretty)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// reportOutcome prints a call's result on stdout and its diagnostics on stderr.
func (a *app) reportOutcome(o *client.Outcome) {
	p := palette{a.io.Color}
	switch o.Status {
	case client.StatusOK:
		fmt.Fprint(a.io.Out, resultText(o.Result, a.io.StdoutTTY))
	case client.StatusToolError:
		fmt.Fprint(a.io.ErrOut, resultText(o.Result, a.io.StderrTTY))
		fmt.Fprintf(a.io.ErrOut, "mcpsh: %s returned an error (isError)\n", o.Tool)
	case client.StatusRefused:
		fmt.Fprintf(a.io.ErrOut, "mcpsh: %s\n", p.red(o.Error))
	default:
		fmt.Fprintf(a.io.ErrOut, "mcpsh: %s %s: %s\n", o.Tool, o.Status, termtext.Sanitize(o.Error))
	}
	a.reportWarnings(o)
}

func (a *app) reportWarnings(o *client.Outcome) {
	if o.OutputSchemaError != "" {
		fmt.Fprintf(a.io.ErrOut, "mcpsh: warning: %s: %s\n", o.Tool, termtext.Line(o.OutputSchemaError))
	}
	if o.Result != nil {
		for _, pr := range o.Result.Problems {
			fmt.Fprintf(a.io.ErrOut, "mcpsh: warning: %s: %s\n", o.Tool, termtext.Line(pr))
		}
	}
}
