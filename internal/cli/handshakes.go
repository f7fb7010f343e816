package cli

import (
	"path/filepath"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/paths"
)

// handshakes is where mcpsh remembers how each stdio server's handshake
// went when it needed a fallback (client/handshakes.go): handshakes.json in
// the state folder, beside the session logs. Without a state folder
// nothing is remembered, and each start probes again.
func (f *factory) handshakes() client.HandshakeMemory {
	dir, err := paths.StateDir(f.getenv)
	if err != nil {
		return nil
	}
	return client.NewHandshakeFile(filepath.Join(dir, "handshakes.json"))
}
