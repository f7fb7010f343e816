package ui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/ui/layout"
)

// OAuth in the view. mcpsh connects with an Auth that cannot log in by itself
// (a notice printed under the full screen would be lost), so a server that
// wants a login fails the connection with a *client.LoginRequiredError. The
// failure screen then offers l: it connects again with an Auth that can (a
// browser login, from Options.Login), shows the authorization URL while it
// waits for the browser to come back, and gives up on esc.

// canLogin reports whether the failure screen can offer a login.
func (m *Model) canLogin() bool {
	var lre *client.LoginRequiredError
	return m.opts.Login != nil && m.startProblem() == "" && errors.As(m.connErr, &lre)
}

// login connects again with an Auth that can log in.
func (m *Model) login() tea.Cmd {
	if p := m.startProblem(); p != "" {
		m.status = p
		return nil
	}
	au := m.opts.Login(*m.target)
	if au == nil {
		m.status = "mcpsh cannot log in to this server here"
		return nil
	}
	au.Notify = m.inbox.notifier(m.serverState)
	m.preLogin, m.auth = m.auth, au
	m.notices = nil
	cmd := m.connectWith(m.loginTimeout(au))
	m.mode = modeLogin
	return cmd
}

// loginTimeout bounds connecting with a login: the browser's wait on top of
// the usual connect timeout.
func (m *Model) loginTimeout(au *client.Auth) time.Duration {
	wait := client.DefaultLoginWait
	if au.Login != nil && au.Login.Wait > 0 {
		wait = au.Login.Wait
	}
	return m.connectTimeout() + wait
}

// loginFailed puts back the Auth from before the login: trying again ("r")
// must not start a browser login behind the connecting screen.
func (m *Model) loginFailed() {
	m.auth, m.preLogin = m.preLogin, nil
}

// cancelLogin gives up waiting for the browser: the connect command ends
// with the cancellation, and the failure screen comes back.
func (m *Model) cancelLogin() {
	if m.connecting != nil {
		m.connecting.cancel()
	}
	m.notices = append(m.notices, "giving up…")
}

// onNotice keeps what the OAuth flow says: on the login screen while it
// runs, and in the server pane always.
func (m *Model) onNotice(text string) tea.Cmd {
	if m.mode == modeLogin {
		m.notices = append(m.notices, text)
	}
	m.serverPane.Append(client.Event{Kind: "auth", Time: m.now(), Text: text})
	return nil
}

func (m *Model) renderLogin() string {
	w := &layout.Lines{Width: max(m.width, 1)}
	w.Blank()
	w.Add(fmt.Sprintf("  %s logging in to %s…", m.spinner.View(), termtext.Line(m.target.Label())))
	w.Blank()
	if len(m.notices) == 0 {
		w.Wrap("asking the server how to log in", m.st.Muted)
	}
	for _, n := range m.notices {
		for _, l := range strings.Split(termtext.Sanitize(n), "\n") {
			// URLs are long: broken at the width, not at spaces, so a copy
			// from the terminal keeps every character.
			for _, sub := range layout.Wrap(l, m.width) {
				w.Add(m.st.Row.Render(sub))
			}
		}
	}
	w.Blank()
	w.Add(keyHint(m.st, m.keys.Close.Help().Key, "cancel the login"))
	return strings.Join(w.Out, "\n")
}

// loginHint is the failure screen's offer, when there is one.
func (m *Model) loginHint() string {
	if !m.canLogin() {
		return ""
	}
	return keyHint(m.st, m.keys.Login.Help().Key, "log in: opens your browser, and shows the address to open if none does")
}
