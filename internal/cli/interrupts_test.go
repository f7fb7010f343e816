package cli

import (
	"context"
	"testing"
)

// A command runs only once interrupts are heard (main installs the handler
// beside the parse of the command line): under a context that ends first,
// nothing runs and the status says interrupted; once heard, it runs.
func TestCommandsWaitUntilInterruptsAreHeard(t *testing.T) {
	t.Parallel()
	t.Run("ended first", func(t *testing.T) {
		t.Parallel()
		ctx, _ := WithInterruptsPending(context.Background())
		ctx, cancel := context.WithCancel(ctx)
		cancel()
		f, out, errOut := testFactory(t, env{})
		if code := execute(ctx, f, []string{"--version"}); code != ExitInterrupted || out.Len() != 0 {
			t.Errorf("exit %d, stdout %q, stderr %q: want %d and nothing run", code, out, errOut, ExitInterrupted)
		}
	})
	t.Run("heard", func(t *testing.T) {
		t.Parallel()
		ctx, heard := WithInterruptsPending(context.Background())
		heard()
		f, out, errOut := testFactory(t, env{})
		if code := execute(ctx, f, []string{"--version"}); code != ExitOK || out.Len() == 0 {
			t.Errorf("exit %d, stdout %q, stderr %q: want the version", code, out, errOut)
		}
	})
}
