package console

import (
	"encoding/json"
	"sync"
)

// QueueLimit is how many call events wait for a console before the next
// ones are dropped (and counted).
const QueueLimit = 1024

// outMsg is a message on its way, marshalled once for every console.
type outMsg struct {
	m    *Message
	once sync.Once
	b    []byte
}

func newOut(m *Message) *outMsg { return &outMsg{m: m} }

func (o *outMsg) bytes() []byte {
	o.once.Do(func() {
		o.b, _ = json.Marshal(o.m)
		o.b = append(o.b, '\n')
	})
	return o.b
}

// outbox is what waits for one console, in order. Pushing never blocks:
// call events past the limit are dropped and counted; the rest (hellos,
// questions, closings) always wait their turn.
type outbox struct {
	mu      sync.Mutex
	items   []*outMsg
	events  int // droppable items in items
	dropped int
	lost    int64 // every event dropped, for benchmarks
	limit   int
	closed  bool
	wake    chan struct{}
}

func newOutbox(limit int) *outbox {
	return &outbox{limit: limit, wake: make(chan struct{}, 1)}
}

// push queues m; a droppable one is dropped when the limit is reached.
func (b *outbox) push(m *outMsg, droppable bool) {
	b.mu.Lock()
	switch {
	case b.closed:
	case droppable && b.events >= b.limit:
		b.dropped++
		b.lost++
	default:
		b.items = append(b.items, m)
		if droppable {
			b.events++
		}
	}
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// take waits for what is queued and takes it all; once the queue is
// empty, the count of what was dropped follows (the console has caught
// up). ok is false once the outbox is closed.
func (b *outbox) take(done <-chan struct{}) (items []*outMsg, dropped int, ok bool) {
	for {
		b.mu.Lock()
		if b.closed {
			b.mu.Unlock()
			return nil, 0, false
		}
		if len(b.items) > 0 || b.dropped > 0 {
			items, b.items, b.events = b.items, nil, 0
			dropped, b.dropped = b.dropped, 0
			b.mu.Unlock()
			return items, dropped, true
		}
		b.mu.Unlock()
		select {
		case <-b.wake:
		case <-done:
			return nil, 0, false
		}
	}
}

func (b *outbox) close() {
	b.mu.Lock()
	b.closed, b.items = true, nil
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}
