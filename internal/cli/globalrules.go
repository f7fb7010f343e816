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
func (a *app) addGlobalRules(t *client.Target) error {
	own := a.cfg
	if own == nil {
		path, found, err := config.Find(a.configPath, a.getenv)
		if err != nil {
			return err
		}
		if !found {
			return nil
		}
		if own, err = config.Load(path, a.getenv); err != nil {
			return err
		}
	}
	t.Rules = append(t.Rules, own.RulesForRef(t.Name)...)
	return nil
}
