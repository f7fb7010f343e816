package ui

import (
	"os"
	"testing"

	"github.com/mcpsh/mcpsh/internal/testenv"
)

// TestMain runs the tests in a temporary HOME. The view writes no log of its
// own today, but the sessions and servers its tests start inherit this
// environment.
func TestMain(m *testing.M) {
	os.Exit(testenv.RunInTempHome(m))
}
