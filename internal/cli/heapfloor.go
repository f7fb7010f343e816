package cli

import "sync"

// A batch of quick calls makes garbage at go-sdk's pace, not mcpsh's: go-sdk
// decodes each message it reads through a streaming decoder that allocates
// 32 KB, four times a call, so a read-only call leaves about 140 KB behind.
// Go collects when the heap has doubled since the last collection, from a
// first goal of 4 MB, and every collection scans everything mcpsh keeps
// alive, its packages' tables included, which a bare go-sdk client does not
// have. A script of 500 read-only calls ran 37 collections, 40% of mcpsh's CPU
// (internal/bench/compare.sh; GODEBUG=gctrace=1).
//
// heapFloor is a block of memory that counts as live heap, so collections
// come about heapFloorBytes of garbage apart rather than 2 or 3 MB, a few per
// script instead of one every 20 calls. The collector never scans it (it
// holds no pointers) and nothing writes to it, so the operating system never
// backs it with memory: what a batch costs in memory is the garbage it lets
// wait, at most heapFloorBytes. It adds to the heap goal rather than
// multiplying it as GOGC does, so a session with a large live heap grows by
// no more than that. A GOGC or GOMEMLIMIT the user set wins.
var (
	//lint:ignore U1000 only kept alive: being reachable is its whole job
	heapFloor     []byte
	heapFloorOnce sync.Once
)

const heapFloorBytes = 16 << 20

// raiseHeapFloor sets the floor for the rest of the process, once, on the
// first batch call.
func (f *factory) raiseHeapFloor() {
	heapFloorOnce.Do(func() { heapFloor = newHeapFloor(f.getenv) })
}

// newHeapFloor is the block to keep alive, or nil when the user tunes the
// collector.
func newHeapFloor(getenv func(string) (string, bool)) []byte {
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, ok := getenv(k); ok && v != "" {
			return nil
		}
	}
	return make([]byte, heapFloorBytes)
}
