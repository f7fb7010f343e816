package client

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// sseRewriter rewrites the data of each server-sent event as it streams, so
// progress notifications still arrive while a call runs. It never holds more
// than maxAnswerBytes of one event: a line that never ends is cut off while
// it is being read, not after.
type sseRewriter struct {
	src     io.Closer
	in      *bufio.Reader
	out     bytes.Buffer
	err     error
	rewrite func([]byte) []byte
	tap     *tap
	// callID is the request a POST stream answers; "" on a GET stream.
	callID string
}

func (r *sseRewriter) Read(p []byte) (int, error) {
	for r.out.Len() == 0 && r.err == nil {
		r.err = r.nextEvent()
	}
	if r.out.Len() > 0 {
		return r.out.Read(p)
	}
	return 0, r.err
}

func (r *sseRewriter) Close() error { return r.src.Close() }

// nextEvent reads lines up to a blank line and writes the event to r.out, with
// its data rewritten when the tap changed it.
func (r *sseRewriter) nextEvent() error {
	var lines [][]byte
	var data [][]byte
	size := 0
	for {
		line, err := readLineLimited(r.in, maxAnswerBytes-size)
		if errors.Is(err, errAnswerTooLarge) {
			return r.tooLarge(data)
		}
		size += len(line)
		if len(line) > 0 {
			lines = append(lines, line)
			body := bytes.TrimRight(line, "\r\n")
			if v, ok := bytes.CutPrefix(body, []byte("data:")); ok {
				data = append(data, bytes.TrimPrefix(v, []byte(" ")))
			}
			if len(body) == 0 {
				break
			}
		}
		if err != nil {
			r.flush(lines, data)
			return err
		}
	}
	r.flush(lines, data)
	return nil
}

// tooLarge ends the stream after an event larger than mcpsh accepts. When the
// event answers one of mcpsh's calls, an error answer takes its place, so the
// call fails at once and says why, instead of waiting for its timeout.
func (r *sseRewriter) tooLarge(data [][]byte) error {
	id := r.callID
	if id == "" {
		id = sniffID(bytes.Join(data, nil), nil)
	}
	if sub, ok := r.tap.refuseAnswer(id, errAnswerTooLarge); ok && id != "" {
		r.out.WriteString("event: message\ndata: ")
		r.out.Write(sub)
		r.out.WriteString("\n\n")
		return io.EOF
	}
	return errAnswerTooLarge
}

// readLineLimited reads one line, '\n' included, and fails with
// errAnswerTooLarge as soon as it would hold more than limit bytes.
func readLineLimited(in *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		frag, err := in.ReadSlice('\n')
		if len(line)+len(frag) > limit {
			return nil, errAnswerTooLarge
		}
		line = append(line, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}

func (r *sseRewriter) flush(lines, data [][]byte) {
	if len(data) > 0 {
		joined := bytes.Join(data, []byte("\n"))
		if out := r.rewrite(joined); !bytes.Equal(out, joined) {
			// The rewritten message takes the place of the first data line.
			wrote := false
			for _, l := range lines {
				if !bytes.HasPrefix(l, []byte("data:")) {
					r.out.Write(l)
				} else if !wrote {
					r.out.WriteString("data: ")
					r.out.Write(out)
					r.out.WriteString("\n")
					wrote = true
				}
			}
			return
		}
	}
	for _, l := range lines {
		r.out.Write(l)
	}
}
