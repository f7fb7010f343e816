//go:build unix

package console

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testing/wait"
)

// The folder is the user's alone, the socket and the entry too; the entry
// says who the proxy is, and goes when it ends.
func TestRegistrationIsOwnerOnlyAndRemovedOnClose(t *testing.T) {
	dir := shortDir(t)
	h, err := Start(HubOptions{Dir: dir, Server: Server{Name: "gh", Transport: "stdio"}, Mcpsh: "1.2"})
	if err != nil {
		t.Fatal(err)
	}
	info := h.Info()
	for path, want := range map[string]os.FileMode{dir: 0o700, info.Socket: 0o600, entryPath(dir, info.ID): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %o, want %o", filepath.Base(path), got, want)
		}
	}
	if fi, _ := os.Stat(info.Socket); fi.Mode().Type() != os.ModeSocket {
		t.Errorf("%s is not a socket", info.Socket)
	}
	list, err := List(dir)
	if err != nil || len(list) != 1 || list[0].PID != os.Getpid() || list[0].Server.Name != "gh" || list[0].Mcpsh != "1.2" || list[0].Socket != info.Socket {
		t.Fatalf("%+v %v", list, err)
	}
	h.Close()
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("left behind: %v", names)
	}
}

// A folder with looser permissions is tightened; a file where the folder
// should be is refused.
func TestEnsureDirTightensAndRefuses(t *testing.T) {
	dir := shortDir(t)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	if err := EnsureDir(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %o", fi.Mode().Perm())
	}
	file := filepath.Join(filepath.Dir(dir), "file")
	os.WriteFile(file, nil, 0o600)
	if err := EnsureDir(file); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("a file as the folder: %v", err)
	}
}

// A proxy killed with kill -9 leaves its entry and socket; the next
// reader notices its process is gone and drops both.
func TestAKilledProxysEntryIsDropped(t *testing.T) {
	dir := shortDir(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	id, ok := strings.CutPrefix(strings.TrimSpace(line), "ready ")
	if !ok {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child said %q", line)
	}
	list, _ := List(dir)
	if len(list) != 1 || list[0].PID != cmd.Process.Pid || list[0].ID != id {
		t.Fatalf("registered: %+v", list)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait() // reaped: its process id is gone
	if _, err := os.Stat(entryPath(dir, id)); err != nil {
		t.Fatalf("the killed proxy's entry should still be there to be found stale: %v", err)
	}
	if list, err := List(dir); err != nil || len(list) != 0 {
		t.Fatalf("after kill -9: %+v %v", list, err)
	}
	for _, p := range []string{entryPath(dir, id), socketPath(dir, id)} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was not dropped: %v", filepath.Base(p), err)
		}
	}
}

// An entry whose process lives (its id reused by another program) but
// whose socket refuses is dropped by a Watcher.
func TestAnEntryWhoseSocketRefusesIsDropped(t *testing.T) {
	dir := shortDir(t)
	if err := EnsureDir(dir); err != nil {
		t.Fatal(err)
	}
	id := newID()
	l, err := net.Listen("unix", socketPath(dir, id))
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close() // the socket file stays; no one listens
	if err := writeEntry(dir, entry{Info: Info{ID: id, PID: os.Getpid(), Socket: socketPath(dir, id)}}); err != nil {
		t.Fatal(err)
	}
	if list, _ := List(dir); len(list) != 1 {
		t.Fatalf("a live process's entry: %+v", list)
	}
	w, err := Watch(t.Context(), dir, WatchOptions{Poll: 10 * 1e6})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	wait.Until(t, "the stale entry to be dropped", func() bool {
		_, err := os.Stat(entryPath(dir, id))
		return os.IsNotExist(err)
	})
	if _, err := os.Stat(socketPath(dir, id)); !os.IsNotExist(err) {
		t.Fatalf("the stale socket stays: %v", err)
	}
}

// Entries that are not a proxy's (unreadable, or naming a socket outside
// the folder) are dropped, never dialled.
func TestAForgedEntryIsDropped(t *testing.T) {
	dir := shortDir(t)
	if err := EnsureDir(dir); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(Info{ID: "abc", PID: os.Getpid(), Socket: "/var/run/docker.sock"})
	os.WriteFile(entryPath(dir, "abc"), b, 0o600)
	os.WriteFile(entryPath(dir, "def"), []byte("{not json"), 0o600)
	if list, _ := List(dir); len(list) != 0 {
		t.Fatalf("%+v", list)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Fatalf("left: %v", names)
	}
}
