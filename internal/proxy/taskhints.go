package proxy

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcpsh/mcpsh/internal/jsonscan"
)

// The proxy follows a task itself and answers the host with its result: to
// the host, every call is a plain one. A tool's execution.taskSupport
// (protocol 2025-11-25) would tell the host otherwise: a host that reads
// "required" refuses to call the tool without task augmentation the proxy
// does not offer, or sends params.task and then finds a plain result where
// it waits for a task. So the tools pages the host is handed leave out each
// tool's execution member; everything else keeps the server's bytes.

// withoutExecution is page with the execution member taken out of each of
// its tools. Keys are compared as a host would read them: unescaped, and
// without regard to case (encoding/json matches "Execution" too), in every
// member that names the tools (a Go host reads the last of "tools" and
// "Tools"). A page with no tool that has one is returned as it is.
func withoutExecution(page json.RawMessage) json.RawMessage {
	if !bytes.Contains(bytes.ToLower(page), []byte("execution")) && !bytes.Contains(page, []byte(`\u`)) {
		return page
	}
	out, changed := rewriteMembers(page, func(key string, value []byte) ([]byte, bool) {
		if !strings.EqualFold(key, "tools") {
			return value, true
		}
		return rewriteElements(value, func(tool []byte) []byte {
			t, _ := rewriteMembers(tool, func(key string, v []byte) ([]byte, bool) {
				return v, !strings.EqualFold(key, "execution")
			})
			return t
		}), true
	})
	if !changed {
		return page
	}
	return out
}

// rewriteMembers rebuilds the JSON object b with each member's value as f
// returns it, leaving out those f does not keep. It reports whether any
// member changed; b is returned unchanged when none did or b is not an
// object.
func rewriteMembers(b []byte, f func(key string, value []byte) ([]byte, bool)) ([]byte, bool) {
	var out bytes.Buffer
	out.WriteByte('{')
	changed, n := false, 0
	ok := jsonscan.Members(b, func(rawKey, value []byte) bool {
		var key string
		if json.Unmarshal(rawKey, &key) != nil {
			return false
		}
		nv, keep := f(key, value)
		if !keep {
			changed = true
			return true
		}
		if !bytes.Equal(nv, value) {
			changed = true
		}
		if n > 0 {
			out.WriteByte(',')
		}
		n++
		out.Write(rawKey)
		out.WriteByte(':')
		out.Write(nv)
		return true
	})
	if !ok || !changed {
		return b, false
	}
	out.WriteByte('}')
	return out.Bytes(), true
}

// rewriteElements is the JSON array b with each element as f returns it;
// b itself when it is not an array or no element changed.
func rewriteElements(b []byte, f func(elem []byte) []byte) []byte {
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return b
	}
	var out bytes.Buffer
	out.WriteByte('[')
	changed, n := false, 0
	for i = jsonscan.SkipSpace(b, i+1); i < len(b) && b[i] != ']'; {
		end := jsonscan.SkipValue(b, i)
		if n > 0 {
			out.WriteByte(',')
		}
		n++
		e := f(b[i:end])
		changed = changed || !bytes.Equal(e, b[i:end])
		out.Write(e)
		if i = jsonscan.SkipSpace(b, end); i < len(b) && b[i] == ',' {
			i = jsonscan.SkipSpace(b, i+1)
		}
	}
	if !changed {
		return b
	}
	out.WriteByte(']')
	return out.Bytes()
}
