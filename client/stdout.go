package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mcpsh/mcpsh/internal/jsonscan"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// stdoutReader stands between a stdio server's stdout and the connection
// that decodes its newline-delimited JSON-RPC (lineconn.go). Servers print banners there ("Starting
// server..."), which would end the session with "invalid character 'S'", and
// a hostile one may write a line that never ends. So each line is judged on
// its own: JSON goes on, anything else is skipped with a warning that shows
// it, a line that starts like JSON but does not parse ends the session with a
// message that says so, and no line is held beyond maxAnswerBytes.
type stdoutReader struct {
	src io.Closer
	in  *bufio.Reader
	out []byte // the line being handed on, without its newline
	err error
	// line is the buffer the next line is read into: out is a part of it,
	// and the next line is read only once out has been taken.
	line []byte
	tap  *tap
	warn func(string)

	skipped int
	mu      sync.Mutex
	broken  error // why the stream was ended, for the server's death notice
}

func newStdoutReader(src io.ReadCloser, t *tap, warn func(string)) *stdoutReader {
	return &stdoutReader{src: src, in: bufio.NewReaderSize(src, 64<<10), tap: t, warn: warn}
}

// maxNoiseWarnings bounds the warnings about skipped lines: a chatty server
// must not bury everything else.
const maxNoiseWarnings = 20

// nextLine returns the next message line, without its newline. It is valid
// until the next call.
func (r *stdoutReader) nextLine() ([]byte, error) {
	for len(r.out) == 0 && r.err == nil {
		r.err = r.next()
	}
	if len(r.out) > 0 {
		line := r.out
		r.out = nil
		return line, nil
	}
	return nil, r.err
}

// drain reads to the end of the stream, dropping what comes without a
// word: what a server writes on its way out, once nobody listens.
func (r *stdoutReader) drain() {
	r.warn = nil
	for r.err == nil {
		r.out = nil
		r.err = r.next()
	}
}

func (r *stdoutReader) Close() error { return r.src.Close() }

// brokenBy says why the stream was ended, or nil.
func (r *stdoutReader) brokenBy() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.broken
}

// keepLineBuf is the largest line buffer kept for the next line: one huge
// answer must not hold its memory for the rest of the session.
const keepLineBuf = 1 << 20

func (r *stdoutReader) next() error {
	line, head, tail, err := readLineCapped(r.in, maxAnswerBytes, r.line[:0])
	if r.line = line; cap(line) > keepLineBuf {
		r.line = nil
	}
	switch body := bytes.TrimSpace(line); {
	case head != nil:
		if sub, ok := r.tap.refuseAnswer(sniffID(head, tail), errAnswerTooLarge); ok {
			r.out = sub
		} else {
			r.noise("skipped a message larger than 32 MiB (mcpsh's limit) that answers none of mcpsh's calls")
		}
	case len(body) == 0:
	case body[0] == '{' || body[0] == '[':
		if !json.Valid(body) {
			r.mu.Lock()
			r.broken = fmt.Errorf("the server wrote a broken JSON-RPC message on stdout (cut short?): %s",
				termtext.Truncate(termtext.Line(string(body)), 120))
			r.mu.Unlock()
			return r.broken
		}
		// Nesting deeper than maxNesting takes more opening brackets than a
		// shorter line has, so the scan is for long lines only.
		if len(body) > maxNesting && jsonscan.NestsDeeper(body, maxNesting) {
			// go-sdk refuses such a message and ends the session with it.
			if sub, ok := r.tap.refuseAnswer(sniffID(body[:min(len(body), sniffKeep)], body[max(len(body)-sniffKeep, 0):]), errAnswerTooDeep); ok {
				r.out = sub
			} else {
				r.noise("skipped a message nested more than 1000 levels deep that answers none of mcpsh's calls")
			}
			return err
		}
		r.out = body
	default:
		r.noise("skipped a line on the server's stdout that is not JSON-RPC: " +
			termtext.Truncate(termtext.Line(string(body)), 200))
	}
	return err
}

func (r *stdoutReader) noise(msg string) {
	r.skipped++
	switch {
	case r.warn == nil || r.skipped > maxNoiseWarnings+1:
	case r.skipped == maxNoiseWarnings+1:
		r.warn("the server keeps writing other things than JSON-RPC on stdout; further lines are skipped without a warning")
	default:
		r.warn(msg)
	}
}

// maxNesting is go-sdk's limit on the nesting of a message (internal/json's
// defaultMaxDepth), past which it refuses the message and ends the session.
const maxNesting = 1000

var errAnswerTooDeep = errors.New("the server's answer is nested more than 1000 levels deep, more than mcpsh reads")

// sniffKeep is how much of the start and end of an oversized line is kept to
// find its request ID.
const sniffKeep = 4 << 10

// readLineCapped reads one line, appending it to buf. A line longer than
// limit is read to its end and dropped; only its first and last sniffKeep
// bytes are returned (head, tail), so memory stays bounded whatever the
// server writes.
func readLineCapped(in *bufio.Reader, limit int, buf []byte) (line, head, tail []byte, err error) {
	n := 0
	line = buf
	for {
		frag, ferr := in.ReadSlice('\n')
		n += len(frag)
		switch {
		case head == nil && n <= limit:
			line = append(line, frag...)
		case head == nil:
			line = append(line, frag...)
			head = append([]byte(nil), line[:min(len(line), sniffKeep)]...)
			tail = append([]byte(nil), line[max(len(line)-sniffKeep, 0):]...)
			line = nil
		default:
			tail = append(tail, frag...)
			tail = append([]byte(nil), tail[max(len(tail)-sniffKeep, 0):]...)
		}
		if ferr == bufio.ErrBufferFull {
			continue
		}
		return line, head, tail, ferr
	}
}

// The patterns are compiled when a message first is too large to parse, not
// at every start-up.
var (
	leadingID  = lazyRegexp(`^\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"]*"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`)
	trailingID = lazyRegexp(`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$`)
)

// sniffID finds the request ID of a message too large to parse, from its
// start or its end, where JSON-RPC encoders put it. Only the top-level
// position counts: an "id" inside the result must not be taken for it.
func sniffID(head, tail []byte) string {
	if m := leadingID().FindSubmatch(head); m != nil {
		return rawIDKey(m[1])
	}
	if m := trailingID().FindSubmatch(tail); m != nil {
		return rawIDKey(m[1])
	}
	return ""
}
