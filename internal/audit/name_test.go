package audit

import (
	"regexp"
	"strings"
	"testing"
)

// TestValidNameIsTheSpecsPattern holds validName to the spec's recommended
// name pattern, written as the regexp it replaced.
func TestValidNameIsTheSpecsPattern(t *testing.T) {
	spec := regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	names := []string{"", "a", "get_note", "ns.tool-2", "A-Z.a_z.0-9", strings.Repeat("x", 128), strings.Repeat("x", 129),
		"bad name", "bad!", "naïve", "tab\there", "new\nline", "slash/name", "colon:name", "\x00", "é", strings.Repeat("é", 64)}
	for c := byte(0); c < 0x80; c++ {
		names = append(names, "a"+string(rune(c))+"b")
	}
	for _, n := range names {
		if got, want := validName(n), spec.MatchString(n); got != want {
			t.Errorf("validName(%q) = %v, the spec's pattern says %v", n, got, want)
		}
	}
}
