package proxy

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// What a request from anything but the host it is meant for meets, over
// raw HTTP: each is refused before go-sdk sees it, so no session starts
// and no upstream server is started.

// noUpstream fails when a refused request started an upstream server.
func (r *httpRig) noUpstream() {
	r.t.Helper()
	if pids := fixture.Lines(r.state, "pids"); len(pids) != 0 {
		r.t.Errorf("a refused request started the server %d times", len(pids))
	}
}

// Each request is a good initialize but for one thing; the last is good
// in every way and starts a session, so the refusals are not the setup's.
func TestListenRefusesWhatIsNotThisProxysHost(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{})
	cases := []struct {
		name string
		hdr  map[string]string
		code int
		says string
	}{
		// go-sdk alone takes any loopback name, on any port: a page served
		// on localhost:OTHER whose name rebinds to 127.0.0.1.
		{"loopback name, another port", map[string]string{"Host": "localhost:1"}, 403, "is not this proxy's"},
		{"loopback IP, another port", map[string]string{"Host": "127.0.0.1:" + portOther(r.port)}, 403, "is not this proxy's"},
		{"rebound name", map[string]string{"Host": "evil.test:" + r.port}, 403, "is not this proxy's"},
		// go-sdk checks no origin: a web page's POST.
		{"cross origin, good Host", map[string]string{"Origin": "http://evil.test"}, 403, `origin "http://evil.test"`},
		{"our host, another port's origin", map[string]string{"Origin": "http://localhost:1"}, 403, "origin"},
		{"null origin", map[string]string{"Origin": "null"}, 403, "origin"},
		{"cross-site fetch", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross-site"},
		{"no token", map[string]string{"Authorization": ""}, 401, ""},
		{"wrong token", map[string]string{"Authorization": "Bearer " + strings.Repeat("0", 64)}, 401, ""},
		{"the token as another scheme", map[string]string{"Authorization": "Basic " + r.token}, 401, ""},
		{"a prefix of the token", map[string]string{"Authorization": "Bearer " + r.token[:63]}, 401, ""},
	}
	for _, c := range cases {
		res, body := r.rawPost(context.Background(), rawInitialize, c.hdr)
		if res.StatusCode != c.code || !strings.Contains(body, c.says) {
			t.Errorf("%s: %s %q; want %d saying %q", c.name, res.Status, body, c.code, c.says)
		}
		if c.code == 401 && !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer ") {
			t.Errorf("%s: 401 without a Bearer challenge (WWW-Authenticate %q)", c.name, res.Header.Get("WWW-Authenticate"))
		}
	}
	r.noUpstream()
	for _, good := range []map[string]string{
		{"Host": "localhost:" + r.port, "Origin": "http://localhost:" + r.port, "Sec-Fetch-Site": "same-origin"},
		{"Host": "127.0.0.1:" + r.port, "Origin": "http://127.0.0.1:" + r.port},
		{"Host": "[::1]:" + r.port},
	} {
		if res, body := r.rawPost(context.Background(), rawInitialize, good); res.StatusCode != http.StatusOK {
			t.Errorf("%v: %s %s", good, res.Status, body)
		}
	}
}

func portOther(port string) string {
	if port == "1" {
		return "2"
	}
	return "1"
}

// --allow-host and --allow-origin add to the accepted names, not replace
// them; a name without a port means the proxy's port.
func TestListenAllowsTheHostsAndOriginsItIsTold(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{AllowHosts: []string{"devbox.internal"}, AllowOrigins: []string{"https://app.example"}})
	for _, c := range []struct {
		hdr  map[string]string
		code int
	}{
		{map[string]string{"Host": "devbox.internal:" + r.port}, 200},
		{map[string]string{"Host": "devbox.internal:1"}, 403},
		{map[string]string{"Origin": "https://app.example"}, 200},
		{map[string]string{"Origin": "https://app.example.evil"}, 403},
		{map[string]string{"Host": "localhost:" + r.port}, 200},
	} {
		if res, body := r.rawPost(context.Background(), rawInitialize, c.hdr); res.StatusCode != c.code {
			t.Errorf("%v: %s %s; want %d", c.hdr, res.Status, body, c.code)
		}
	}
}

// The token is 32 random bytes in a file only this user can read, in a
// folder only this user can enter; it is gone once the proxy ends.
func TestListenTokenFileIsThisUsersOnlyAndGoneAtTheEnd(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "state", "mcpsh", "proxy")
	// A file left on this port by a proxy that did not end, and readable
	// by all: replaced, not reused.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := newHTTPRig(t, "proxy", ListenOptions{TokenDir: dir})
	file := r.l.TokenFile()
	if file != filepath.Join(dir, r.port+".token") {
		t.Fatalf("token file %s", file)
	}
	fi, err := os.Lstat(file)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode() != 0o600 {
		t.Errorf("token file mode %v; want -rw-------", fi.Mode())
	}
	di, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("token folder mode %v; want 0700", di.Mode().Perm())
	}
	if len(r.token) != 64 || strings.Trim(r.token, "0123456789abcdef") != "" {
		t.Errorf("token %q is not 32 bytes in hex", r.token)
	}
	r.stop()
	if err := <-r.served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	r.served <- nil
	if _, err := os.Lstat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the token file outlived the proxy: %v", err)
	}
}

// A token file left on the port (even a link to somewhere else) is
// replaced, never written through.
func TestListenReplacesAStaleTokenFileWithoutFollowingIt(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "proxy")
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Bind first to learn a port, then plant the link where its token goes.
	probe := New(Options{})
	l, err := probe.Listen(ListenOptions{Addr: "127.0.0.1:0", NoToken: true})
	if err != nil {
		t.Fatal(err)
	}
	addr := l.ln.Addr().String()
	l.ln.Close()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, l.port+".token")); err != nil {
		t.Fatal(err)
	}
	r := newHTTPRig(t, "proxy", ListenOptions{Addr: addr, TokenDir: dir})
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the token was written through a link: %q", b)
	}
	if fi, err := os.Lstat(r.l.TokenFile()); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("token file: %v %v", fi, err)
	}
}

// Without a token, a host needs none; the other checks stay.
func TestListenWithoutTokenStillChecksHostAndOrigin(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{NoToken: true})
	if r.l.TokenFile() != "" {
		t.Errorf("token file %q", r.l.TokenFile())
	}
	if res, body := r.rawPost(context.Background(), rawInitialize, map[string]string{"Origin": "http://evil.test"}); res.StatusCode != 403 {
		t.Errorf("cross origin: %s %s", res.Status, body)
	}
	if res, body := r.rawPost(context.Background(), rawInitialize, nil); res.StatusCode != 200 {
		t.Errorf("no token: %s %s", res.Status, body)
	}
}

// A request may be as large as mcpsh takes an answer (32 MiB, not
// go-sdk's 4 MiB); a larger one is refused before it is read whole.
func TestListenBodyCap(t *testing.T) {
	t.Parallel()
	r := newHTTPRig(t, "proxy", ListenOptions{})
	id := r.rawSession()
	hdr := map[string]string{sessionHeader: id, "Mcp-Protocol-Version": "2025-11-25"}
	ping := func(pad int) (*http.Response, string) {
		return r.rawPost(context.Background(), `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"pad":"`+strings.Repeat("x", pad)+`"}}}`, hdr)
	}
	if res, body := ping(5 << 20); res.StatusCode != http.StatusOK || !strings.Contains(body, `"id":7`) {
		t.Errorf("a 5 MiB request: %s %.200s", res.Status, body)
	}
	if res, body := ping(maxBody); res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a request over 32 MiB: %s %.200s", res.Status, body)
	}
}

func TestBindAddrTakesLoopbackOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr   string
		remote bool
		want   string
		bad    bool
	}{
		{"127.0.0.1:8080", false, "127.0.0.1:8080", false},
		{"[::1]:0", false, "[::1]:0", false},
		{"127.0.0.2:9", false, "127.0.0.2:9", false},
		{":8080", false, "", true},
		{"0.0.0.0:8080", false, "", true},
		{"[::]:8080", false, "", true},
		{"192.0.2.1:8080", false, "", true},
		{"example.com:8080", false, "", true},
		{"0.0.0.0:8080", true, "0.0.0.0:8080", false},
		{":8080", true, ":8080", false},
		{"127.0.0.1", false, "", true},
		{"127.0.0.1:99999", false, "", true},
	} {
		got, err := BindAddr(c.addr, c.remote)
		if c.bad != (err != nil) || (!c.bad && got != c.want) {
			t.Errorf("BindAddr(%q, %v) = %q, %v", c.addr, c.remote, got, err)
		}
	}
	got, err := BindAddr("localhost:0", false)
	if err != nil || !strings.HasSuffix(got, ":0") || (got != "127.0.0.1:0" && got != "[::1]:0") {
		t.Errorf("localhost: %q %v", got, err)
	}
	if _, err := BindAddr("0.0.0.0:1", false); !errors.Is(err, ErrNotLoopback) {
		t.Errorf("0.0.0.0: %v", err)
	}
}
