package client

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
)

// OpenBrowser opens URLs with $BROWSER when it is set (a colon-separated
// list of commands, each run with the URL in place of %s or after its
// arguments, the first one found winning), else with the platform's opener:
// xdg-open, open or rundll32. The command runs without a shell, so nothing
// in the URL is interpreted, and its output is discarded: a browser's chatter
// must not land in mcpsh's output.
func OpenBrowser(getenv func(string) (string, bool)) func(ctx context.Context, url string) error {
	return func(_ context.Context, url string) error {
		argv, err := browserCommand(getenv, runtime.GOOS, url)
		if err != nil {
			return err
		}
		// Not CommandContext: the browser is the person's and outlives mcpsh.
		cmd := exec.Command(argv[0], argv[1:]...)
		if err := cmd.Start(); err != nil {
			return err
		}
		go cmd.Wait() // reap it
		return nil
	}
}

// browserCommand is the command line that opens url.
func browserCommand(getenv func(string) (string, bool), goos, url string) ([]string, error) {
	if b, _ := getenv("BROWSER"); strings.TrimSpace(b) != "" {
		for _, entry := range strings.Split(b, ":") {
			fields := strings.Fields(entry)
			if len(fields) == 0 {
				continue
			}
			if _, err := exec.LookPath(fields[0]); err != nil {
				continue
			}
			placed := false
			for i, f := range fields[1:] {
				if strings.Contains(f, "%s") {
					fields[i+1] = strings.ReplaceAll(f, "%s", url)
					placed = true
				}
			}
			if !placed {
				fields = append(fields, url)
			}
			return fields, nil
		}
		return nil, fmt.Errorf("none of the commands in $BROWSER was found")
	}
	var argv []string
	switch goos {
	case "darwin":
		argv = []string{"open", url}
	case "windows":
		argv = []string{"rundll32", "url.dll,FileProtocolHandler", url}
	default:
		argv = []string{"xdg-open", url}
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return nil, errors.New(argv[0] + " was not found and $BROWSER is not set")
	}
	return argv, nil
}
