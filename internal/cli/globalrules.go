package cli

import (
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/config"
)

// addGlobalRules gives a target named on the command line (--demo, --url,
// --sse, -- COMMAND) the top-level "policy" rules of mcpsh's own file that
// serve it: those for every server, and those whose server: terms match its
// name (--demo is "demo"; a command or URL has no name). A configured server
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
	t.Rules = append(t.Rules, own.RulesFor(config.HostMcpsh, t.Name)...)
	return nil
}
