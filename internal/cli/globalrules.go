package cli

import (
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
)

// addGlobalRules gives a target named on the command line (--demo, --url,
// --sse, -- COMMAND) the top-level "policy" rules of mcpsh's own file that
// serve it: those for every server, and those whose server: terms match its
// name (--demo is "demo"; --as HOST:NAME names a command or URL as that
// host's server; without it they have no name). A configured server
// (-s, or the only one) got them from discovery already. Only mcpsh's own
// file is read, as for the log's retention; one that cannot be read is an
// error, as it is for -s: its rules may be what keeps a call from running.
func (f *factory) addGlobalRules(t *client.Target) error {
	own := f.cfg
	if own == nil {
		path, found, err := config.Find(f.configPath, f.getenv)
		if err != nil {
			return err
		}
		if !found {
			return nil
		}
		if own, err = config.Load(path, f.getenv); err != nil {
			return err
		}
	}
	t.Rules = append(t.Rules, own.RulesForRef(t.Name)...)
	return nil
}

// ruleRef is how a top-level rule's server: term names the target when
// mcpsh's own file has no entry for it (a host's server, or one named on
// the command line: --demo, --as), for mcpsh proxy's refusals to suggest
// a rule that serves it; "" when the target has an entry there, or no name.
func (a *factory) ruleRef(t client.Target) string {
	f := &a.target
	switch {
	case t.Name == "":
		return ""
	case f.as != "" || f.demo || f.url != "" || f.sse != "":
		return t.Name
	case a.target.found == nil:
		return ""
	}
	ref := f.server
	if ref == "" {
		ref = t.Name // the only configured server
	}
	if s, _, _ := a.target.found.Resolve(ref); s != nil && s.Origin.Host != "" && s.Origin.Host != config.HostMcpsh {
		return s.Ref()
	}
	return ""
}
