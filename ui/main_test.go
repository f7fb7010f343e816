package ui

import (
	"os"
	"testing"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/testing/fixture"
	"github.com/mcpsh/mcpsh/internal/testing/testenv"
	"github.com/mcpsh/mcpsh/policy"
)

// TestMain runs the tests in a temporary HOME. The view writes no log of its
// own today, but the sessions and servers its tests start inherit this
// environment. With MCPSH_FIXTURE set, the test binary is instead a raw
// JSON-RPC server over stdio playing that internal/testing/fixture scenario
// (fixtureChoice).
func TestMain(m *testing.M) {
	if code, ok := fixture.ServeStdioFromEnv(); ok {
		os.Exit(code)
	}
	os.Exit(testenv.RunInTempHome(m))
}

// fixtureChoice is a workspace server named name: this test binary, as
// internal/testing/fixture's server playing scenario over stdio; state is the
// folder where it notes what reached it.
func fixtureChoice(t *testing.T, name, scenario string) (c Choice, state string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	state = t.TempDir()
	target := client.Target{Name: name, Kind: client.KindStdio, Command: exe,
		Env: fixture.Env(scenario, state), Trust: policy.Trusted}
	return Choice{Name: name, Transport: "stdio", Where: "fixture " + scenario, Target: target}, state
}
