package testenv

import (
	"strings"
	"testing"
)

// Contains fails the test for each of wants that s lacks, showing s: the
// check the command suites (internal/cli in process, internal/e2e through the
// built binary) make of stdout and stderr.
func Contains(t testing.TB, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
}
