package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// writeJSON writes v indented. Server text in it has its C1 and bidi controls
// escaped, which encoding/json leaves raw and a terminal would act on.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(termtext.EscapeJSON(b), '\n'))
	return err
}

// writeJSONLine writes v on one line, for streams of records (run --json).
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(termtext.EscapeJSON(b), '\n'))
	return err
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

func (f *factory) reportWarnings(o *client.Outcome) {
	tool := termtext.Line(o.Tool)
	if o.HintsChanged != "" {
		fmt.Fprintf(f.io.ErrOut, "mcpsh: warning: %s: the server changed its hints since it was listed (%s); the call was decided on the new ones\n",
			tool, termtext.Line(o.HintsChanged))
	}
	if o.OutputSchemaError != "" {
		fmt.Fprintf(f.io.ErrOut, "mcpsh: warning: %s: %s\n", tool, termtext.Line(o.OutputSchemaError))
	}
	if o.Result != nil {
		for _, pr := range o.Result.Problems {
			fmt.Fprintf(f.io.ErrOut, "mcpsh: warning: %s: %s\n", tool, termtext.Line(pr))
		}
	}
}
