package client

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// A stdio server's handshake is remembered when reaching it took more than
// asking (protocol.go): the server left server/discover unanswered, or
// exited on it. Its next start asks at once for the version it settled on:
// no wait for the probe, no second start. A memory can go stale when the
// server is upgraded, so it is kept with the server's name and version
// (serverInfo) and:
//   - a start that finds them changed forgets it (the session goes on as it
//     started), so the next start probes again;
//   - a server that refuses the remembered handshake, or ends before it
//     answers it, is started again and probed at once (it refused, or
//     died, before doing anything);
//   - a remembered handshake that fails any other way (the server does not
//     answer it by the caller's deadline, say) is forgotten too, so the
//     next start probes; only a caller that gives up (cancels) keeps it;
//   - a memory older than handshakeTTL is not used.
//
// Only a fallback is remembered: a server that answers the probe needs no
// memory, and one that answers it slowly is waited for from its first byte.

// Handshake is how one server's handshake went.
type Handshake struct {
	Protocol string `json:"protocol"` // the version it settled on
	Discover string `json:"discover"` // DiscoverUnanswered or DiscoverExited
	// Server is its serverInfo name and version then, to notice an upgrade.
	Server string    `json:"server,omitempty"`
	At     time.Time `json:"at"`
}

// How a server met server/discover.
const (
	DiscoverUnanswered = "unanswered"
	DiscoverExited     = "exited"
)

// HandshakeMemory keeps Handshakes by server (handshakeKey), across runs.
type HandshakeMemory interface {
	Recall(key string) (Handshake, bool)
	// Remember keeps h for key; nil forgets it.
	Remember(key string, h *Handshake) error
}

// handshakeTTL is how long a memory is used before the server is probed again.
const handshakeTTL = 30 * 24 * time.Hour

// handshakeKey names a server by its configured name and its command: a
// name given to another command is another server. It is a hash, so the
// file holds no command line (which may carry a secret).
func handshakeKey(t Target) string {
	h := sha256.New()
	for _, part := range append([]string{t.Name, t.Command}, t.Args...) {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// serverOf is the server's name and version, as it reported them.
func serverOf(c *connection) string {
	r := c.cs.InitializeResult()
	if r == nil || r.ServerInfo == nil {
		return ""
	}
	return termtext.Truncate(r.ServerInfo.Name+" "+r.ServerInfo.Version, 200)
}

// recall is the memory for key when there is one to use.
func (s *Session) recall(key string) (Handshake, bool) {
	if s.opts.Handshakes == nil {
		return Handshake{}, false
	}
	h, ok := s.opts.Handshakes.Recall(key)
	if !ok || h.Protocol == LatestProtocol || !slices.Contains(ProtocolVersions, h.Protocol) || s.now().Sub(h.At) > handshakeTTL {
		return Handshake{}, false
	}
	return h, true
}

func (s *Session) remember(key string, h *Handshake) {
	if s.opts.Handshakes == nil {
		return
	}
	if h != nil {
		h.At = s.now()
	}
	if err := s.opts.Handshakes.Remember(key, h); err != nil {
		s.warn("remembering how the server's handshake went: " + termtext.Line(err.Error()))
	}
}

func (s *Session) forget(key string) { s.remember(key, nil) }

// outgrown forgets a memory the server has outgrown: it reports another
// name or version than when the memory was made.
func (s *Session) outgrown(key string, h Handshake, c *connection) {
	if serverOf(c) != h.Server {
		s.forget(key)
	}
}

// NewHandshakeFile keeps handshakes in a JSON file at path (0600, its
// folder 0700), at most maxHandshakes of them, the oldest dropped first.
// Several mcpsh at once may each write it; the last write wins, which costs
// at most one probe more.
func NewHandshakeFile(path string) HandshakeMemory { return &handshakeFile{path: path} }

const maxHandshakes = 256

type handshakeFile struct {
	path string
	mu   sync.Mutex
}

type handshakeFileData struct {
	Servers map[string]Handshake `json:"servers"`
}

func (f *handshakeFile) read() (handshakeFileData, error) {
	var d handshakeFileData
	b, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return d, err
	}
	if json.Unmarshal(b, &d) != nil {
		return handshakeFileData{}, nil // a file that does not parse is started over
	}
	return d, nil
}

func (f *handshakeFile) Recall(key string) (Handshake, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, err := f.read()
	if err != nil {
		return Handshake{}, false
	}
	h, ok := d.Servers[key]
	return h, ok
}

func (f *handshakeFile) Remember(key string, h *Handshake) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, err := f.read()
	if err != nil {
		return err
	}
	if d.Servers == nil {
		d.Servers = map[string]Handshake{}
	}
	if h == nil {
		if _, ok := d.Servers[key]; !ok {
			return nil
		}
		delete(d.Servers, key)
	} else {
		d.Servers[key] = *h
	}
	for len(d.Servers) > maxHandshakes {
		oldest := ""
		for k, v := range d.Servers {
			if oldest == "" || v.At.Before(d.Servers[oldest].At) {
				oldest = k
			}
		}
		delete(d.Servers, oldest)
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.path), ".handshakes-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), f.path)
}
