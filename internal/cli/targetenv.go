package cli

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
	"github.com/mcpsh/mcpsh/policy"
)

// The target flags a host's entry for mcpsh proxy relies on (mcpsh proxy
// config writes them): --as names the server as the host knows it, and
// --header-env and --bearer-env take a remote server's credentials from the
// environment the host gives the proxy, never from its command line, which
// every local user can read in /proc. They work for every command.

// nameAs gives the target the name --as says, and mcpsh's config's trust
// for that name: a host's entry that runs mcpsh proxy --as cursor:github
// gets what the entry itself would (it can only be made stricter).
func (f *factory) nameAs(t *client.Target) error {
	ref := strings.TrimSpace(f.target.as)
	if name := ref[strings.IndexByte(ref, ':')+1:]; name == "" {
		return &usageError{fmt.Sprintf("--as %q: want HOST:NAME or NAME", f.target.as)}
	}
	own, err := f.ownConfig()
	if err != nil {
		return err
	}
	t.Name = ref
	if own.UntrustsRef(ref) {
		t.Trust = policy.Untrusted
	}
	return nil
}

// ownConfig is mcpsh's own config file, without reading the other hosts':
// --as needs only its "trust", and a proxy a host starts should not read
// every host's files for it.
func (f *factory) ownConfig() (*config.File, error) {
	if f.cfg != nil || f.cfgErr != nil {
		return f.cfg, f.cfgErr
	}
	path, found, err := config.Find(f.configPath, f.getenv)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return &config.File{Path: path, Missing: true}, nil
	}
	return config.Load(path, f.getenv)
}

// headersFromEnv adds --header-env's and --bearer-env's headers, read from
// the environment: a host's entry gives mcpsh proxy its secrets there,
// where other users cannot read them as they can a command line.
func (f *factory) headersFromEnv(t *client.Target) error {
	fl := &f.target
	set := func(flag, k, v string) error {
		if t.Headers == nil {
			t.Headers = map[string]string{}
		}
		for old := range t.Headers {
			if strings.EqualFold(old, k) {
				return &usageError{fmt.Sprintf("%s: header %s is given twice", flag, k)}
			}
		}
		t.Headers[k] = v
		return nil
	}
	for _, h := range fl.headerEnv {
		k, name, ok := strings.Cut(h, "=")
		k, name = strings.TrimSpace(k), strings.TrimSpace(name)
		if !ok || k == "" || name == "" {
			return &usageError{fmt.Sprintf("--header-env %q: want NAME=VARIABLE", h)}
		}
		v, _ := f.getenv(name)
		if v == "" {
			// As Codex does with env_http_headers: no value, no header.
			f.warn(fmt.Sprintf("--header-env %s: $%s is not set, so the header is not sent", h, name))
			continue
		}
		if err := set("--header-env", k, v); err != nil {
			return err
		}
	}
	if name := strings.TrimSpace(fl.bearerEnv); name != "" {
		v, _ := f.getenv(name)
		if v == "" {
			return &usageError{fmt.Sprintf("--bearer-env %s: $%s is not set", name, name)}
		}
		return set("--bearer-env", "Authorization", "Bearer "+v)
	}
	return nil
}
