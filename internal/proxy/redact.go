package proxy

import (
	"encoding/json"

	"github.com/mcpsh/mcpsh/client"
)

// What the upstream sends the host outside a result (its handshake, the
// page a request for input sends the user to) passes through the same
// redaction as every result: the credentials mcpsh holds for the server
// stay in mcpsh, however the server quotes them. client redacts the
// server's requests themselves (their messages, forms and sampling params).

// upstreamInfo is what the upstream says of itself (name, title, version,
// instructions, capabilities) as the host is told it.
func upstreamInfo(up *client.Session) client.ServerInfo {
	info := up.Server()
	for _, s := range []*string{&info.Name, &info.Title, &info.Version, &info.Instructions} {
		*s = redactKnown(up.Target, *s)
	}
	info.Capabilities.Raw, _ = up.Target.RedactJSON(info.Capabilities.Raw)
	return info
}

// redactKnown takes out of s the credentials t knows of, and nothing that
// merely looks like one (RedactJSON's rule, for one string).
func redactKnown(t client.Target, s string) string {
	raw, err := json.Marshal(s)
	if err != nil {
		return s
	}
	out, changed := t.RedactJSON(raw)
	if !changed {
		return s
	}
	var r string
	if json.Unmarshal(out, &r) != nil {
		return s
	}
	return r
}
