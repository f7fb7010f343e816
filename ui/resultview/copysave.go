package resultview

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/style"
)

// The result view's arguments line, copy (c) and save (w).

// showArgs shows the arguments the call was made with: beside the label
// when they fit on the line, else as indented JSON counted against the caps.
// Outcomes the log pane keeps from before have none (nil): nothing is shown.
func showArgs(w *Capped, args map[string]any, st *style.Styles) {
	if args == nil {
		return
	}
	label := st.Label.Render("arguments")
	if len(args) == 0 {
		w.Styled(label + " " + st.Muted.Render("none"))
		return
	}
	if one := termtext.Line(client.ValueText(args)); len("arguments ")+ansi.StringWidth(one) <= w.width {
		w.Styled(label + " " + st.Muted.Render(one))
		return
	}
	w.Styled(label)
	ls := ArgLines(args, w.width)
	src := 0
	for i, l := range ls {
		src += len(l)
		ls[i] = st.Muted.Render(l)
	}
	w.Rendered(ls, src)
}

// clipboardMax bounds what c copies: OSC 52 carries the text base64-encoded
// in one escape sequence, and terminals drop or cut sequences much larger.
const clipboardMax = 1 << 20

// copy puts what the view shows on the clipboard with OSC 52 (tea.SetClipboard),
// which reaches the local clipboard over ssh too. Server text is sanitized as
// it is for the screen: what is pasted into a terminal must not carry escapes.
func (r *View) copy() tea.Cmd {
	var text string
	if r.raw {
		text = r.RawText()
	} else {
		text = resultPlainText(r.outcome)
	}
	switch {
	case text == "":
		r.setNote("nothing to copy")
		return nil
	case len(text) > clipboardMax:
		r.setNote(fmt.Sprintf("too large for the clipboard (%s); `mcpsh call --json` prints all of it", client.HumanBytes(len(text))))
		return nil
	}
	r.setNote(fmt.Sprintf("copied %s to the clipboard (through the terminal: OSC 52 must be allowed)", client.HumanBytes(len(text))))
	return tea.SetClipboard(text)
}

// resultPlainText is the result as text: its text blocks, a summary of the
// other blocks, structuredContent when there is no content, or the error.
func resultPlainText(o *client.Outcome) string {
	var parts []string
	if o.Result != nil {
		for _, b := range o.Result.Content {
			parts = append(parts, strings.TrimRight(b.Summary(), "\n"))
		}
	}
	if len(parts) == 0 && len(o.StructuredContent) > 0 {
		s := string(o.StructuredContent)
		if p, ok := PrettyJSON(s); ok {
			s = p
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 && o.Error != "" {
		parts = append(parts, o.Error)
	}
	return termtext.Sanitize(strings.Join(parts, "\n\n"))
}

// Saveable lists the content blocks w can save: images, audio and blobs.
func Saveable(o *client.Outcome) []int {
	if o == nil || o.Result == nil {
		return nil
	}
	var out []int
	for i, b := range o.Result.Content {
		if b.Type == "image" || b.Type == "audio" || (b.Type == "resource" && b.Text == "" && b.Bytes > 0) {
			out = append(out, i)
		}
	}
	return out
}

// openSave opens the save prompt for the result's first image or blob;
// with several, tab moves the prompt to the next.
func (r *View) openSave() tea.Cmd {
	blocks := Saveable(r.outcome)
	if len(blocks) == 0 {
		r.setNote("nothing to save: the result has no image, audio or blob")
		return nil
	}
	return r.saveTarget(blocks, 0)
}

// saveTarget points the prompt at the nth saveable block.
func (r *View) saveTarget(blocks []int, n int) tea.Cmd {
	b := r.outcome.Result.Content[blocks[n]]
	data, err := blockData(b)
	if err != nil {
		r.save = nil
		r.setNote("cannot save it: " + err.Error())
		return nil
	}
	what := b.Type
	if b.Type == "resource" {
		what = "blob " + b.URI
	}
	name := DefaultFileName(or(b.URI, r.outcome.Tool), b.MIMEType, true)
	if len(blocks) > 1 {
		what += fmt.Sprintf(" (%d of %d; %s for the next)", n+1, len(blocks), r.keys.NextArg.Help().Key)
		if b.URI == "" {
			name = strings.Replace(name, ".", fmt.Sprintf("-%d.", n+1), 1)
		}
	}
	var focus tea.Cmd
	r.save, focus = NewSavePrompt(r.st, name, data, what, r.width, r.nextSaveID, r.answer)
	r.saveBlock = n
	r.fitViewport()
	return focus
}

// saveKey handles a key while the prompt is open.
func (r *View) saveKey(km tea.KeyPressMsg) tea.Cmd {
	if blocks := Saveable(r.outcome); len(blocks) > 1 && r.save.id == 0 && r.save.exists == "" && key.Matches(km, r.keys.NextArg) {
		return r.saveTarget(blocks, (r.saveBlock+1)%len(blocks))
	}
	cmd, closed := r.save.Key(km, r.keys)
	if closed {
		r.save = nil
		r.fitViewport()
	}
	return cmd
}

func (r *View) nextSaveID() int {
	r.saveSeq--
	return r.saveSeq
}

// OnSaved takes the answer to the prompt's write.
func (r *View) OnSaved(msg SavedMsg) {
	if r.save == nil || r.save.id != msg.ID {
		return
	}
	status, done := r.save.Saved(msg)
	if done {
		r.save = nil
	}
	r.note = status
	r.fitViewport()
}

// blockData decodes a block's base64 data from the block as sent.
func blockData(b client.Block) ([]byte, error) {
	var w struct {
		Data     string `json:"data"`
		Resource *struct {
			Blob string `json:"blob"`
		} `json:"resource"`
	}
	if err := json.Unmarshal(b.Raw, &w); err != nil {
		return nil, fmt.Errorf("the block is not JSON")
	}
	data := w.Data
	if w.Resource != nil {
		data = w.Resource.Blob
	}
	out, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, fmt.Errorf("its data is not base64")
	}
	return out, nil
}
