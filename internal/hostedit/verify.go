package hostedit

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/mcpsh/mcpsh/config"
)

// Before anything is written, the file is read before and after the edit
// with the host's own parser (config.ReadHostFile, as discovery reads it):
// every server but the edited one must come back the same, and the edited
// one must be what the edit meant. A splice that went wrong, or a file that
// means something else once edited, is caught here, not in the host.

// CheckEnv gives every variable a value of its own, so that the same text
// reads the same before and after whatever the environment holds, and a
// reference is compared as what it stands for, not dropped for being unset.
// A server an entry must stand for is read with it too.
func CheckEnv(name string) (string, bool) { return "mcpsh-check-" + name, true }

// Expect says what the edited entry must read as: before and after are the
// server at the entry's path in the old and new text (nil where there is
// none). It returns what is wrong.
type Expect func(before, after *config.Server) error

// Wrapped expects the entry to run mcpsh proxy for the server want: for an
// added entry the one it stands in for; nil for the one it was.
func Wrapped(want *config.Server) Expect {
	return func(before, after *config.Server) error {
		if want == nil {
			want = before
		}
		switch {
		case after == nil:
			return fmt.Errorf("it is gone")
		case !after.Proxied:
			return fmt.Errorf("it does not read as a mcpsh proxy entry")
		case after.Err != nil && (want == nil || want.Err == nil):
			return fmt.Errorf("it reads as broken: %v", after.Err)
		case want != nil && !SameTarget(want, after):
			return fmt.Errorf("it does not reach the same server")
		}
		return nil
	}
}

// Unwrapped expects the entry, proxied before, to be the server itself
// again (reaching the same server unless forced), or gone when the edit
// had added it.
func Unwrapped(added, forced bool) Expect {
	return func(before, after *config.Server) error {
		switch {
		case added && after != nil:
			return fmt.Errorf("it is still there")
		case added:
			return nil
		case after == nil:
			return fmt.Errorf("it is gone")
		case after.Proxied:
			return fmt.Errorf("it still runs mcpsh proxy")
		case !forced && before != nil && !SameTarget(before, after):
			return fmt.Errorf("it does not reach the same server")
		}
		return nil
	}
}

// Check reads p's file before and after with the host's parser (f says
// which file it is) and refuses the edit unless every other server reads
// the same and the entry is what want says.
func Check(f config.HostFile, p *Plan, want Expect) error {
	before, err := config.ReadHostFile(f, p.Old, CheckEnv)
	if err != nil {
		return err
	}
	after, err := config.ReadHostFile(f, p.New, CheckEnv)
	if err != nil {
		return fmt.Errorf("mcpsh's edit of %s would break it (%v); nothing written", p.File, err)
	}
	project := f.Project
	if len(p.Path) == 4 && p.Path[0] == "projects" {
		project = filepath.FromSlash(p.Path[1])
	}
	isEntry := func(s *config.Server) bool { return s.Name == p.Name() && s.Origin.Project == project }
	take := func(all []*config.Server) (*config.Server, []*config.Server) {
		var entry *config.Server
		var rest []*config.Server
		for _, s := range all {
			if isEntry(s) && entry == nil {
				entry = s
			} else {
				rest = append(rest, s)
			}
		}
		return entry, rest
	}
	be, bo := take(before)
	ae, ao := take(after)
	if len(bo) != len(ao) {
		return fmt.Errorf("mcpsh's edit of %s would change more than %s (%d other servers before, %d after); nothing written", p.File, p.Key(), len(bo), len(ao))
	}
	for i := range bo {
		if !sameServer(bo[i], ao[i]) {
			return fmt.Errorf("mcpsh's edit of %s would change more than %s (%s reads differently); nothing written", p.File, p.Key(), ao[i].Key)
		}
	}
	if err := want(be, ae); err != nil {
		return fmt.Errorf("mcpsh's edit of %s would leave %s wrong (%v); nothing written", p.File, p.Key(), err)
	}
	return nil
}

// SameTarget reports whether a and b reach the same server the same way:
// the same process with the same environment and folder, or the same URL
// with the same headers, held back alike, with the same call timeout.
func SameTarget(a, b *config.Server) bool {
	return a.Transport == b.Transport && a.Command == b.Command && slices.Equal(a.Args, b.Args) &&
		sameMap(a.Env, b.Env) && a.Cwd == b.Cwd && a.URL == b.URL && sameMap(a.Headers, b.Headers) &&
		a.Origin.Held == b.Origin.Held && a.Timeout == b.Timeout && (a.Err == nil) == (b.Err == nil)
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// sameServer reports whether a and b read the same in every field, their
// problems by their text.
func sameServer(a, b *config.Server) bool {
	if (a.Err == nil) != (b.Err == nil) || a.Err != nil && a.Err.Error() != b.Err.Error() {
		return false
	}
	x, y := *a, *b
	x.Err, y.Err = nil, nil
	return reflect.DeepEqual(x, y)
}
