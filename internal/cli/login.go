package cli

import "github.com/spf13/cobra"

// authCommands are login and logout (issue 9; placeholder).
func (a *app) authCommands() []*cobra.Command { return nil }
