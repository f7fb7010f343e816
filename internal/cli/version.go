package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Version, Commit and Date name a release build; goreleaser sets them with
//
//	-ldflags "-X github.com/mcpsh/mcpsh/internal/cli.Version=v1.2.3
//	          -X github.com/mcpsh/mcpsh/internal/cli.Commit=<sha>
//	          -X github.com/mcpsh/mcpsh/internal/cli.Date=<RFC 3339>"
//
// Left empty, each comes from what Go records in the binary: the module's
// version (v1.2.3 from `go install …@v1.2.3`, "(devel)" from a checkout) and,
// built in a git checkout, its commit, the commit's time and whether the tree
// had changes.
var Version, Commit, Date string

// buildVersion is what `mcpsh --version` says about the binary.
type buildVersion struct {
	version  string
	commit   string
	modified bool   // built from a tree with uncommitted changes
	date     string // RFC 3339
	dateIs   string // "built" (from -ldflags) or "committed" (the commit's time)
	goBuild  string // Go version, OS and architecture
}

// currentVersion is this binary's, read once: ReadBuildInfo parses the build
// info anew at every call, and every command asks twice (for --version and
// for the name the client gives servers).
var currentVersion = sync.OnceValue(func() buildVersion {
	bi, _ := debug.ReadBuildInfo()
	return readVersion(bi, Version, Commit, Date)
})

// readVersion merges the build info (nil when the binary has none) with the
// values set at link time, which win.
func readVersion(bi *debug.BuildInfo, version, commit, date string) buildVersion {
	v := buildVersion{version: "(devel)", goBuild: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		if bi.Main.Version != "" {
			v.version = bi.Main.Version
		}
		v.goBuild = bi.GoVersion + " " + runtime.GOOS + "/" + runtime.GOARCH
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.commit = s.Value
			case "vcs.time":
				v.date, v.dateIs = s.Value, "committed"
			case "vcs.modified":
				v.modified = s.Value == "true"
			}
		}
	}
	if version != "" {
		v.version = version
	}
	if commit != "" && commit != v.commit {
		v.commit, v.modified = commit, false
	}
	if date != "" {
		v.date, v.dateIs = date, "built"
	}
	return v
}

// short is the version as one token, what mcpsh tells servers it connects
// to and what SARIF names as the driver's version: the release, or for a
// build from a checkout "devel" with the commit, so a log can be traced to
// the code that wrote it.
func (v buildVersion) short() string {
	if v.version != "(devel)" {
		return v.version
	}
	s := "devel"
	if v.commit != "" {
		s += "+" + v.commit[:min(12, len(v.commit))]
		if v.modified {
			s += ".dirty"
		}
	}
	return s
}

// String is one line per fact, the version first, e.g.
//
//	mcpsh v1.2.3
//	commit 5ead8fb0… (committed 2026-08-20T10:11:12Z)
//	go1.26.8 linux/amd64
func (v buildVersion) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcpsh %s\n", v.version)
	if v.commit != "" {
		b.WriteString("commit " + v.commit)
		if v.modified {
			b.WriteString(" with uncommitted changes")
		}
		if v.date != "" {
			fmt.Fprintf(&b, " (%s %s)", v.dateIs, v.date)
		}
		b.WriteString("\n")
	} else if v.date != "" {
		fmt.Fprintf(&b, "%s %s\n", v.dateIs, v.date)
	}
	b.WriteString(v.goBuild + "\n")
	return b.String()
}
