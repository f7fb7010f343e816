package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/theme"
	"github.com/mcpsh/mcpsh/policy"
	"github.com/mcpsh/mcpsh/ui/overlays"
	"github.com/mcpsh/mcpsh/ui/style"
	"github.com/mcpsh/mcpsh/ui/tooldetail"
)

// demoList is a model on the demo server whose session denies delete_* and
// has allowed echo for the session, with the list judging by them.
func demoList(t *testing.T, w, h int) *Model {
	t.Helper()
	m, _ := connected(t, true, w, h)
	m.shown().session.Target.Rules = []policy.Rule{{Pattern: "delete_*", Action: policy.Deny}}
	echo, _ := m.shown().session.Tool("echo")
	m.shown().allowed["echo"] = echo.Hints
	m.shown().list.SetJudge(m.shown())
	return m
}

// listShows is what the list pane reads at width and height, trailing
// spaces trimmed.
func listShows(m *Model, width, height int) string {
	return paneText(m.shown().list.View(m.st, width, height))
}

func TestListFilterIsTermsAndWords(t *testing.T) {
	m := demoList(t, 80, 24)
	l := &m.shown().list
	for _, c := range []struct{ filter, want string }{
		{"is:write", "add_note,flaky_sync,send_message,tag_note,toggle_extras"},
		{"is:write note", "add_note,tag_note,flaky_sync"},
		{"is:destructive", "archive_notes,delete_note,echo,pop_note,rename_note"},
		{"is:read-only is:open-world", "weather_forecast"},
		{"is:readonly is:openworld", "weather_forecast"}, // the hyphen may go
		{"is:implied", "archive_notes,echo"},
		{"is:idempotent", "flaky_sync,tag_note,toggle_extras,delete_note,rename_note"},
		{"is:denied", "delete_note"},
		{"is:allowed", "echo"},
		{"is:conflict", ""},
		{"is:dest note", "delete_note,pop_note,rename_note,archive_notes"}, // note whole, then a word's start
		{"is:nonsense", ""},
	} {
		l.SetFilter(c.filter)
		if got := strings.Join(names(l), ","); got != c.want {
			t.Errorf("%q: %s, want %s", c.filter, got, c.want)
		}
		if l.Visible() != len(names(l)) {
			t.Errorf("%q: Visible %d, rows %d", c.filter, l.Visible(), len(names(l)))
		}
	}
}

// TestListDeniedFollowsRulesOnHints: the denied mark, and is:denied, come
// from policy's decision, so a rule on a class marks exactly what it denies,
// and an untrusted server's tools by the worst case.
func TestListDeniedFollowsRulesOnHints(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	m.shown().session.Target.Rules = []policy.Rule{{Pattern: "is:destructive !delete_note", Action: policy.Deny}, {Pattern: "is:open-world is:write", Action: policy.Deny}}
	m.shown().list.SetJudge(m.shown())
	l := &m.shown().list
	l.SetFilter("is:denied")
	if got, want := strings.Join(names(l), ","), "send_message,archive_notes,echo,pop_note,rename_note"; got != want {
		t.Errorf("is:denied: %s, want %s", got, want)
	}
	m.shown().session.Target.Trust = policy.Untrusted
	m.shown().list.SetJudge(m.shown())
	l.SetFilter("is:denied is:read-only")
	if got, want := strings.Join(names(l), ","), "get_note,list_notes,render_chart,search_notes,slow_count,suggest_title,weather_forecast"; got != want {
		t.Errorf("untrusted: is:denied is:read-only: %s, want %s (a read-only claim does not escape is:destructive)", got, want)
	}
}

// TestFilterWordsArePolicys: the filter's is: words are the rules' words,
// in policy's order, then the session's.
func TestFilterWordsArePolicys(t *testing.T) {
	var got []string
	for _, f := range isFilters {
		got = append(got, f.word)
	}
	var want []string
	for _, w := range policy.FacetWords {
		want = append(want, w.Word)
	}
	want = append(want, "allowed", "denied")
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("is: words %v, want %v", got, want)
	}
}

func TestListFilterHidesEmptyGroupsAndRanks(t *testing.T) {
	m := demoList(t, 80, 24)
	l := &m.shown().list
	l.SetFilter("note")
	view := listShows(m, 32, 22)
	for _, want := range []string{"Read-only (5)", "Write (3)", "Destructive (4)"} {
		if !strings.Contains(view, want) {
			t.Errorf("filter note: no %q:\n%s", want, view)
		}
	}
	// Within each group, the name's own word outranks a title, and a title
	// outranks the description.
	if got := strings.Join(names(l), ","); got != "get_note,list_notes,search_notes,render_chart,suggest_title,add_note,tag_note,flaky_sync,delete_note,pop_note,rename_note,archive_notes" {
		t.Errorf("ranked %s", got)
	}
	if sel := l.Selected(); sel == nil || sel.Name != "get_note" {
		t.Errorf("the cursor is on %v, want the best match", sel)
	}
	l.SetFilter("is:write")
	if view := listShows(m, 32, 22); strings.Contains(view, "Read-only") || strings.Contains(view, "Destructive") {
		t.Errorf("groups with no match are shown while filtering:\n%s", view)
	}
	l.SetFilter("dlnt")
	if got := names(l); len(got) == 0 || got[0] != "delete_note" {
		t.Errorf("dlnt found %v, want delete_note first", got)
	}
	l.SetFilter("is:frob")
	if view := listShows(m, 32, 22); !strings.Contains(view, "no tool matches") || !strings.Contains(view, "is:frob names nothing") {
		t.Errorf("an unknown is: is not explained:\n%s", view)
	}
	l.SetFilter("")
	if view := listShows(m, 32, 22); !strings.Contains(view, "Write (5)") {
		t.Errorf("clearing the filter did not bring every group back:\n%s", view)
	}
}

func TestListMarksAllowedAndDenied(t *testing.T) {
	m := demoList(t, 80, 24)
	l := &m.shown().list
	l.SetFilter("is:destructive")
	view := listShows(m, 40, 10)
	if !strings.Contains(view, "echo") || !strings.Contains(view, overlays.MarkAllowed) || !strings.Contains(view, overlays.MarkDenied) {
		t.Fatalf("allowed and denied tools are not marked:\n%s", view)
	}
	for _, line := range strings.Split(view, "\n") {
		switch {
		case strings.Contains(line, "delete_note") && !strings.HasSuffix(line, overlays.MarkDenied),
			strings.Contains(line, "echo") && !strings.HasSuffix(line, overlays.MarkAllowed):
			t.Errorf("mark on the wrong row: %q", line)
		}
	}
	if !strings.Contains(view, overlays.MarkAllowed+" allowed") || !strings.Contains(view, overlays.MarkDenied+" denied") {
		t.Errorf("the legend does not explain the marks on screen:\n%s", view)
	}
	// The detail says why a denied tool cannot be called.
	del, _ := m.shown().session.Tool("delete_note")
	if d := ansi.Strip(tooldetail.Render(del, m.shown().decision(del), nil, 60, m.st)); !strings.Contains(d, `refused: denied by rule "delete_*"`) {
		t.Errorf("the detail does not name the rule:\n%s", d)
	}
}

func TestListWidthGrowsWithTheTerminal(t *testing.T) {
	var l toolList
	l.SetTools(listOf("alpha", "beta"))
	for _, c := range []struct{ total, lo, hi int }{{50, 50, 50}, {80, 28, 32}, {120, 36, 48}, {160, 48, 64}, {200, 60, 80}} {
		if w := l.PaneWidth(c.total); w < c.lo || w > c.hi {
			t.Errorf("at %d columns the list is %d wide, want %d–%d", c.total, w, c.lo, c.hi)
		}
	}
	long := &client.Tool{Name: "t", Title: strings.Repeat("a very long title ", 5)}
	l.SetTools([]*client.Tool{long})
	if w := l.PaneWidth(200); w != 100 {
		t.Errorf("a long title does not take the list to half of 200: %d", w)
	}
}

func TestListCutsTitlesNotNames(t *testing.T) {
	var l toolList
	l.SetTools([]*client.Tool{
		{Name: "get_forecast_for_city", Title: "Get the weather forecast for a city, by name", Hints: policy.Hints{ReadOnly: policy.True}},
		{Name: "a_tool_with_a_name_longer_than_the_pane", Title: "Short", Hints: policy.Hints{ReadOnly: policy.True}},
	})
	st := style.NewStyles(theme.Dark(), true)
	for _, w := range []int{28, 32, 40, 60} {
		view := paneText(l.View(st, w, 6))
		assertWidth(t, "list", view, w)
		lines := strings.Split(view, "\n")
		if !strings.Contains(lines[1], "get_forecast_for_city") {
			t.Errorf("width %d: the name is not whole: %q", w, lines[1])
		}
		if w >= 40 && (!strings.Contains(lines[1], "Get the") || !strings.Contains(lines[1], "…  get_forecast_for_city")) {
			t.Errorf("width %d: the title is not cut with an ellipsis: %q", w, lines[1])
		}
		if fits := w >= 2+39+markW+1; !strings.Contains(lines[2], "a_tool_with") || fits == strings.Contains(lines[2], "…") {
			t.Errorf("width %d: a name longer than the pane is not cut to fit: %q", w, lines[2])
		}
	}
}

func TestListGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		m := demoList(t, size[0], size[1])
		w, h := m.shown().list.PaneWidth(size[0]), size[1]-4
		name := itoa(size[0]) + "x" + itoa(size[1])
		golden(t, "list/demo-"+name, m.shown().list.View(m.st, w, h))
		m.shown().list.SetFilter("is:dest note")
		golden(t, "list/filter-is-dest-note-"+name, m.shown().list.View(m.st, w, h))
	}
}
func TestParseQuery(t *testing.T) {
	q := parseQuery("  Note is:DEST is:readonly is:open is: is:d is:frob  ")
	if !slices.Equal(q.words, []string{"note"}) {
		t.Errorf("words %q", q.words)
	}
	want := []facet{facetDestructive, facetReadOnly, facetOpenWorld, facetDestructive | facetDenied}
	if !slices.Equal(q.is, want) {
		t.Errorf("is %v, want %v (is: alone asks for nothing; a prefix of two words asks for either)", q.is, want)
	}
	if !slices.Equal(q.unknown, []string{"frob"}) {
		t.Errorf("unknown %q", q.unknown)
	}
	if !q.wants(facetDenied) || q.wants(facetAllowed) {
		t.Error("wants")
	}
	if !parseQuery(" is: ").empty() || parseQuery("x").empty() {
		t.Error("empty")
	}
	for _, f := range isFilters {
		if got := parseQuery("is:" + f.word).is; len(got) != 1 || got[0] != f.facet {
			t.Errorf("is:%s asks for %v, want %v", f.word, got, f.facet)
		}
	}
}
