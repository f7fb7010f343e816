package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
	"github.com/mcpsh/mcpsh/policy"
)

// writeAsScript writes a logged session as a run script: one call per entry,
// with its arguments as logged and the status it ended with as an
// expectation, so running the script again checks that the server still
// behaves as it did. Values the log redacted, or arguments it did not keep,
// become fillMark, which run refuses until someone fills them in.
//
// Everything here comes from a log that recorded a server's words: tool names
// are quoted or, when no quoting can make them one safe word, left out with a
// comment; arguments are written as JSON with every control escaped; text in
// comments is folded to one safe line.
func writeAsScript(w io.Writer, session string, entries []sessionlog.Entry) error {
	var body []string
	fills, skipped, kept := 0, 0, 0
	var servers []string
	for _, e := range entries {
		body = append(body, "")
		if len(servers) == 0 || servers[len(servers)-1] != e.Server {
			if len(servers) > 0 {
				body = append(body, "# server: "+commentText(e.Server))
			}
			servers = append(servers, e.Server)
		}
		name, ok := scriptName(e.Tool)
		if !ok {
			body = append(body, fmt.Sprintf("# left out: a call to %s, a name no script line can hold", strconv.QuoteToASCII(cut(e.Tool, 200))))
			skipped++
			continue
		}
		args, holes := scriptArgs(e.Args)
		fills += len(holes)
		body = append(body, entryNotes(e, holes)...)
		line := name
		if args != "" {
			line += " " + args
		}
		body = append(body, line)
		if st, ok := expectedStatus(e.Status); ok {
			body = append(body, "  expect status "+st)
		}
		results := resultExpects(e.Result)
		if len(results) > 0 {
			kept++
		}
		body = append(body, results...)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# A run script made by `mcpsh log --as-script` from session %s.\n", commentText(session))
	if distinct := uniq(servers); len(distinct) == 1 {
		via := ""
		if entries[0].Via != "" {
			via = " (" + commentText(entries[0].Via) + ")"
		}
		fmt.Fprintf(&b, "# server: %s%s\n", commentText(distinct[0]), via)
	} else if len(distinct) > 1 {
		fmt.Fprintf(&b, "# servers: %s; run talks to one: split the script by server.\n", commentText(strings.Join(distinct, ", ")))
	}
	if len(entries) > 0 {
		fmt.Fprintf(&b, "# %s, %s to %s\n", units.Plural(len(entries), "call"), stamp(entries[0].Time), stamp(entries[len(entries)-1].Time))
	} else {
		b.WriteString("# The session has no calls.\n")
	}
	b.WriteString("#\n# Each call is followed by the status it ended with, as an expectation, and\n")
	switch {
	case kept == 0:
		b.WriteString("# the log kept no results (--log-results none, or an older log): add\n" +
			"# `expect text \"...\"` or `expect json .path == VALUE` lines to check them.\n")
	case kept < len(entries):
		fmt.Fprintf(&b, "# by what the log kept of the result for %s of them (json and text from a\n"+
			"# full result, its digest otherwise).\n", units.Plural(kept, "call"))
	default:
		b.WriteString("# by what the log kept of its result (json and text from a full result,\n" +
			"# its digest otherwise).\n")
	}
	b.WriteString("# Replaying is subject to today's policy: a call that needs confirmation is\n" +
		"# refused unless you run the script with --yes.\n")
	if fills > 0 {
		fmt.Fprintf(&b, "#\n# To fill in: %s marks %s the log redacted or did not keep.\n"+
			"# mcpsh run refuses the script, naming each one, until you replace them.\n", fillMark, units.Plural(fills, "value"))
	}
	if skipped > 0 {
		fmt.Fprintf(&b, "# Left out: %s whose name no script line can hold (see below).\n", units.Plural(skipped, "call"))
	}
	for _, l := range body {
		b.WriteString(l + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// scriptName writes a tool's name as the first word of a script line. A name
// of plain characters goes as it is; anything else is single-quoted, and so is
// "expect", which would otherwise start an expectation. A name with a
// character that a terminal acts on, or that could end or hide a line, cannot
// be written safely at all; one that only measures differently on a
// terminal (termtext.Safe) is written as it is, or mcpsh run would call
// another tool.
func scriptName(name string) (string, bool) {
	if name == "" || !termtext.SafeLine(name) {
		return "", false
	}
	plain := name != "expect"
	for _, c := range []byte(name) {
		if !(c == '_' || c == '-' || c == '.' || c == '/' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			plain = false
			break
		}
	}
	if plain {
		return name, true
	}
	return "'" + strings.ReplaceAll(name, "'", `'\''`) + "'", true
}

// scriptArgs writes logged arguments as one line of JSON, and says which
// values became fillMark: those the log redacted, or all of them ("") when it
// kept none.
func scriptArgs(raw json.RawMessage) (string, []string) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return fillMark, []string{""}
	}
	var v any
	if decodeOne(string(raw), &v) != nil {
		return fillMark, []string{""}
	}
	if v == nil {
		return "", nil // a call made with no arguments at all, logged in full
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fillMark, []string{""}
	}
	if len(obj) == 0 {
		return "", nil
	}
	var holes []string
	for k, val := range obj {
		if n := markRedacted(&val); n > 0 {
			obj[k] = val
			holes = append(holes, k)
		}
	}
	sort.Strings(holes)
	return jsonText(obj), holes
}

// markRedacted replaces the log's redaction marker with fillMark, in place,
// and counts the replacements.
func markRedacted(v *any) int {
	switch x := (*v).(type) {
	case string:
		if strings.Contains(x, sessionlog.Redacted) {
			*v = strings.ReplaceAll(x, sessionlog.Redacted, fillMark)
			return 1
		}
	case []any:
		n := 0
		for i := range x {
			n += markRedacted(&x[i])
		}
		return n
	case map[string]any:
		n := 0
		for k, val := range x {
			if m := markRedacted(&val); m > 0 {
				x[k] = val
				n += m
			}
		}
		return n
	}
	return 0
}

// entryNotes are the comment lines above a call: what to fill in, and how it
// ended when that was not plainly ok.
func entryNotes(e sessionlog.Entry, holes []string) []string {
	var notes []string
	switch {
	case len(holes) == 1 && holes[0] == "":
		notes = append(notes, "# fill in: the arguments (the log kept none); delete "+fillMark+" if the call takes none")
	case len(holes) > 0:
		quoted := make([]string, len(holes))
		for i, h := range holes {
			quoted[i] = strconv.QuoteToASCII(cut(h, 60))
		}
		notes = append(notes, "# fill in: "+strings.Join(quoted, ", ")+" (redacted in the log)")
	}
	switch e.ApprovedBy {
	case policy.ByUser, policy.BySession, policy.ByCaller, policy.ByHost, policy.ByConsole:
		notes = append(notes, "# approved by "+approverWord(e.ApprovedBy)+" when logged: replaying it needs --yes unless policy now lets it run")
	}
	switch e.Status {
	case client.StatusRefused:
		notes = append(notes, "# refused when logged: "+commentText(e.Reason))
	case client.StatusFailed:
		notes = append(notes, "# failed when logged: "+commentText(e.Error))
	case client.StatusCancelled:
		notes = append(notes, "# cancelled when logged (interrupted), so no status is expected; it may have run in part")
	case client.StatusOK, client.StatusToolError:
	default:
		notes = append(notes, "# the log's status "+strconv.QuoteToASCII(cut(string(e.Status), 40))+" is not one mcpsh knows: no status is expected")
	}
	return notes
}

func expectedStatus(s client.Status) (string, bool) {
	switch s {
	case client.StatusOK, client.StatusToolError, client.StatusRefused, client.StatusFailed:
		return string(s), true
	}
	return "", false
}

// commentText folds text from a log onto one line that a terminal shows as
// it is, so it cannot end the comment or hide what follows.
func commentText(s string) string {
	s = strings.NewReplacer("\u2028", " ", "\u2029", " ").Replace(termtext.Line(s))
	return termtext.Truncate(s, 160)
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func uniq(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
