package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsh/mcpsh/internal/console"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
)

// watchJSON is mcpsh watch --json, running, its lines read as they come.
type watchJSON struct {
	t     *testing.T
	lines chan console.Event
	raw   chan string
}

func startWatchJSON(t *testing.T, env []string) *watchJSON {
	t.Helper()
	cmd := command(t, mcpshBin, "watch", "--json")
	cmd.Env = testEnv(t, env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &watchJSON{t: t, lines: make(chan console.Event, 256), raw: make(chan string, 256)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), console.MaxLine)
		for sc.Scan() {
			var e console.Event
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				w.raw <- sc.Text()
				continue
			}
			w.lines <- e
		}
		close(w.lines)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		if s := stderr.String(); strings.Contains(s, "panic") {
			t.Errorf("mcpsh watch's stderr:\n%s", s)
		}
		select {
		case l := <-w.raw:
			t.Errorf("mcpsh watch --json printed a line that is not JSON: %q", l)
		default:
		}
	})
	return w
}

// next waits for the first line that matches.
func (w *watchJSON) next(what string, match func(console.Event) bool) console.Event {
	w.t.Helper()
	timeout := time.After(patience)
	for {
		select {
		case e, ok := <-w.lines:
			if !ok {
				w.t.Fatalf("mcpsh watch ended waiting for %s", what)
			}
			if match(e) {
				return e
			}
		case <-timeout:
			w.t.Fatalf("gave up waiting for %s in mcpsh watch --json", what)
		}
	}
}

// nextEvent waits for w's first event that matches.
func nextEvent(t *testing.T, w *console.Watcher, what string, match func(console.Event) bool) console.Event {
	t.Helper()
	timeout := time.After(patience)
	for {
		select {
		case e := <-w.Events():
			if match(e) {
				return e
			}
		case <-timeout:
			t.Fatalf("gave up waiting for %s at the test console", what)
		}
	}
}

// A go-sdk host calls through mcpsh proxy: mcpsh watch --json shows the
// proxy, the host's clientInfo and the read-only call; a destructive call
// waits for a console, runs once when it answers run, and is a tool error
// for the agent, with nothing sent, when it answers refuse.
func TestWatchShowsTheProxyAndAConsoleAnswers(t *testing.T) {
	t.Parallel()
	run, err := os.MkdirTemp("", "mw") // short: a socket's path is bounded
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(run)
	for _, v := range []struct{ name, version string }{{"2025-11-25", "2025-11-25"}, {"2026-07-28", ""}} {
		t.Run(v.name, func(t *testing.T) {
			env, _, _ := stateEnv(t)
			env = append(env, "XDG_RUNTIME_DIR="+filepath.Join(run, v.name[:4]))
			watch := startWatchJSON(t, env)
			con, err := console.Watch(context.Background(), filepath.Join(run, v.name[:4], "mcpsh", "proxies"), console.WatchOptions{Poll: 20 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer con.Close()

			fx := t.TempDir()
			cs, stderr := goHost(t, proxyCmd(t, env, fx, "proxy", "--no-log"), v.version, nil)
			defer cs.Close()
			nextEvent(t, con, "the proxy", func(e console.Event) bool { return e.Kind == console.ProxyAppeared })
			appeared := watch.next("the proxy", func(e console.Event) bool { return e.Kind == console.ProxyAppeared })
			info := appeared.Info
			if info.Server.Transport != "stdio" || info.PID == 0 || info.Mcpsh == "" {
				t.Fatalf("the proxy: %+v", info)
			}
			if info.Host == nil { // the host had not introduced itself yet
				info = watch.next("the host", func(e console.Event) bool { return e.Kind == console.ProxyUpdated }).Info
			}
			if info.Host == nil || info.Host.Name != "e2e-host" || info.Host.Version != "4.2" || info.Server.Protocol == "" {
				t.Fatalf("the host as watch shows it: %+v", info)
			}

			if res, text := hostCall(t, cs, "read"); res.IsError || text != "ran read" {
				t.Fatalf("read: %q", text)
			}
			started := watch.next("read's start", func(e console.Event) bool { return e.Kind == "call-started" }).Call
			if started.Tool != "read" || started.Title != "Read" || started.Class != "read-only" || started.Host == nil || started.Host.Name != "e2e-host" {
				t.Fatalf("read started: %+v", started)
			}
			if e := watch.next("read's end", func(e console.Event) bool { return e.Kind == "call-ended" }).Call; e.ID != started.ID || e.Status != "ok" {
				t.Fatalf("read ended: %+v", e)
			}

			for _, c := range []struct {
				choice console.Choice
				runs   int
			}{{console.Run, 1}, {console.Refuse, 1}} {
				type result struct {
					isError bool
					text    string
				}
				done := make(chan result, 1)
				go func() {
					res, text := hostCall(t, cs, "wipe")
					done <- result{res.IsError, text}
				}()
				q := nextEvent(t, con, "the question", func(e console.Event) bool { return e.Kind == console.QuestionAsked })
				if q.Question.Tool != "wipe" || q.Question.Class != "destructive" || q.Question.Host.Name != "e2e-host" {
					t.Fatalf("the question: %+v", q.Question)
				}
				if err := con.Answer(q.Proxy, q.Question.ID, c.choice); err != nil {
					t.Fatal(err)
				}
				var r result
				select {
				case r = <-done:
				case <-time.After(patience):
					t.Fatal("the host's call did not end")
				}
				if n := fixture.CountIn(fx, "executions", "wipe"); r.isError != (c.choice == console.Refuse) || n != c.runs {
					t.Fatalf("answered %s: %q (isError %v), executions %d", c.choice, r.text, r.isError, n)
				}
				if c.choice == console.Refuse && !strings.Contains(r.text, "declined at the console") {
					t.Fatalf("the refusal the agent reads: %q", r.text)
				}
				asked := watch.next("the question", func(e console.Event) bool { return e.Kind == console.QuestionAsked }).Question
				closed := watch.next("the answer", func(e console.Event) bool { return e.Kind == console.QuestionClosed }).Closed
				if asked.ID != q.Question.ID || closed.Question != asked.ID || closed.How != console.ClosedAnswered || closed.Choice != c.choice || closed.Yours {
					t.Fatalf("watch saw %+v, then %+v", asked, closed)
				}
			}
			if strings.Contains(stderr.String(), "panic") {
				t.Fatalf("stderr:\n%s", stderr.String())
			}
		})
	}
}

// mcpsh proxy killed with kill -9 leaves its entry: a console finds it
// stale (its socket refuses, even before the host reaps the process) and
// drops it, and the folder is empty again.
func TestAKilledProxysEntryIsDroppedByAConsole(t *testing.T) {
	t.Parallel()
	run, err := os.MkdirTemp("", "mk")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(run)
	env, _, _ := stateEnv(t)
	env = append(env, "XDG_RUNTIME_DIR="+run)
	dir := filepath.Join(run, "mcpsh", "proxies")
	cmd := proxyCmd(t, env, t.TempDir(), "proxy", "--no-log")
	cs, _ := goHost(t, cmd, "2025-11-25", nil)
	defer cs.Close()
	list, err := console.List(dir)
	if err != nil || len(list) != 1 || list[0].PID != cmd.Process.Pid {
		t.Fatalf("registered: %+v %v", list, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	con, err := console.Watch(context.Background(), dir, console.WatchOptions{Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer con.Close()
	deadline := time.Now().Add(patience)
	for {
		names, _ := os.ReadDir(dir)
		if len(names) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed proxy's files stay: %v", names)
		}
		time.Sleep(20 * time.Millisecond) // polling the folder
	}
}
