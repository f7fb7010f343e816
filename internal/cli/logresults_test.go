package cli

import (
	"path/filepath"
	"testing"

	"github.com/mcpsh/mcpsh/internal/sessionlog"
)

// --log-results beats the config's log.results, which beats the default
// (digest); a config that cannot be read says so before anything is sent.
func TestLogResultsFlagAndConfig(t *testing.T) {
	t.Parallel()
	full := writeConfig(t, `{"mcpServers": {}, "log": {"results": "full"}}`)
	broken := writeConfig(t, `{"mcpServers": {}, "log": {"results": "everything"}}`)
	tests := []struct {
		name string
		args []string
		want sessionlog.ResultsMode
	}{
		{"default", nil, sessionlog.ResultsDigest},
		{"flag none", []string{"--log-results", "none"}, sessionlog.ResultsNone},
		{"flag full", []string{"--log-results", "full"}, sessionlog.ResultsFull},
		{"config full", []string{"--config", full}, sessionlog.ResultsFull},
		{"flag beats config", []string{"--config", full, "--log-results", "digest"}, sessionlog.ResultsDigest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			logPath := filepath.Join(t.TempDir(), "s.jsonl")
			r, _ := run(t, env{}, append([]string{"call", "--demo", "get_note", "id=1", "--log", logPath}, tt.args...)...)
			wantCode(t, r, ExitOK)
			entries, _, err := sessionlog.ReadFile(logPath)
			if err != nil || len(entries) != 1 {
				t.Fatalf("%d entries, %v", len(entries), err)
			}
			res := entries[0].Result
			var got sessionlog.ResultsMode
			switch {
			case res == nil:
				got = sessionlog.ResultsNone
			case len(res.Full) > 0:
				got = sessionlog.ResultsFull
			case res.Digest != "" && res.Text != "":
				got = sessionlog.ResultsDigest
			}
			if got != tt.want {
				t.Errorf("the entry keeps %q (%+v), want %q", got, res, tt.want)
			}
		})
	}
	r, srv := run(t, env{}, "call", "--demo", "get_note", "id=1", "--config", broken)
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, `config.json: log.results: "everything": want "none", "digest" or "full"`)
	if srv != nil && srv.Executions("get_note") != 0 {
		t.Error("a call was sent with a broken config")
	}
	r, _ = run(t, env{}, "call", "--demo", "get_note", "id=1", "--log-results", "some")
	wantCode(t, r, ExitUsage)
	contains(t, "stderr", r.errOut, `--log-results "some": want none, digest or full`)
}
