package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// defaultTestDir is where mcpsh test looks for scripts when given none.
const defaultTestDir = "mcpsh-tests"

// testScript is one script of a suite, read whole: --update rewrites it
// byte for byte but for the lines it changes.
type testScript struct {
	path string
	data []byte
	// pin is the header's target line, as written after "target:"; "" for
	// none. pinLine is its line.
	pin     string
	pinLine int
	// target and command are the header's target, parsed; headerErr the
	// mistake in it.
	target    targetFlags
	command   []string
	headerErr error
}

// findScripts lists the scripts the arguments name, in order: a FILE as it
// is (whatever its name), a DIR's *.mcpsh files at any depth, sorted; each
// once.
func findScripts(args []string) ([]string, error) {
	if len(args) == 0 {
		args = []string{defaultTestDir}
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		key := filepath.Clean(p)
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && len(args) == 1 && arg == defaultTestDir {
				return nil, &usageError{fmt.Sprintf("no %s folder here: name the scripts to run (a DIR or FILE), or put *.mcpsh files in ./%s", defaultTestDir, defaultTestDir)}
			}
			return nil, &usageError{err.Error()}
		}
		if !st.IsDir() {
			add(arg)
			continue
		}
		var found []string
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".mcpsh") {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, &usageError{err.Error()}
		}
		if len(found) == 0 {
			return nil, &usageError{fmt.Sprintf("no *.mcpsh scripts in %s", arg)}
		}
		slices.Sort(found)
		for _, p := range found {
			add(p)
		}
	}
	return out, nil
}

// targetLine finds a script's header: a comment line "# target: FLAGS"
// among the comments and blank lines above its first call. The same line
// further down is a mistake rather than a comment, so a pin never silently
// does nothing.
func targetLine(file string, data []byte) (pin string, line int, err error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	n, calls := 0, false
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		body, isComment := strings.CutPrefix(text, "#")
		if !isComment {
			calls = calls || text != ""
			continue
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(body), "target:")
		if !ok {
			continue
		}
		switch {
		case calls:
			return "", 0, &scriptError{file, n, "the target line comes before the first call"}
		case line > 0:
			return "", 0, &scriptError{file, n, fmt.Sprintf("a second target line (the first is line %d)", line)}
		}
		pin, line = strings.TrimSpace(rest), n
	}
	return pin, line, nil
}

// pinned is the target a header names, over the command line's flags: the
// way to reach the server is the header's alone, while what shapes a
// session (--protocol, --connect-timeout, --root, --elicit, --server-log)
// is the command line's for every script, and its --untrusted holds for a
// pinned server too (it can only make mcpsh stricter).
func pinned(base targetFlags, pin string) (targetFlags, []string, error) {
	const takes = "a target line takes --demo, -s NAME, --url URL, --sse URL, --header, --header-env, --bearer-env, --as, --untrusted or -- COMMAND ARGS"
	words, err := splitWords(pin)
	if err != nil {
		return base, nil, err
	}
	if len(words) == 0 {
		return base, nil, errors.New("the target line names no server: " + takes)
	}
	t := base
	t.demo, t.server, t.url, t.sse = false, "", "", ""
	t.headers, t.headerEnv, t.bearerEnv, t.as = nil, nil, "", ""
	fs := pflag.NewFlagSet("target", pflag.ContinueOnError)
	fs.SetOutput(discard{})
	fs.BoolVar(&t.demo, "demo", false, "")
	fs.StringVarP(&t.server, "server", "s", "", "")
	fs.StringVar(&t.url, "url", "", "")
	fs.StringVar(&t.sse, "sse", "", "")
	fs.StringArrayVar(&t.headers, "header", nil, "")
	fs.StringArrayVar(&t.headerEnv, "header-env", nil, "")
	fs.StringVar(&t.bearerEnv, "bearer-env", "", "")
	fs.StringVar(&t.as, "as", "", "")
	untrusted := false
	fs.BoolVar(&untrusted, "untrusted", false, "")
	if err := fs.Parse(words); err != nil {
		return base, nil, fmt.Errorf("%v: %s", err, takes)
	}
	t.untrusted = base.untrusted || untrusted
	var command []string
	args := fs.Args()
	if at := fs.ArgsLenAtDash(); at >= 0 {
		args, command = args[:at], args[at:]
	}
	if len(args) > 0 {
		return base, nil, fmt.Errorf("%q is not a flag: %s", args[0], takes)
	}
	if !t.demo && t.server == "" && t.url == "" && t.sse == "" && len(command) == 0 {
		return base, nil, errors.New("the target line names no server: " + takes)
	}
	return t, command, nil
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }

// readScript reads a script and its header.
func readScript(path string, base targetFlags) *testScript {
	ts := &testScript{path: path}
	data, err := os.ReadFile(path)
	if err != nil {
		ts.headerErr = err
		return ts
	}
	ts.data = data
	pin, line, err := targetLine(path, data)
	if err != nil {
		ts.headerErr = err
		return ts
	}
	ts.pin, ts.pinLine, ts.target = pin, line, base
	if line > 0 {
		t, command, err := pinned(base, pin)
		if err != nil {
			ts.headerErr = &scriptError{path, line, "target: " + err.Error()}
			return ts
		}
		ts.target, ts.command = t, command
	}
	return ts
}
