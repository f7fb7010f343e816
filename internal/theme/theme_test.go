package theme

import (
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/mcpsh/mcpsh/policy"
)

func TestTextOffIsPlain(t *testing.T) {
	for _, x := range []Text{{}, NewText(ANSI(), false, colorprofile.TrueColor)} {
		for _, f := range []func(string) string{x.Strong, x.Muted, x.Bad, x.Warn, x.Good, x.OpenWorld} {
			if got := f("a\tb\n\nc  "); got != "a\tb\n\nc  " {
				t.Errorf("colour off changed the text: %q", got)
			}
		}
	}
}

func TestTextByProfile(t *testing.T) {
	for _, c := range []struct {
		profile colorprofile.Profile
		theme   Theme
		s       func(Text) string
		want    string
	}{
		{colorprofile.ANSI, ANSI(), func(x Text) string { return x.Bad("no") }, "\x1b[31mno\x1b[m"},
		{colorprofile.NoTTY, ANSI(), func(x Text) string { return x.Good("ok") }, "\x1b[32mok\x1b[m"},
		{colorprofile.ASCII, ANSI(), func(x Text) string { return x.Good("ok") }, "ok"},
		{colorprofile.ASCII, ANSI(), func(x Text) string { return x.Bad("no") }, "\x1b[1mno\x1b[m"},
		{colorprofile.ANSI, ANSI(), func(x Text) string { return x.Muted("m") }, "\x1b[2mm\x1b[m"},
		{colorprofile.ANSI, ANSI(), func(x Text) string { return x.StrongClass(policy.ClassWrite, "W") }, "\x1b[1;33mW\x1b[m"},
		// a 256-colour theme comes down to sixteen where that is all there is
		{colorprofile.ANSI, Dark(), func(x Text) string { return x.Class(policy.ClassReadOnly, "r") }, "\x1b[92mr\x1b[m"},
		{colorprofile.ANSI256, Dark(), func(x Text) string { return x.Class(policy.ClassReadOnly, "r") }, "\x1b[38;5;42mr\x1b[m"},
		// lines are drawn one by one: no padding to the widest, tabs kept
		{colorprofile.ANSI, ANSI(), func(x Text) string { return x.Warn("a\tb\n\nlonger") }, "\x1b[33ma\tb\x1b[m\n\n\x1b[33mlonger\x1b[m"},
	} {
		if got := c.s(NewText(c.theme, true, c.profile)); got != c.want {
			t.Errorf("%v: %q, want %q", c.profile, got, c.want)
		}
	}
}

// Every class has a colour in every theme, and the three differ.
func TestEveryClassHasItsColour(t *testing.T) {
	for name, th := range map[string]Theme{"dark": Dark(), "light": Light(), "ansi": ANSI()} {
		seen := map[[3]uint32]bool{}
		for _, c := range policy.Classes {
			col := th.Class(c)
			if col == nil {
				t.Fatalf("%s: no colour for %s", name, c)
			}
			r, g, b, _ := col.RGBA()
			seen[[3]uint32{r, g, b}] = true
		}
		if len(seen) != len(policy.Classes) {
			t.Errorf("%s: classes share a colour", name)
		}
	}
	if For(true) != Dark() || For(false) != Light() {
		t.Error("For picks the wrong theme")
	}
}
