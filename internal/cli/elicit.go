package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// elicitor answers a server's requests for input (form-mode elicitation) in
// batch mode, where nobody can fill a form: it declines (the default),
// accepts with the form's defaults, or accepts with answers from a file. A
// script must be able to say in advance what it agrees to, and never agree to
// more: an answer that does not fit the form is a decline, with a notice.
type elicitor struct {
	mode    string // "decline", "defaults" or "file"
	answers []map[string]any
	same    bool // one answer for every request
	warn    func(string)

	mu   sync.Mutex
	next int
}

func newElicitor(flag string, warn func(string)) (*elicitor, error) {
	e := &elicitor{mode: flag, warn: warn}
	switch {
	case flag == "decline" || flag == "defaults":
		return e, nil
	case strings.HasPrefix(flag, "@"):
		path := flag[1:]
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		e.mode = "file"
		var one map[string]any
		if json.Unmarshal(b, &one) == nil && one != nil {
			e.answers, e.same = []map[string]any{one}, true
			return e, nil
		}
		if err := json.Unmarshal(b, &e.answers); err != nil {
			return nil, fmt.Errorf("%s: want a JSON object of answers, or an array of them (one per request, in order): %v", path, err)
		}
		return e, nil
	}
	return nil, fmt.Errorf("%q: want decline, defaults or @FILE", flag)
}

// answer is client.Options.Elicit for batch mode.
func (e *elicitor) answer(_ context.Context, r *client.ElicitRequest) (*client.ElicitResponse, error) {
	asked := fmt.Sprintf("%s asked for input: %q", termtext.Line(r.Server), termtext.Truncate(termtext.Line(r.Message), 200))
	decline := func(why string) (*client.ElicitResponse, error) {
		e.warn(asked + "; declined (" + why + ")")
		return &client.ElicitResponse{Action: client.ElicitDecline}, nil
	}
	if r.Mode != "form" {
		return decline("mcpsh answers only form requests in batch mode")
	}
	form := r.Form()
	var content map[string]any
	switch e.mode {
	case "decline":
		return decline("--elicit decline; pass --elicit defaults or --elicit @answers.json to answer")
	case "defaults":
		content = form.Defaults()
	case "file":
		e.mu.Lock()
		i := e.next
		e.next++
		e.mu.Unlock()
		if !e.same && i >= len(e.answers) {
			return decline(fmt.Sprintf("the answers file has %d answers and this is request %d", len(e.answers), i+1))
		}
		// The form's defaults fill what the file leaves out; fields the form
		// does not ask for are not sent.
		content = form.Defaults()
		for k, v := range e.answers[min(i, len(e.answers)-1)] {
			if form.Field(k) != nil {
				content[k] = v
			}
		}
	}
	if missing := form.Missing(content); len(missing) > 0 {
		return decline(fmt.Sprintf("no value for the required field %s", termtext.Line(strings.Join(missing, ", "))))
	}
	if err := r.Validate(content); err != nil {
		return decline("the answer does not fit the form: " + termtext.Line(err.Error()))
	}
	e.warn(asked + "; accepted with " + e.source())
	return &client.ElicitResponse{Action: client.ElicitAccept, Content: content}, nil
}

func (e *elicitor) source() string {
	if e.mode == "defaults" {
		return "the form's defaults (--elicit defaults)"
	}
	return "the answers file"
}
