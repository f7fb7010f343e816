package cli

import (
	"context"
	"fmt"
	"sync"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/policy"
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
// d says what the command listens for; it is marked as talking to several.
func (f *factory) eachServer(ctx context.Context, command []string, d *dial) ([]*reached, error) {
	if f.targetGiven(command) {
		return nil, &usageError{"--all covers every configured server: name no server as well"}
	}
	cfg, err := f.loadConfig()
	if err != nil {
		return nil, err
	}
	if len(cfg.Servers) == 0 {
		return nil, &usageError{fmt.Sprintf("--all: no servers are configured in %s", cfg.Path)}
	}
	d.several = true
	// The flags are checked once; roots are each server's own.
	feat, err := f.prepareFeatures(client.Target{})
	if err != nil {
		return nil, err
	}
	d.features = feat
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
		if f.target.untrusted {
			t.Trust = policy.Untrusted
		}
		roots, err := f.rootsFor(t)
		if err != nil {
			out[i].err = err
			continue
		}
		wg.Add(1)
		go func(r *reached) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r.session, r.listing, r.err = f.open(ctx, t, roots, d)
		}(out[i])
	}
	wg.Wait()
	for _, r := range out {
		if r.listing != nil {
			for _, w := range r.listing.Warnings {
				f.warn(termtext.Line(r.name) + ": " + w)
			}
		}
	}
	return out, ctx.Err()
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
func (f *factory) reportUnreached(rs []*reached) bool {
	failed := false
	for _, r := range rs {
		if r.err != nil {
			failed = true
			fmt.Fprintf(f.io.ErrOut, "mcpsh: %s: %s\n", termtext.Line(r.name), termtext.Sanitize(r.err.Error()))
		}
	}
	return failed
}
