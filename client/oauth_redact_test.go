package client

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/oauthfake"
	"github.com/mcpsh/mcpsh/internal/redact"
	"github.com/mcpsh/mcpsh/policy"
)

// TestCredentialsAServerEchoesAreRedacted: a JSON-RPC error that quotes the
// access token (without "Bearer"), the refresh token and the client secret
// mcpsh was registered with reads, in the outcome, with each of them
// redacted: the ones in use and the ones the session used before. The fake's
// tokens expire within oauth2's ten-second margin, so every request renews
// them and they change under the session, as an hour-long session's do.
func TestCredentialsAServerEchoesAreRedacted(t *testing.T) {
	f := oauthfake.New(t)
	f.ExpiresIn = 5
	f.RegisterSecret = "dyn-secret-Rk5Tq2"
	s, err := connectOAuth(t, f, browserAuth(NewFileTokenStore(t.TempDir())), nil)
	if err != nil {
		t.Fatal(err)
	}
	callWhoami(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), testBound)
	defer cancel()
	o, _ := s.Do(ctx, &Call{Tool: mustTool(t, s, "leak"), Args: map[string]any{}, Mode: policy.Batch})
	if o.Status != StatusFailed || !strings.Contains(o.Error, "upstream refused the credentials it was handed: "+redact.Marker) {
		t.Fatalf("the server's error did not come through: %s %q", o.Status, o.Error)
	}
	issued := f.Seen().Issued
	if len(issued) < 6 {
		t.Fatalf("the tokens did not change under the session: %d issued", len(issued))
	}
	texts := []string{o.Error}
	for _, a := range o.Attempts {
		texts = append(texts, a.Error)
	}
	for _, secret := range append(issued, f.RegisterSecret) {
		for _, text := range texts {
			if strings.Contains(text, secret) {
				t.Errorf("%s… shows in %q", secret[:5], text)
			}
		}
	}
	// Server text anywhere else goes through the same redaction.
	if got := s.Target.Redact("stderr: " + issued[0] + " " + issued[len(issued)-1]); got != "stderr: "+redact.Marker+" "+redact.Marker {
		t.Errorf("Target.Redact = %q", got)
	}
}
