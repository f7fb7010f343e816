package ui

import (
	"image/color"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/style"
)

// contrast is the WCAG 2 contrast ratio of two colours, 1 to 21.
func contrast(a, b color.Color) float64 {
	lum := func(c color.Color) float64 {
		r, g, b, _ := c.RGBA()
		ch := func(v uint32) float64 {
			x := float64(v) / 0xffff
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(r) + 0.7152*ch(g) + 0.0722*ch(b)
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// TestThemesAreReadable: every colour that carries text reaches WCAG AA
// (4.5:1) on the background its theme is for, text on the selection too, and
// borders reach 3:1.
func TestThemesAreReadable(t *testing.T) {
	black, white := color.RGBA{0, 0, 0, 255}, color.RGBA{255, 255, 255, 255}
	for name, c := range map[string]struct {
		theme style.Theme
		bg    color.Color
	}{"dark": {theme.Dark(), black}, "light": {theme.Light(), white}} {
		th := c.theme
		for role, fg := range map[string]color.Color{
			"Accent": th.Accent, "Text": th.Text, "Muted": th.Muted, "ReadOnly": th.ReadOnly, "Write": th.Write,
			"Destructive": th.Destructive, "OpenWorld": th.OpenWorld, "Error": th.Error, "Warning": th.Warning, "Success": th.Success,
		} {
			if r := contrast(fg, c.bg); r < 4.5 {
				t.Errorf("%s theme: %s has a contrast of %.1f on its background, below 4.5", name, role, r)
			}
		}
		if r := contrast(th.Text, th.SelectBg); r < 4.5 {
			t.Errorf("%s theme: text on the selection has a contrast of %.1f", name, r)
		}
		if r := contrast(th.Border, c.bg); r < 3 {
			t.Errorf("%s theme: borders have a contrast of %.1f, below 3", name, r)
		}
	}
	// The dark theme's text is unreadable on a light background: that is why
	// the background is asked for.
	if r := contrast(theme.Dark().Text, white); r > 2 {
		t.Errorf("the dark theme reads on white (%.1f): the light theme may be unneeded", r)
	}
}

func TestTheBackgroundPicksTheTheme(t *testing.T) {
	m, _ := connected(t, false, 80, 24)
	st := m.st
	m.shown().result.SetOutcome(okOutcome())
	m.setBackground(false)
	if m.st != st || m.st.Row.GetForeground() != theme.Light().Text {
		t.Fatalf("a light background did not switch the shared styles to the light theme")
	}
	if screen := m.render(); !strings.Contains(screen, "38;5;235") {
		t.Error("the screen is not drawn in the light theme's text colour")
	}
	if !strings.Contains(m.shown().result.View(), "38;5;235") {
		t.Error("the result, drawn before the switch, was not drawn again")
	}
	m.setBackground(true)
	if m.st.Row.GetForeground() != theme.Dark().Text {
		t.Error("a dark background did not switch back")
	}
	// Through Update, once update.go hands it tea.BackgroundColorMsg.
	m.Update(tea.BackgroundColorMsg{Color: color.RGBA{250, 250, 250, 255}})
	if m.st.Row.GetForeground() != theme.Light().Text {
		t.Fatal("tea.BackgroundColorMsg did not reach setBackground")
	}
}

func TestNoColorStaysColourless(t *testing.T) {
	colour := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7]);?[0-9;]*m|\x1b\[[0-9;]*[34]8;`)
	m, _ := connected(t, true, 100, 30)
	for _, dark := range []bool{false, true} {
		m.setBackground(dark)
		m.Update(tea.BackgroundColorMsg{Color: color.White})
		if s := m.render(); colour.MatchString(s) {
			t.Errorf("NO_COLOR screen has colour after a background of dark=%v", dark)
		}
	}
}

// The audit is drawn off the UI's goroutine: a theme swap while it is drawn
// neither races with it (go test -race) nor leaves it in the old colours.
func TestThemeSwapDuringTheAudit(t *testing.T) {
	m, _ := connected(t, false, 100, 30)
	d := drive(t, m)
	d.keys("A")                                                             // the audit starts, on a command's goroutine
	d.update(tea.BackgroundColorMsg{Color: color.RGBA{250, 250, 250, 255}}) // while it runs
	d.until("the audit in the light theme", func() bool {
		p := m.shown().auditPane
		return p.Report() != nil && !p.Stale() && m.shown().audit.renderReq == 0
	})
	want := overlays.RenderAudit(m.shown().auditPane.Report(), m.shown().auditPane.Width(), m.st)
	if !slices.Equal(m.shown().auditPane.Rendered().Lines, want.Lines) {
		t.Fatal("the audit pane kept lines drawn in the old theme")
	}
}
