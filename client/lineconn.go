package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// lineConn is the mcp.Connection of a stdio server, in place of go-sdk's
// IOTransport. stdoutReader already cuts the server's stdout into whole,
// valid, bounded JSON lines, so each line is decoded once, where go-sdk's
// connection scans it again to find where it ends and decodes it twice (as
// a batch, then as a message): per call that was about a tenth of mcpsh's own
// CPU. It also answers batches right: go-sdk v1.8.0 counts a notification in
// a batch as a request still to answer, so the answer to a batch holding a
// notification never leaves (TestBatchFromAStdioServer).
//
// Batches are read whatever protocol version was agreed (go-sdk refuses them
// from 2025-06-18 on only when it knows the version, which it never did under
// the wire tap): reading one costs mcpsh nothing, and refusing one would end
// the session.
type lineConn struct {
	w     io.Writer
	close func() error

	incoming chan decoded
	closed   chan struct{}
	once     sync.Once
	closeErr error

	queue []jsonrpc.Message // the rest of the last batch read; reads are serial

	// injected are answers mcpsh gives in the server's place (inject);
	// superseded are the requests they answer, by ID, whose own answers,
	// should the server send them after all, are dropped and told of.
	injected   chan jsonrpc.Message
	supersedMu sync.Mutex
	superseded map[string]func()

	writeMu sync.Mutex
	batchMu sync.Mutex
	batches map[jsonrpc.ID]*inBatch // requests of a batch still unanswered
}

// decoded is one line of the server's stdout, decoded.
type decoded struct {
	msgs  []jsonrpc.Message
	batch bool
	err   error
}

// inBatch is a batch of requests from the server: the answers go back
// together, in the order of the requests, once all are answered.
type inBatch struct {
	unanswered map[jsonrpc.ID]int
	answers    []*jsonrpc.Response
}

// newLineConn reads lines from r and writes to w; closeFn ends both.
func newLineConn(r *stdoutReader, w io.Writer, closeFn func() error) *lineConn {
	c := &lineConn{w: w, close: closeFn, incoming: make(chan decoded), closed: make(chan struct{}),
		injected: make(chan jsonrpc.Message, 1), superseded: map[string]func(){}}
	// Reading in a goroutine lets Read select on Close: a pipe's read is not
	// unblocked by closing it everywhere (Windows).
	go func() {
		for {
			line, err := r.nextLine()
			var d decoded
			if err != nil {
				d.err = err
			} else {
				// Decoded here, before the next line reuses the buffer; the
				// messages hold copies of what they keep.
				d.msgs, d.batch, d.err = decodeLine(line)
				if d.err != nil && notJSONRPC(line) {
					// A JSON log line (pino, zap…) on stdout: noise, as a
					// banner is, not the end of the session.
					r.noise("skipped a JSON line on the server's stdout that is not a JSON-RPC message: " +
						termtext.Truncate(termtext.Line(string(line)), 200))
					continue
				}
			}
			select {
			case c.incoming <- d:
			case <-c.closed:
				// A server writing on its way out must neither block on a
				// full pipe nor die of a closed one.
				r.drain()
				return
			}
			if d.err != nil {
				return
			}
		}
	}()
	return c
}

// maxBatch is the most messages mcpsh reads in one batch.
const maxBatch = 10_000

// notJSONRPC reports a line that is a JSON object without the "jsonrpc"
// member every JSON-RPC 2.0 message has. One that has it and fails to
// decode is a broken message, which still ends the session.
func notJSONRPC(line []byte) bool {
	var m map[string]json.RawMessage
	if line[0] != '{' || json.Unmarshal(line, &m) != nil {
		return false
	}
	_, ok := m["jsonrpc"]
	return !ok
}

func decodeLine(line []byte) ([]jsonrpc.Message, bool, error) {
	if line[0] != '[' {
		m, err := jsonrpc.DecodeMessage(line)
		return []jsonrpc.Message{m}, false, err
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(line, &raws); err != nil {
		return nil, true, fmt.Errorf("reading a batch: %w", err)
	}
	if len(raws) == 0 {
		return nil, true, errors.New("the server sent an empty batch")
	}
	if len(raws) > maxBatch {
		// Each request of a batch is tracked, and its answer held, until
		// the whole batch is answered: a line of 32 MiB could hold a
		// million of them.
		return nil, true, fmt.Errorf("the server sent a batch of %d messages, more than the %d mcpsh reads", len(raws), maxBatch)
	}
	msgs := make([]jsonrpc.Message, 0, len(raws))
	for _, raw := range raws {
		m, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			return nil, true, err
		}
		msgs = append(msgs, m)
	}
	return msgs, true, nil
}

func (c *lineConn) SessionID() string { return "" }

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for len(c.queue) == 0 {
		var d decoded
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case m := <-c.injected:
			return m, nil
		case d = <-c.incoming:
		}
		if d.err != nil {
			return nil, d.err
		}
		msgs := c.dropSuperseded(d.msgs)
		if d.batch {
			if err := c.track(msgs); err != nil {
				return nil, err
			}
		}
		c.queue = msgs
	}
	m := c.queue[0]
	c.queue = c.queue[1:]
	return m, nil
}

// inject hands Read m, an answer to request id that mcpsh gives in the
// server's place (protocol.go: a server/discover the server leaves
// unanswered). Should the server answer id after all, its answer is
// dropped and late is called.
func (c *lineConn) inject(m jsonrpc.Message, id string, late func()) {
	c.supersedMu.Lock()
	c.superseded[id] = late
	c.supersedMu.Unlock()
	select {
	case c.injected <- m:
	default: // one at a time: only the probe injects, once
	}
}

// dropSuperseded takes out the answers to requests mcpsh has answered itself.
func (c *lineConn) dropSuperseded(msgs []jsonrpc.Message) []jsonrpc.Message {
	c.supersedMu.Lock()
	defer c.supersedMu.Unlock()
	if len(c.superseded) == 0 {
		return msgs
	}
	out := msgs[:0:0]
	for _, m := range msgs {
		if r, ok := m.(*jsonrpc.Response); ok {
			if late, ok := c.superseded[idKey(r.ID)]; ok {
				delete(c.superseded, idKey(r.ID))
				late()
				continue
			}
		}
		out = append(out, m)
	}
	return out
}

// track notes the requests of a batch (not its notifications, which have no
// answer), so their answers leave together.
func (c *lineConn) track(msgs []jsonrpc.Message) error {
	b := &inBatch{unanswered: map[jsonrpc.ID]int{}}
	for _, m := range msgs {
		req, ok := m.(*jsonrpc.Request)
		if !ok || !req.IsCall() {
			continue
		}
		if _, dup := b.unanswered[req.ID]; dup {
			return fmt.Errorf("the server's batch repeats the request ID %s", termtext.Truncate(termtext.Line(idKey(req.ID)), 60))
		}
		b.unanswered[req.ID] = len(b.answers)
		b.answers = append(b.answers, nil)
	}
	if len(b.answers) == 0 {
		return nil
	}
	c.batchMu.Lock()
	defer c.batchMu.Unlock()
	for id := range b.unanswered {
		if _, seen := c.batches[id]; seen {
			return fmt.Errorf("the server's batch repeats the request ID %s of one still unanswered", termtext.Truncate(termtext.Line(idKey(id)), 60))
		}
	}
	if c.batches == nil {
		c.batches = map[jsonrpc.ID]*inBatch{}
	}
	for id := range b.unanswered {
		c.batches[id] = b
	}
	return nil
}

// answered records resp if it answers a request of a batch. inBatch is false
// when it does not; all is the whole batch's answers once resp completes it.
func (c *lineConn) answered(resp *jsonrpc.Response) (all []*jsonrpc.Response, inBatch bool) {
	c.batchMu.Lock()
	defer c.batchMu.Unlock()
	b, ok := c.batches[resp.ID]
	if !ok {
		return nil, false
	}
	b.answers[b.unanswered[resp.ID]] = resp
	delete(b.unanswered, resp.ID)
	delete(c.batches, resp.ID)
	if len(b.unanswered) > 0 {
		return nil, true
	}
	return b.answers, true
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if all, ok := c.answered(resp); ok {
			if all == nil {
				return nil
			}
			var buf bytes.Buffer
			buf.WriteByte('[')
			for i, a := range all {
				b, err := jsonrpc.EncodeMessage(a)
				if err != nil {
					return fmt.Errorf("encoding a batch's answer: %w", err)
				}
				if i > 0 {
					buf.WriteByte(',')
				}
				buf.Write(b)
			}
			buf.WriteString("]\n")
			_, err := c.w.Write(buf.Bytes())
			return err
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	_, err = c.w.Write(append(data, '\n'))
	return err
}

func (c *lineConn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		c.closeErr = c.close()
	})
	return c.closeErr
}
