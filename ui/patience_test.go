package ui

import "github.com/mcpsh/mcpsh/internal/testing/wait"

// patience bounds every wait of these tests for a screen, a server's side
// or the program's end: wait.Budget, long, since the tests share a busy
// machine (CI runs them under -race, beside other packages) and a short
// budget there fails a test that is only slow. A passing test never waits
// it out.
const patience = wait.Budget
