package ui

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/ui/resultview"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/markdown"
	"github.com/mcpsh/mcpsh/ui/scroll"
	"github.com/mcpsh/mcpsh/ui/style"
)

// resourceView shows what resources/read returned: text as sent, JSON
// re-indented, Markdown drawn for the terminal (markdown.go), and blobs as
// a one-line summary that w saves to a file. It is drawn when the contents
// arrive or the width changes, never on View.
type resourceView struct {
	st   *style.Styles
	keys *keymap.KeyMap
	body scroll.Pane

	id    int // the read in flight, or the last one
	title string
	uri   string
	mime  string           // as listed, used when a content has none
	form  *form.StringForm // the template form it came from, for editing again

	done     bool // a read has answered
	contents []client.ResourceContent
	err      error
	// rereads counts reads made because the server said the resource changed.
	rereads   int
	following bool // subscribed to its updates
}

func newResourceView(title, uri, mimeType string, form *form.StringForm, id int, st *style.Styles, keys *keymap.KeyMap) *resourceView {
	return &resourceView{st: st, keys: keys, id: id, title: title, uri: uri, mime: mimeType, form: form}
}

// SetContents takes a read's answer; a re-read keeps the scroll position.
func (v *resourceView) SetContents(c []client.ResourceContent, err error) {
	first := !v.done
	v.done, v.contents, v.err = true, c, err
	v.render()
	if first {
		v.body.ScrollTo(0)
	}
}

func (v *resourceView) SetSize(width, height int) {
	if v.body.SetSize(width, height) {
		v.render()
	}
}

func (v *resourceView) render() {
	if w := v.body.Width(); w > 0 && v.done {
		v.body.SetLines(resourceLines(v, w, v.st))
	}
}

func (v *resourceView) Update(msg tea.Msg) tea.Cmd {
	v.body.Scroll(msg, v.keys)
	return nil
}

func (v *resourceView) View(spin string) string {
	if !v.done {
		return fmt.Sprintf("\n  %s reading %s…", spin, termtext.Line(v.uri))
	}
	return v.body.View()
}

// saveable is what w writes: the first blob, else the first text.
func (v *resourceView) saveable() (client.ResourceContent, bool) {
	for _, c := range v.contents {
		if c.IsBlob {
			return c, true
		}
	}
	if len(v.contents) > 0 {
		return v.contents[0], true
	}
	return client.ResourceContent{}, false
}

// resourceLines draws the resource: its title and address, then each content.
func resourceLines(v *resourceView, width int, st *style.Styles) []string {
	w := resultview.NewCapped(width, resultview.MaxLines, resultview.MaxBytes)
	w.More = "mcpsh read URI --json"
	w.Styled(st.Title.Render(termtext.Line(v.title)))
	w.Styled(st.Name.Render(termtext.Line(v.uri)))
	switch {
	case v.following && v.rereads > 0:
		w.Styled(st.OK.Render("following its updates · read again " + units.Plural(v.rereads, "time") + " on the server's word"))
	case v.following:
		w.Styled(st.OK.Render("following its updates"))
	}
	if v.err != nil {
		w.Blank()
		w.Text(v.err.Error(), st.Error)
		return w.Lines()
	}
	if len(v.contents) == 0 {
		w.Styled(st.Muted.Render("the server returned no contents"))
	}
	for i, c := range v.contents {
		w.Blank()
		mt := c.MIMEType
		if mt == "" {
			mt = v.mime
		}
		if len(v.contents) > 1 || (c.URI != "" && c.URI != v.uri) {
			w.Styled(st.Label.Render(termtext.Truncate(termtext.Line(fmt.Sprintf("%d. %s", i+1, resultOr(c.URI, v.uri))), width)))
		}
		switch {
		case c.IsBlob:
			w.Styled(st.Label.Render(fmt.Sprintf("[%s, %s]", termtext.Line(resultOr(mt, "binary data")), client.HumanBytes(len(c.Blob)))) +
				"  " + st.Muted.Render(v.keys.Save.Help().Key+" saves it to a file"))
		case isJSON(mt, c.URI):
			w.Text(resultview.BodyText(c.Text), st.Row)
		case isMarkdown(mt, c.URI):
			// Only what can be shown is drawn: a server may send megabytes.
			cut := layout.RuneStart(c.Text, resultview.MaxBytes)
			w.Rendered(markdown.Render(termtext.Sanitize(c.Text[:cut]), width, st), cut)
			if cut < len(c.Text) {
				w.Hide(c.Text[cut:])
			}
		default:
			w.Text(strings.TrimRight(c.Text, "\r\n"), st.Row)
		}
	}
	w.Finish(st)
	return w.Lines()
}

func isJSON(mt, uri string) bool {
	t := resultview.BaseType(mt)
	return t == "application/json" || strings.HasSuffix(t, "+json") || (t == "" && strings.HasSuffix(uri, ".json"))
}

func isMarkdown(mt, uri string) bool {
	t := resultview.BaseType(mt)
	return t == "text/markdown" || t == "text/x-markdown" || ((t == "" || t == "text/plain") && (strings.HasSuffix(uri, ".md") || strings.HasSuffix(uri, ".markdown")))
}

// readResource reads uri into the viewer; form is the template form it was
// expanded from, if any.
func (s *serverState) readResource(title, uri, mimeType string, form *form.StringForm) tea.Cmd {
	id := s.nextID()
	s.reader = newResourceView(title, uri, mimeType, form, id, s.st, s.keys)
	s.saving = nil
	s.mode = modeResource
	s.layout()
	return tea.Batch(s.cmd(readResourceCmd(s.ctx, id, s.session, uri)), s.spinner.Tick)
}

func (s *serverState) onResourceRead(msg resourceReadMsg) {
	if v := s.reader; v != nil && v.id == msg.id {
		v.SetContents(msg.contents, msg.err)
	}
}

// onResourceUpdated reads the resource in view again when the server says it
// changed and the user follows it.
func (s *serverState) onResourceUpdated(uri string) tea.Cmd {
	v := s.reader
	if v == nil || s.mode != modeResource || v.uri != uri || !s.subscribed[uri] {
		return nil
	}
	v.id = s.nextID()
	v.rereads++
	s.status = "the server updated " + termtext.Line(uri) + ": read again"
	return s.cmd(readResourceCmd(s.ctx, v.id, s.session, uri))
}

func (s *serverState) onResourceKey(msg tea.KeyPressMsg) tea.Cmd {
	if s.saving != nil {
		return s.onSaveKey(msg)
	}
	v, k := s.reader, s.keys
	switch {
	case key.Matches(msg, k.Close):
		s.mode, s.reader = modeBrowse, nil
		if v.form != nil {
			s.strForm = nil
		}
		return nil
	case key.Matches(msg, k.Edit) && v.form != nil:
		s.reader = nil
		return s.openStringForm(v.form, nil)
	case key.Matches(msg, k.Save):
		c, ok := v.saveable()
		if !v.done || !ok {
			s.status = "nothing to save"
			return nil
		}
		return s.openSave(c, v.uri, v.mime)
	case key.Matches(msg, k.Subscribe):
		return s.toggleSubscription(v.uri)
	}
	return v.Update(msg)
}

// toggleSubscription asks the server to tell mcpsh when uri changes, or to
// stop telling it.
func (s *serverState) toggleSubscription(uri string) tea.Cmd {
	if !s.server.Capabilities.ResourcesSubscribe {
		s.status = s.serverLabel() + " does not offer resource subscriptions"
		return nil
	}
	return s.cmd(subscribeCmd(s.ctx, s.nextID(), s.session, uri, !s.subscribed[uri]))
}

// resubscribe asks a new session for the updates the old one was sending.
func (s *serverState) resubscribe() tea.Cmd {
	var cmds []tea.Cmd
	for uri := range s.subscribed {
		cmds = append(cmds, s.cmd(subscribeCmd(s.ctx, s.nextID(), s.session, uri, true)))
	}
	return tea.Batch(cmds...)
}

func (s *serverState) onSubscribed(msg subscribedMsg) {
	if msg.err != nil {
		if msg.on && s.subscribed[msg.uri] {
			// Subscribing again after a reconnect failed: no longer following.
			delete(s.subscribed, msg.uri)
			if v := s.reader; v != nil && v.uri == msg.uri {
				v.following = false
				v.render()
			}
		}
		s.status = termtext.Line(msg.err.Error())
		return
	}
	if v := s.reader; v != nil && v.uri == msg.uri {
		v.following = msg.on
		v.render()
	}
	if msg.on {
		s.subscribed[msg.uri] = true
		s.status = "following " + termtext.Line(msg.uri) + ": it is read again when the server says it changed"
		return
	}
	delete(s.subscribed, msg.uri)
	s.status = "no longer following " + termtext.Line(msg.uri)
}

// resourceBindings are the viewer's keys that work now.
func (s *serverState) resourceBindings() []key.Binding {
	k := s.keys
	if sp := s.saving; sp != nil {
		if sp.Exists() != "" {
			return []key.Binding{k.Overwrite, k.KeepFile}
		}
		return []key.Binding{k.SaveHere, k.Close}
	}
	b := []key.Binding{k.ScrollUp, k.ScrollDown, k.Close}
	if s.reader != nil {
		if _, ok := s.reader.saveable(); ok {
			b = append(b, k.Save)
		}
		if s.server.Capabilities.ResourcesSubscribe {
			sub := k.Subscribe
			if s.subscribed[s.reader.uri] {
				sub.SetHelp(sub.Help().Key, "stop following")
			}
			b = append(b, sub)
		}
		if s.reader.form != nil {
			e := k.Edit
			e.SetHelp(e.Help().Key, "edit and read again")
			b = append(b, e)
		}
	}
	return append(b, k.Help)
}
