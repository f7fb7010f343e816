//go:build linux

package console

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The kernel's word on the other end decides: only this user.
func TestCheckPeer(t *testing.T) {
	if err := checkPeer(1000, nil, 1000); err != nil {
		t.Fatal(err)
	}
	if err := checkPeer(1001, nil, 1000); err == nil || !strings.Contains(err.Error(), "uid 1001, not as this user (uid 1000)") {
		t.Fatalf("another uid: %v", err)
	}
	if err := checkPeer(-1, fmt.Errorf("no such option"), 1000); err == nil {
		t.Fatal("an unknown peer was accepted")
	}
}

// A process of another user's that reaches the socket (here the test
// opens the folder to everyone) is hung up on before it hears anything.
// It takes root, to run the dialler as nobody.
func TestAnotherUsersConnectionIsRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to connect as another user; TestCheckPeer covers the check")
	}
	base, err := os.MkdirTemp("", "mc")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	dir := filepath.Join(base, "proxies")
	h, err := Start(HubOptions{Dir: dir, Server: Server{Name: "x"}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// What the permissions keep out, opened up: only the credential check
	// is left to refuse.
	for _, p := range []string{base, dir} {
		os.Chmod(p, 0o755)
	}
	os.Chmod(h.Info().Socket, 0o777)
	// The test binary, where nobody may run it.
	exe, _ := os.Executable()
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	dialer := filepath.Join(base, "dialer")
	if err := os.WriteFile(dialer, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(dialer, "-test.run=^$")
	cmd.Env = append(os.Environ(), dialerEnv+"="+h.Info().Socket)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("cannot run the test binary as nobody here (%v): %s", err, out)
	}
	if !strings.Contains(string(out), `read "" `) || strings.Contains(string(out), "<nil>") { // EOF, or a reset: the hello it wrote was never read
		t.Fatalf("another user's process read: %s", out)
	}
	if h.Present() {
		t.Fatal("another user's process counts as a console")
	}
}
