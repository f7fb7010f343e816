package cli

import (
	"fmt"
	"sync"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/spf13/cobra"
)

// allConcurrency bounds the servers --all connects to at once: enough that a
// slow one does not hold up the rest, few enough not to start a dozen npx at once.
const allConcurrency = 4

// reached is one configured server as --all reached it: its session, or why not.
type reached struct {
	name    string
	session *client.Session
	listing *client.Listing
	err     error
}

// eachServer connects to every configured server in parallel, as a host would
// at start, and returns them in the config's order. A server that cannot be
// reached is reported by its err and never stops the others.
func (a *app) eachServer(cmd *cobra.Command, command []string) ([]*reached, error) {
	if a.targetGiven(command) {
		return nil, &usageError{"--all covers every configured server: name no server as well"}
	}
	cfg, err := a.loadConfig()
	if err != nil {
		return nil, err
	}
	if len(cfg.Servers) == 0 {
		return nil, &usageError{fmt.Sprintf("--all: no servers are configured in %s", cfg.Path)}
	}
	a.several = true
	// The flags are checked once; roots are each server's own.
	if err := a.prepareFeatures(client.Target{}); err != nil {
		return nil, err
	}
	out := make([]*reached, len(cfg.Servers))
	sem := make(chan struct{}, allConcurrency)
	var wg sync.WaitGroup
	for i, srv := range cfg.Servers {
		out[i] = &reached{name: srv.Name}
		if err := srv.Validate(); err != nil {
			out[i].err = err
			continue
		}
		t := targetOf(srv)
		if a.target.untrusted {
			t.Trust = policy.Untrusted
		}
		roots, err := a.rootsFor(t)
		if err != nil {
			out[i].err = err
			continue
		}
		wg.Add(1)
		go func(r *reached) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r.session, r.listing, r.err = a.open(cmd.Context(), t, roots)
		}(out[i])
	}
	wg.Wait()
	for _, r := range out {
		if r.listing != nil {
			for _, w := range r.listing.Warnings {
				a.warn(termtext.Line(r.name) + ": " + w)
			}
		}
	}
	return out, cmd.Context().Err()
}

// closeAll ends every session --all opened.
func closeAll(rs []*reached) {
	for _, r := range rs {
		if r.session != nil {
			r.session.Close()
		}
	}
}

// reportUnreached says which servers --all could not reach, and whether any.
func (a *app) reportUnreached(rs []*reached) bool {
	failed := false
	for _, r := range rs {
		if r.err != nil {
			failed = true
			fmt.Fprintf(a.io.ErrOut, "mcpsh: %s: %s\n", termtext.Line(r.name), termtext.Sanitize(r.err.Error()))
		}
	}
	return failed
}

// allToolJSON is one element of `tools --all --json`: a tool and its server.
type allToolJSON struct {
	Server string `json:"server"`
	toolJSON
}

func (a *app) toolsAll(cmd *cobra.Command, command []string, asJSON bool) error {
	rs, err := a.eachServer(cmd, command)
	defer closeAll(rs)
	if err != nil {
		return err
	}
	switch {
	case asJSON:
		out := []allToolJSON{}
		for _, r := range rs {
			if r.session == nil {
				continue
			}
			for _, t := range toolsJSON(r.session.Tools()) {
				out = append(out, allToolJSON{Server: r.name, toolJSON: t})
			}
		}
		if err := writeJSON(a.io.Out, out); err != nil {
			return err
		}
	case a.io.StdoutTTY:
		for i, r := range rs {
			if r.session == nil {
				continue
			}
			if i > 0 {
				fmt.Fprintln(a.io.Out)
			}
			a.printToolTable(r.session)
		}
	default:
		for _, r := range rs {
			if r.session == nil {
				continue
			}
			for _, t := range r.session.Tools() {
				fmt.Fprintf(a.io.Out, "%s\t", termtext.Line(r.name))
				printToolLine(a.io.Out, t)
			}
		}
	}
	if a.reportUnreached(rs) {
		return &exitError{ExitFailure}
	}
	return nil
}
