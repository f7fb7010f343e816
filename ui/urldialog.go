package ui

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/keymap"
	"github.com/mcpsh/mcpsh/ui/layout"
	"github.com/mcpsh/mcpsh/ui/style"
)

// urlDialog is a server asking the user to visit a page (elicitation, URL
// mode): to sign in somewhere, say, without the secret passing through
// mcpsh. The URL is shown with its host picked out, since the host is what
// the user must check; it is opened only on the user's key, never by itself,
// and only when it is a web address.
type urlDialog struct {
	ask  *serverAsk
	open func(context.Context, string) error
	ids  func() int // the model's request IDs
	// answer routes the browser's answer back to the server that asked.
	answer func(tea.Cmd) tea.Cmd
	st     *style.Styles
	keys   *keymap.KeyMap

	openID int    // the open request in flight
	notice string // what came of the last o

	width, height int
}

func newURLDialog(a *serverAsk, open func(context.Context, string) error, ids func() int, answer func(tea.Cmd) tea.Cmd, st *style.Styles, keys *keymap.KeyMap) *urlDialog {
	return &urlDialog{ask: a, open: open, ids: ids, answer: answer, st: st, keys: keys}
}

func (d *urlDialog) key(msg tea.KeyPressMsg) (*askReply, tea.Cmd) {
	k := d.keys
	r := d.ask.elicit
	switch {
	case key.Matches(msg, k.OpenURL):
		if !webURL(r.URL) {
			d.notice = "not an http or https address: mcpsh will not open it"
			return nil, nil
		}
		d.openID, d.notice = d.ids(), "opening the browser…"
		return nil, d.answer(openURLCmd(d.ask.ctx, d.openID, d.open, r.URL))
	case key.Matches(msg, k.Accept):
		return &askReply{elicit: &client.ElicitResponse{Action: client.ElicitAccept}}, nil
	case key.Matches(msg, k.Decline):
		return &askReply{elicit: &client.ElicitResponse{Action: client.ElicitDecline}}, nil
	case key.Matches(msg, k.Dismiss):
		return &askReply{elicit: &client.ElicitResponse{Action: client.ElicitCancel}}, nil
	}
	return nil, nil
}

// opened takes the answer to an open request.
func (d *urlDialog) opened(msg openedMsg) {
	if msg.id != d.openID {
		return
	}
	d.notice = "opened in the browser; come back here to answer"
	if msg.err != nil {
		d.notice = "no browser opened (" + termtext.Line(msg.err.Error()) + "): copy the address yourself"
	}
}

func (d *urlDialog) update(tea.Msg) tea.Cmd { return nil }
func (d *urlDialog) focus() tea.Cmd         { return nil }

func (d *urlDialog) setSize(width, height int) { d.width, d.height = width, height }

func (d *urlDialog) view() string {
	st, k, r := d.st, d.keys, d.ask.elicit
	w := &layout.Lines{Width: max(d.width, 1)}
	w.Add(st.DialogTitle.Render(askerName(r.Server) + " asks you to visit a page"))
	for _, l := range layout.WrapCapped(termtext.Sanitize(r.Message), d.width, elicitMessageLines) {
		w.Add(st.Row.Render(l))
	}
	w.Blank()
	for _, l := range layout.Wrap(emphasiseHost(r.URL, st.Row.Render, st.Title.Render), max(d.width-2, 1)) {
		w.Add("  " + l)
	}
	if host, ok := urlHost(r.URL); ok {
		w.Add("  " + st.Label.Render("host ") + st.Title.Render(host))
	}
	w.Blank()
	if webURL(r.URL) {
		w.Wrap("mcpsh opens it only when you press "+k.OpenURL.Help().Key+": check the host first.", st.Muted)
	} else {
		w.Wrap("This is not an http or https address: mcpsh will not open it.", st.Warning)
	}
	if d.notice != "" {
		w.Wrap(d.notice, st.Warning)
	}
	w.Blank()
	w.Add(st.KeyHint(k.OpenURL.Help().Key, "open in the browser"))
	w.Add(st.KeyHint(k.Accept.Help().Key, "accept (done)") + "   " + st.KeyHint(k.Decline.Help().Key, "decline") + "   " + st.KeyHint(k.Dismiss.Help().Key, "cancel"))
	return strings.Join(w.Out, "\n")
}

func (d *urlDialog) bindings() []key.Binding {
	k := d.keys
	return []key.Binding{k.OpenURL, keymap.Relabel(k.Accept, "accept (done)"), k.Decline, k.Dismiss}
}

// webURL reports whether raw is an http or https URL with a host: the only
// kind handed to a browser command, never a file, a script, or something a
// command would read as an option.
func webURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// urlHost is the URL's host as a person should check it: plain ASCII, or
// quoted when it is not, so a look-alike letter from another script shows.
func urlHost(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", false
	}
	host := u.Hostname()
	for _, r := range host {
		if r >= utf8.RuneSelf || r < ' ' {
			return strconv.QuoteToASCII(host), true
		}
	}
	return termtext.Line(host), true
}

// emphasiseHost draws raw, made safe, with its authority's host (and port)
// in em and the rest in plain: in https://bank.example@evil.example/ the
// host is evil.example, and that is what stands out.
func emphasiseHost(raw string, plain, em func(...string) string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return plain(termtext.Line(raw))
	}
	rest := raw[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	start := strings.LastIndex(rest[:end], "@") + 1
	head, host, tail := raw[:i+3+start], rest[start:end], rest[end:]
	return plain(termtext.Line(head)) + em(termtext.Line(host)) + plain(termtext.Line(tail))
}
