package sessionlog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"time"
)

// Follower tails session logs as they are written: every session in a
// folder, those that start after it does included, or one file. It is polled
// (Poll), so it needs nothing from the platform but reading files.
//
// A line still being written is held until its newline arrives: a poll that
// lands in the middle of a write sees a partial line, which is not yet a
// broken one. A line that is broken once it is whole (a writer killed
// mid-line, whose file the next writer went on with) is a warning naming the
// file and the line, as Read gives.
type Follower struct {
	dir  string
	only string // one file, when set
	// filter selects the entries Poll returns.
	filter Filter
	files  map[string]*tailed
	polls  int
	now    func() time.Time
}

// tailed is one followed file.
type tailed struct {
	id   string
	path string
	off  int64 // read up to here
	// lines counts the lines read; -1 when the follower started past the
	// beginning, at base, and has not needed to count the lines before it yet.
	lines   int
	base    int64
	partial []byte // a line read without its newline
	// mtime is the file's as last read; zero until it is first read, so a
	// new file is read at the next poll however old it is.
	mtime time.Time
}

// Followed is what one poll found: the entries that pass the filter, in the
// order their files were written, and warnings naming file and line.
type Followed struct {
	Entries  []Entry
	Warnings []string
}

// quietAfter is how long a file may go unwritten before the follower looks at
// it only every sweepEvery polls: a folder of thousands of finished
// sessions costs a directory listing per poll, not a stat per file.
const (
	quietAfter = 10 * time.Minute
	sweepEvery = 20
)

// FollowDir follows every session log in dir, and the ones that appear later.
// Files that exist already are followed from their end, unless from says
// where to start: a session written since from is read from its beginning
// (and the filter's Since drops what is older).
func FollowDir(dir string, f Filter, from time.Time) (*Follower, error) {
	fl := &Follower{dir: dir, filter: f, files: map[string]*tailed{}, now: time.Now}
	ss, err := Sessions(dir)
	if err != nil {
		return nil, err
	}
	for _, s := range ss {
		fl.files[s.Path] = fl.startAt(s.ID, s.Path, from)
	}
	return fl, nil
}

// FollowFile follows one log, from its beginning when fromStart, else from
// its end.
func FollowFile(path string, f Filter, fromStart bool) (*Follower, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	fl := &Follower{only: path, filter: f, files: map[string]*tailed{}, now: time.Now}
	from := time.Time{}
	if fromStart {
		from = time.Unix(0, 0)
	}
	fl.files[path] = fl.startAt(IDOf(path), path, from)
	return fl, nil
}

// Files is how many files are followed.
func (fl *Follower) Files() int { return len(fl.files) }

// startAt positions a file that exists as the follower starts: at the
// beginning if it was written since from, else after its last whole line.
func (fl *Follower) startAt(id, path string, from time.Time) *tailed {
	t := &tailed{id: id, path: path}
	fi, err := os.Stat(path)
	if err != nil || (!from.IsZero() && !fi.ModTime().Before(from)) {
		return t
	}
	t.mtime = fi.ModTime()
	t.off = lastLineEnd(path, fi.Size())
	t.base, t.lines = t.off, -1
	return t
}

// lastLineEnd is the offset just after the last newline in the file's first
// size bytes, so a line being written as the follower starts is read whole.
func lastLineEnd(path string, size int64) int64 {
	f, err := os.Open(path)
	if err != nil {
		return size
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(0, end-int64(len(buf)))
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && !errors.Is(err, io.EOF) {
			return size
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1
		}
		end = start
	}
	return 0
}

// Poll reads what was appended since the last poll, and starts following
// the sessions that appeared since.
func (fl *Follower) Poll() Followed {
	var out Followed
	fl.polls++
	sweep := fl.polls%sweepEvery == 0
	if fl.only == "" {
		ss, err := Sessions(fl.dir)
		if err != nil {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s: %v", fl.dir, err))
		}
		seen := make(map[string]bool, len(ss))
		for _, s := range ss {
			seen[s.Path] = true
			if fl.files[s.Path] == nil {
				// Created since the last poll: all of it is new.
				fl.files[s.Path] = &tailed{id: s.ID, path: s.Path}
			}
		}
		for p := range fl.files {
			if !seen[p] {
				delete(fl.files, p) // pruned
			}
		}
	}
	paths := make([]string, 0, len(fl.files))
	for p := range fl.files {
		paths = append(paths, p)
	}
	slices.Sort(paths) // oldest session first: the order things happened
	now := fl.now()
	for _, p := range paths {
		t := fl.files[p]
		if !sweep && !t.mtime.IsZero() && now.Sub(t.mtime) > quietAfter {
			continue
		}
		fl.read(t, &out)
	}
	return out
}

// read takes what was appended to t since the last read.
func (fl *Follower) read(t *tailed, out *Followed) {
	f, err := os.Open(t.path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s: %v", t.path, err))
		}
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return
	}
	t.mtime = fi.ModTime()
	if fi.Size() < t.off {
		// The file was replaced by a shorter one: start it again.
		t.off, t.lines, t.partial = 0, 0, nil
	}
	if fi.Size() == t.off {
		return
	}
	buf := make([]byte, fi.Size()-t.off)
	n, err := f.ReadAt(buf, t.off)
	if err != nil && !errors.Is(err, io.EOF) {
		out.Warnings = append(out.Warnings, fmt.Sprintf("%s: %v", t.path, err))
		return
	}
	buf = buf[:n]
	t.off += int64(n)
	data := append(t.partial, buf...)
	t.partial = nil
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			if len(data) > 0 {
				t.partial = append([]byte(nil), data...)
			}
			return
		}
		line := data[:i+1]
		data = data[i+1:]
		n := fl.lineNumber(t)
		e, warning, ok := parseLine(n, line, true)
		switch {
		case ok:
			if e.Session == "" {
				e.Session = t.id
			}
			if fl.filter.Match(e) {
				out.Entries = append(out.Entries, e)
			}
		case warning != "":
			out.Warnings = append(out.Warnings, t.path+": "+warning)
		}
	}
}

// lineNumber counts the line about to be parsed, counting the lines before
// the follower's starting point only the first time one is needed.
func (fl *Follower) lineNumber(t *tailed) int {
	if t.lines < 0 {
		t.lines = countLinesBefore(t.path, t.base)
	}
	t.lines++
	return t.lines
}

func countLinesBefore(path string, off int64) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	buf := make([]byte, 64<<10)
	for read := int64(0); read < off; {
		m, err := f.ReadAt(buf[:min(int64(len(buf)), off-read)], read)
		n += bytes.Count(buf[:m], []byte{'\n'})
		read += int64(m)
		if err != nil {
			break
		}
	}
	return n
}
