package hostedit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/config"
)

// Every edit keeps, in mcpsh's state folder and never beside the host's
// file (a project's folder is a repository's, which would pick it up):
// the whole file as it was (backups/), and a record of the entry's bytes
// before and after (records/), which --undo puts back only while the entry
// is still what mcpsh wrote, so a host's later edits elsewhere in the file
// survive, and a person's edit of the entry is never undone unasked.

// Store is mcpsh's folder for these: STATE/proxy-config.
type Store struct{ Dir string }

// NewStore is the store under mcpsh's state folder.
func NewStore(stateDir string) Store { return Store{Dir: filepath.Join(stateDir, "proxy-config")} }

// Record is what an edit changed, for --undo.
type Record struct {
	Version int         `json:"version"`
	Host    config.Host `json:"host"`
	Name    string      `json:"name"`
	File    string      `json:"file"`
	// Scope and Project say how the file is read (config.HostFile).
	Scope   config.Scope `json:"scope"`
	Project string       `json:"project,omitempty"`
	KeyPath []string     `json:"keyPath"`
	Key     string       `json:"key"`
	// Original and Written are the entry's text before and after the
	// edit; Original is "" when the edit added the entry, and Prefix and
	// Suffix are then what it added around it.
	Original string    `json:"original"`
	Written  string    `json:"written"`
	Prefix   string    `json:"prefix,omitempty"`
	Suffix   string    `json:"suffix,omitempty"`
	Backup   string    `json:"backup"`
	Time     time.Time `json:"time"`
	Mcpsh    string    `json:"mcpsh"`

	path string
}

// Path is where the record is kept.
func (r *Record) Path() string { return r.path }

// HostFile is how the record's file is read; home is the user's folder.
func (r *Record) HostFile(home string) config.HostFile {
	return config.HostFile{Host: r.Host, Scope: r.Scope, Path: r.File, Project: r.Project, Home: home}
}

// Ref is the server's HOST:NAME.
func (r *Record) Ref() string { return string(r.Host) + ":" + r.Name }

// recordID names an entry's record: the same file and key always get the
// same one, so a new edit of an entry replaces its record.
func recordID(file string, path []string) string {
	sum := sha256.Sum256([]byte(file + "\x00" + strings.Join(path, "\x00")))
	return hex.EncodeToString(sum[:8])
}

// Backup keeps the file as it was before p, before the file is written,
// and returns the record of p's entry, for Keep to keep once the file is
// written: a record is kept only of an edit that was made, so a write
// that fails leaves the records as they were. f is how the file is read,
// version mcpsh's.
func (st Store) Backup(p *Plan, f config.HostFile, version string, now time.Time) (*Record, error) {
	backups, records := filepath.Join(st.Dir, "backups"), filepath.Join(st.Dir, "records")
	for _, d := range []string{backups, records} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	ext := filepath.Ext(p.File)
	base := fmt.Sprintf("%s-%s-%s", p.Host, fileWord(p.Name()), now.UTC().Format("20060102T150405.000Z"))
	var backup string
	for i := 0; ; i++ {
		backup = filepath.Join(backups, base+ext)
		if i > 0 {
			backup = filepath.Join(backups, fmt.Sprintf("%s-%d%s", base, i, ext))
		}
		f, err := os.OpenFile(backup, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return nil, err
		}
		_, err = f.Write(p.Old)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		break
	}
	r := &Record{Version: 1, Host: p.Host, Name: p.Name(), File: p.File, Scope: f.Scope, Project: f.Project, KeyPath: p.Path, Key: p.Key(),
		Original: string(p.Original), Written: string(p.Written), Prefix: string(p.Prefix), Suffix: string(p.Suffix),
		Backup: backup, Time: now.UTC(), Mcpsh: version,
		path: filepath.Join(records, recordID(p.File, p.Path)+".json")}
	return r, nil
}

// Keep keeps the record of an edit made, replacing the entry's last.
func (st Store) Keep(r *Record) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(r.path, append(data, '\n'))
}

// writeAtomic writes a file of mcpsh's own (0600) in one rename.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".record-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// fileWord makes a server's name safe in a file's name.
func fileWord(s string) string {
	out := []rune(s)
	for i, r := range out {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			out[i] = '_'
		}
	}
	if len(out) > 64 {
		out = out[:64]
	}
	return string(out)
}

// Find is every record of the server host:name, newest first. A record
// that cannot be read is skipped: it names no entry mcpsh could restore.
func (st Store) Find(host config.Host, name string) ([]*Record, error) {
	dir := filepath.Join(st.Dir, "records")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*Record
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		r := &Record{}
		if json.Unmarshal(data, r) != nil || r.Version != 1 || r.Host != host || r.Name != name || len(r.KeyPath) == 0 {
			continue
		}
		r.path = path
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *Record) int { return b.Time.Compare(a.Time) })
	return out, nil
}

// Remove deletes the record once its edit is undone; the backup stays.
func (st Store) Remove(r *Record) error { return os.Remove(r.path) }

// ChangedError is --undo's refusal: the entry is no longer what mcpsh
// wrote, and putting the original back would undo someone's edit.
type ChangedError struct {
	File, Key, Record, Backup string
	// Gone: the entry is not in the file at all.
	Gone bool
}

func (e *ChangedError) Error() string {
	what := "changed since mcpsh wrote it"
	if e.Gone {
		what = "is gone since mcpsh wrote it"
	}
	return fmt.Sprintf("%s: %s %s; nothing written. The original entry is in %s, the whole file before the edit in %s (--force puts the original back anyway)",
		e.File, e.Key, what, e.Record, e.Backup)
}

// Undo puts back in data (the file's text now) the entry r's edit
// replaced, or takes out the entry it added, only while the entry is what
// mcpsh wrote, unless force.
func Undo(r *Record, data []byte, force bool) (*Plan, error) {
	changed := &ChangedError{File: r.File, Key: r.Key, Record: r.path, Backup: r.Backup}
	p := &Plan{Host: r.Host, File: r.File, Path: r.KeyPath, Old: data, Original: []byte(r.Written), Written: []byte(r.Original)}
	var start, end int
	var m config.Member
	if r.Host == config.HostCodex {
		te, err := locateCodex(r.File, data, r.Name)
		if errors.Is(err, config.ErrNoEntry) {
			changed.Gone = true
			return nil, changed
		}
		if err != nil {
			return nil, err
		}
		start, end = te.start, te.end
	} else {
		var err error
		m, err = config.EntrySpan(r.File, data, r.KeyPath)
		if errors.Is(err, config.ErrNoEntry) {
			changed.Gone = true
			return nil, changed
		}
		if err != nil {
			return nil, err
		}
		start, end = m.Start, m.End
	}
	now := data[start:end]
	if !bytes.Equal(now, []byte(r.Written)) {
		if !force {
			return nil, changed
		}
		p.Original = bytes.Clone(now)
	}
	p.Start, p.Indent = start, lineIndent(data, start)
	switch {
	case r.Original != "":
		p.New = splice(data, start, end, []byte(r.Original))
	case bytes.HasSuffix(data[:start], []byte(r.Prefix)) && bytes.HasPrefix(data[end:], []byte(r.Suffix)):
		// What was added comes out whole, objects made for it included.
		p.Start = start - len(r.Prefix)
		p.New = splice(data, p.Start, end+len(r.Suffix), nil)
	default:
		// The file was rewritten around it (Claude Code keeps ~/.claude.json
		// in its own layout): the member alone comes out.
		var err error
		if p.New, err = dropMember(r.File, data, r.KeyPath, m); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// dropMember takes the member m at path out of its object, with its comma.
func dropMember(file string, data []byte, path []string, m config.Member) ([]byte, error) {
	clean, err := config.StripJSONC(file, data)
	if err != nil {
		return nil, err
	}
	parent := 0
	if len(path) > 1 {
		pm, err := config.EntrySpan(file, data, path[:len(path)-1])
		if err != nil {
			return nil, err
		}
		parent = pm.Start
	}
	ms, objEnd, err := config.Members(clean, parent)
	if err != nil {
		return nil, &config.Error{File: file, Key: config.KeyString(path[:len(path)-1]), Msg: err.Error()}
	}
	k := slices.IndexFunc(ms, func(x config.Member) bool { return x.NameStart == m.NameStart })
	switch {
	case k < 0:
		return nil, &config.Error{File: file, Key: config.KeyString(path), Msg: "not found in its object"}
	case k+1 < len(ms):
		return splice(data, ms[k].NameStart, ms[k+1].NameStart, nil), nil
	case k > 0:
		return splice(data, ms[k-1].End, ms[k].End, nil), nil
	}
	// The only member: the object is left empty, as Claude Code writes one.
	open := bytes.IndexByte(clean[parent:], '{') + parent
	return splice(data, open+1, objEnd-1, nil), nil
}
