package client

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tappedTransport puts the wire tap under a message-level connection. It must not
// wrap the streamable HTTP connection: that one has an unexported hook the SDK
// uses to start its event stream, which a wrapper would hide (see taphttp.go).
type tappedTransport struct {
	inner mcp.Transport
	tap   *tap
}

func (t *tappedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tappedConn{Connection: c, tap: t.tap}, nil
}

type tappedConn struct {
	mcp.Connection
	tap *tap
}

func (c *tappedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err != nil {
		return m, err
	}
	c.tap.trace.note("in", m, nil)
	return c.tap.incoming(m), nil
}

func (c *tappedConn) Write(ctx context.Context, m jsonrpc.Message) error {
	note := c.tap.outgoing(ctx, m)
	// Traced before it is written: the answer can be read, and traced, before
	// Write returns, and would then have no request to take its latency from.
	c.tap.trace.note("out", m, nil)
	// Over legacy SSE the write is a POST, whose body may have reached the
	// server even when the write fails: the transport says so in the report.
	post := &postReport{}
	err := c.Connection.Write(withPostReport(ctx, post), m)
	if err == nil {
		c.tap.delivered(note, 0, 0)
	} else if left, status, wait := post.sent(); left {
		c.tap.delivered(note, status, wait)
	}
	return err
}
