package ui

import (
	"fmt"
	"mime"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/form"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/pane"
	"github.com/mcpsh/mcpsh/ui/style"
)

// resourceView shows what resources/read returned: text as sent, JSON
// re-indented, Markdown drawn for the terminal (markdown.go), and blobs as
// a one-line summary that w saves to a file. It is drawn when the contents
// arrive or the width changes, never on View.
type resourceView struct {
	st   *style.Styles
	keys *keymap.KeyMap
	body pane.Pane

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
	w := newCappedText(width, resultMaxLines, resultMaxBytes)
	w.more = "mcpsh read URI --json"
	w.styled(st.Title.Render(termtext.Line(v.title)))
	w.styled(st.Name.Render(termtext.Line(v.uri)))
	switch {
	case v.following && v.rereads > 0:
		w.styled(st.OK.Render(fmt.Sprintf("following its updates · read again %d time%s on the server's word", v.rereads, layout.Plural(v.rereads))))
	case v.following:
		w.styled(st.OK.Render("following its updates"))
	}
	if v.err != nil {
		w.blank()
		w.text(v.err.Error(), st.Error)
		return w.lines
	}
	if len(v.contents) == 0 {
		w.styled(st.Muted.Render("the server returned no contents"))
	}
	for i, c := range v.contents {
		w.blank()
		mt := c.MIMEType
		if mt == "" {
			mt = v.mime
		}
		if len(v.contents) > 1 || (c.URI != "" && c.URI != v.uri) {
			w.styled(st.Label.Render(termtext.Truncate(termtext.Line(fmt.Sprintf("%d. %s", i+1, resultOr(c.URI, v.uri))), width)))
		}
		switch {
		case c.IsBlob:
			w.styled(st.Label.Render(fmt.Sprintf("[%s, %s]", termtext.Line(resultOr(mt, "binary data")), client.HumanBytes(len(c.Blob)))) +
				"  " + st.Muted.Render(v.keys.Save.Help().Key+" saves it to a file"))
		case isJSON(mt, c.URI):
			w.text(resultBodyText(c.Text), st.Row)
		case isMarkdown(mt, c.URI):
			// Only what can be shown is drawn: a server may send megabytes.
			cut := layout.RuneStart(c.Text, resultMaxBytes)
			w.rendered(renderMarkdown(termtext.Sanitize(c.Text[:cut]), width, st), cut)
			if cut < len(c.Text) {
				w.full = true
				w.hide(c.Text[cut:])
			}
		default:
			w.text(strings.TrimRight(c.Text, "\r\n"), st.Row)
		}
	}
	w.finish(st)
	return w.lines
}

// baseType is a MIME type without its parameters, lower-cased.
func baseType(mt string) string {
	if t, _, err := mime.ParseMediaType(mt); err == nil {
		return t
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

func isJSON(mt, uri string) bool {
	t := baseType(mt)
	return t == "application/json" || strings.HasSuffix(t, "+json") || (t == "" && strings.HasSuffix(uri, ".json"))
}

func isMarkdown(mt, uri string) bool {
	t := baseType(mt)
	return t == "text/markdown" || t == "text/x-markdown" || ((t == "" || t == "text/plain") && (strings.HasSuffix(uri, ".md") || strings.HasSuffix(uri, ".markdown")))
}

// readResource reads uri into the viewer; form is the template form it was
// expanded from, if any.
func (m *Model) readResource(title, uri, mimeType string, form *form.StringForm) tea.Cmd {
	id := m.nextID()
	m.reader = newResourceView(title, uri, mimeType, form, id, m.st, m.keys)
	m.saving = nil
	m.mode = modeResource
	m.layout()
	return tea.Batch(m.cmd(readResourceCmd(m.ctx, id, m.session, uri)), m.spinner.Tick)
}

func (m *Model) onResourceRead(msg resourceReadMsg) {
	if v := m.reader; v != nil && v.id == msg.id {
		v.SetContents(msg.contents, msg.err)
	}
}

// onResourceUpdated reads the resource in view again when the server says it
// changed and the user follows it.
func (m *Model) onResourceUpdated(uri string) tea.Cmd {
	v := m.reader
	if v == nil || m.mode != modeResource || v.uri != uri || !m.subscribed[uri] {
		return nil
	}
	v.id = m.nextID()
	v.rereads++
	m.status = "the server updated " + termtext.Line(uri) + ": read again"
	return m.cmd(readResourceCmd(m.ctx, v.id, m.session, uri))
}

func (m *Model) onResourceKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.saving != nil {
		return m.onSaveKey(msg)
	}
	v, k := m.reader, m.keys
	switch {
	case key.Matches(msg, k.Close):
		m.mode, m.reader = modeBrowse, nil
		if v.form != nil {
			m.strForm = nil
		}
		return nil
	case key.Matches(msg, k.Edit) && v.form != nil:
		m.reader = nil
		return m.openStringForm(v.form, nil)
	case key.Matches(msg, k.Save):
		c, ok := v.saveable()
		if !v.done || !ok {
			m.status = "nothing to save"
			return nil
		}
		return m.openSave(c, v.uri, v.mime)
	case key.Matches(msg, k.Subscribe):
		return m.toggleSubscription(v.uri)
	}
	return v.Update(msg)
}

// toggleSubscription asks the server to tell mcpsh when uri changes, or to
// stop telling it.
func (m *Model) toggleSubscription(uri string) tea.Cmd {
	if !m.server.Capabilities.ResourcesSubscribe {
		m.status = m.serverLabel() + " does not offer resource subscriptions"
		return nil
	}
	return m.cmd(subscribeCmd(m.ctx, m.nextID(), m.session, uri, !m.subscribed[uri]))
}

// resubscribe asks a new session for the updates the old one was sending.
func (m *Model) resubscribe() tea.Cmd {
	var cmds []tea.Cmd
	for uri := range m.subscribed {
		cmds = append(cmds, m.cmd(subscribeCmd(m.ctx, m.nextID(), m.session, uri, true)))
	}
	return tea.Batch(cmds...)
}

func (m *Model) onSubscribed(msg subscribedMsg) {
	if msg.err != nil {
		if msg.on && m.subscribed[msg.uri] {
			// Subscribing again after a reconnect failed: no longer following.
			delete(m.subscribed, msg.uri)
			if v := m.reader; v != nil && v.uri == msg.uri {
				v.following = false
				v.render()
			}
		}
		m.status = termtext.Line(msg.err.Error())
		return
	}
	if v := m.reader; v != nil && v.uri == msg.uri {
		v.following = msg.on
		v.render()
	}
	if msg.on {
		m.subscribed[msg.uri] = true
		m.status = "following " + termtext.Line(msg.uri) + ": it is read again when the server says it changed"
		return
	}
	delete(m.subscribed, msg.uri)
	m.status = "no longer following " + termtext.Line(msg.uri)
}

// resourceBindings are the viewer's keys that work now.
func (m *Model) resourceBindings() []key.Binding {
	k := m.keys
	b := []key.Binding{k.ScrollUp, k.ScrollDown, k.Close}
	if m.reader != nil {
		if _, ok := m.reader.saveable(); ok {
			b = append(b, k.Save)
		}
		if m.server.Capabilities.ResourcesSubscribe {
			s := k.Subscribe
			if m.subscribed[m.reader.uri] {
				s.SetHelp(s.Help().Key, "stop following")
			}
			b = append(b, s)
		}
		if m.reader.form != nil {
			e := k.Edit
			e.SetHelp(e.Help().Key, "edit and read again")
			b = append(b, e)
		}
	}
	return append(b, k.Help)
}
