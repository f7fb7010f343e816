package ui

import "time"

// patience bounds every wait of these tests for a screen, a server's side
// or the program's end. A passing test never waits it out, so it is long:
// the tests share a busy machine (CI runs them under -race, beside other
// packages), and a short budget there fails a test that is only slow.
const patience = 60 * time.Second
