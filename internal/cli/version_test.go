package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	t.Parallel()
	vcs := func(rev, when, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: when}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name                  string
		bi                    *debug.BuildInfo
		version, commit, date string
		want                  string
	}{
		{"no build info", nil, "", "", "", "mcpsh (devel)\n"},
		{"go install @version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}}, "", "", "",
			"mcpsh v1.2.3\ngo1.26.8 "},
		{"a checkout with changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("abc123", "2026-08-20T10:11:12Z", "true")}, "", "", "",
			"mcpsh (devel)\ncommit abc123 with uncommitted changes (committed 2026-08-20T10:11:12Z)\ngo1.26.8 "},
		{"a clean checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20260820101112-abc123abc123"},
			Settings: vcs("abc123", "2026-08-20T10:11:12Z", "false")}, "", "", "",
			"mcpsh v0.0.0-20260820101112-abc123abc123\ncommit abc123 (committed 2026-08-20T10:11:12Z)\n"},
		{"a release: link-time values win", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("abc123", "2026-08-20T10:11:12Z", "true")}, "v1.2.3", "def456", "2026-09-01T00:00:00Z",
			"mcpsh v1.2.3\ncommit def456 (built 2026-09-01T00:00:00Z)\n"},
		{"a snapshot of the same commit keeps its changes said", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("abc123", "2026-08-20T10:11:12Z", "true")}, "v0.0.1-SNAPSHOT-abc123", "abc123", "2026-09-01T00:00:00Z",
			"mcpsh v0.0.1-SNAPSHOT-abc123\ncommit abc123 with uncommitted changes (built 2026-09-01T00:00:00Z)\n"},
		{"a date without a commit", nil, "v1.2.3", "", "2026-09-01T00:00:00Z", "mcpsh v1.2.3\nbuilt 2026-09-01T00:00:00Z\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readVersion(tt.bi, tt.version, tt.commit, tt.date).String()
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("got:\n%s\nwant it to start:\n%s", got, tt.want)
			}
		})
	}
}

// What servers are told and SARIF names: one token that traces a build back
// to its code ("dev" told them nothing).
func TestVersionShort(t *testing.T) {
	t.Parallel()
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	tests := []struct {
		name    string
		bi      *debug.BuildInfo
		version string
		want    string
	}{
		{"no build info", nil, "", "devel"},
		{"a release", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "", "v1.2.3"},
		{"link-time version wins", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v2.0.0", "v2.0.0"},
		{"a clean checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("5ead8fb0a1b2c3d4e5f6", "false")}, "", "devel+5ead8fb0a1b2"},
		{"a checkout with changes", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("abc123", "true")}, "", "devel+abc123.dirty"},
	}
	for _, tt := range tests {
		if got := readVersion(tt.bi, tt.version, "", "").short(); got != tt.want {
			t.Errorf("%s: short() = %q, want %q", tt.name, got, tt.want)
		}
	}
}
