package oauthfake

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// FollowBrowser is a browser (client.BrowserLogin's Open) that goes where the
// authorization URL sends it, redirects included, as a person clicking
// "allow" would.
func FollowBrowser(_ context.Context, u string) error {
	go func() {
		resp, err := http.Get(u)
		if err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}

// CurlBrowser writes a $BROWSER script that fetches its URL with curl and
// follows the redirects to mcpsh's loopback listener, as FollowBrowser does
// in process. It skips the test where there is no curl, except under
// CI=true, where a missing curl fails it (.ci/run installs curl).
func CurlBrowser(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/curl"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no /usr/bin/curl to play the browser, and CI=true: install curl")
		}
		t.Skip("no curl to play the browser")
	}
	p := filepath.Join(t.TempDir(), "browser")
	script := "#!/bin/sh\nexec /usr/bin/curl -sSfL --noproxy '*' -o /dev/null \"$1\"\n"
	if err := os.WriteFile(p, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}
