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
func (s *serverState) canLogin() bool {
	var lre *client.LoginRequiredError
	return s.opts.Login != nil && s.startProblem() == "" && errors.As(s.connErr, &lre)
}

// login connects again with an Auth that can log in.
func (s *serverState) login() tea.Cmd {
	if p := s.startProblem(); p != "" {
		s.status = p
		return nil
	}
	au := s.opts.Login(*s.target)
	if au == nil {
		s.status = "mcpsh cannot log in to this server here"
		return nil
	}
	au.Notify = s.inbox.notifier(s)
	s.preLogin, s.auth = s.auth, au
	s.notices = nil
	cmd := s.connectWith(s.loginTimeout(au))
	s.mode = modeLogin
	return cmd
}

// loginTimeout bounds connecting with a login: the browser's wait on top of
// the usual connect timeout.
func (s *serverState) loginTimeout(au *client.Auth) time.Duration {
	wait := client.DefaultLoginWait
	if au.Login != nil && au.Login.Wait > 0 {
		wait = au.Login.Wait
	}
	return s.connectTimeout() + wait
}

// loginFailed puts back the Auth from before the login: trying again ("r")
// must not start a browser login behind the connecting screen.
func (s *serverState) loginFailed() {
	s.auth, s.preLogin = s.preLogin, nil
}

// cancelLogin gives up waiting for the browser: the connect command ends
// with the cancellation, and the failure screen comes back.
func (s *serverState) cancelLogin() {
	if s.connecting != nil {
		s.connecting.cancel()
	}
	s.notices = append(s.notices, "giving up…")
}

// onNotice keeps what the OAuth flow says: on the login screen while it
// runs, and in the server pane always.
func (s *serverState) onNotice(text string) tea.Cmd {
	if s.mode == modeLogin {
		s.notices = append(s.notices, text)
	}
	s.serverPane.Append(client.Event{Kind: "auth", Time: s.now(), Text: text})
	return nil
}

func (s *serverState) renderLogin() string {
	w := &layout.Lines{Width: max(s.width, 1)}
	w.Blank()
	w.Add(fmt.Sprintf("  %s logging in to %s…", s.spinner.View(), termtext.Line(s.target.Label())))
	w.Blank()
	if len(s.notices) == 0 {
		w.Wrap("asking the server how to log in", s.st.Muted)
	}
	for _, n := range s.notices {
		for _, l := range strings.Split(termtext.Sanitize(n), "\n") {
			// URLs are long: broken at the width, not at spaces, so a copy
			// from the terminal keeps every character.
			for _, sub := range layout.Wrap(l, s.width) {
				w.Add(s.st.Row.Render(sub))
			}
		}
	}
	w.Blank()
	w.Add(s.st.KeyHint(s.keys.Close.Help().Key, "cancel the login"))
	return strings.Join(w.Out, "\n")
}

// loginHint is the failure screen's offer, when there is one.
func (s *serverState) loginHint() string {
	if !s.canLogin() {
		return ""
	}
	return s.st.KeyHint(s.keys.Login.Help().Key, "log in: opens your browser, and shows the address to open if none does")
}
