package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/junit"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
)

// code is the script's exit status, once --update has rewritten what it
// could: an expectation it rewrote no longer fails the script.
func (r *testResult) code() int {
	switch {
	case r == nil:
		return ExitInterrupted // never started: the suite was interrupted
	case r.err != nil:
		return ExitCode(r.err)
	case len(r.report.mistakes) > 0:
		return ExitUsage
	case r.failed() > 0:
		return worse(r.report.statusCode, ExitFailure)
	}
	return r.report.statusCode
}

func (r *testResult) passed() bool { return r.code() == ExitOK }

// failed counts the expectations that failed and were not rewritten.
func (r *testResult) failed() int {
	if r == nil || r.report == nil {
		return 0
	}
	return r.report.unmet - len(r.updates)
}

func (r *testResult) calls() int {
	if r == nil || r.report == nil {
		return 0
	}
	return len(r.report.steps)
}

// counts says in a few words how the script went.
func (r *testResult) counts() string {
	switch {
	case r.err != nil:
		return "could not run"
	case len(r.report.mistakes) > 0:
		return units.Plural(len(r.report.mistakes), "mistake") + " in the script; nothing was sent"
	}
	s := units.Plural(r.calls(), "call")
	switch n := r.report.checked; {
	case r.failed() > 0:
		s += fmt.Sprintf(", %d of %s failed", r.failed(), units.Plural(n, "expectation"))
	default:
		s += ", " + units.Plural(n, "expectation")
	}
	if len(r.updates) > 0 {
		s += fmt.Sprintf(", %d updated", len(r.updates))
	}
	return s + ", " + units.Duration(r.took)
}

// problems are the script's messages, by file and line where they have
// one: its mistakes, its failed expectations, the calls whose status
// nobody expected and that did not end ok, and why it could not run.
func (r *testResult) problems() []string {
	switch {
	case r.err != nil:
		var se *scriptError
		if errors.As(r.err, &se) {
			return []string{termtext.Sanitize(se.Error())}
		}
		return []string{r.script.path + ": " + termtext.Sanitize(r.err.Error())}
	case len(r.report.mistakes) > 0:
		out := make([]string, len(r.report.mistakes))
		for i, e := range r.report.mistakes {
			out[i] = termtext.Sanitize(e.Error())
		}
		return out
	}
	var out []string
	for _, st := range r.report.steps {
		out = append(out, r.stepProblems(st)...)
	}
	return append(out, r.notUpdated...)
}

// stepProblems are one call's: each expectation that failed (and was not
// rewritten), or its status when nothing expected it and it was not ok.
func (r *testResult) stepProblems(st scriptStep) []string {
	var out []string
	for _, msg := range st.failures {
		if !r.rewrote(msg) {
			out = append(out, msg)
		}
	}
	if o := st.outcome; !st.owned && o.Status != client.StatusOK {
		out = append(out, fmt.Sprintf("%s:%d: %s ended %s, and the script expects no status: %s",
			r.script.path, st.call.line, termtext.Line(o.Tool), o.Status, whyNotOK(o)))
	}
	return out
}

// rewrote says whether --update rewrote the expectation a failure is about.
func (r *testResult) rewrote(msg string) bool {
	for _, u := range r.updates {
		if strings.HasPrefix(msg, fmt.Sprintf("%s:%d: ", r.script.path, u.Line)) {
			return true
		}
	}
	return false
}

func whyNotOK(o *client.Outcome) string {
	var why string
	switch o.Status {
	case client.StatusRefused:
		why = o.Reason
	case client.StatusToolError:
		if o.Result != nil {
			why = resultTexts(o.Result)
		}
	default:
		why = o.Error
	}
	return termtext.Truncate(termtext.Line(why), maxShown)
}

// suiteSummary are the suite's counts and exit status.
type suiteSummary struct {
	scripts, passed, notRun, calls int
	expectPassed, expectFailed     int
	updated                        int
	code                           int
}

func summarize(results []*testResult) suiteSummary {
	s := suiteSummary{scripts: len(results)}
	for _, r := range results {
		if r == nil {
			s.notRun++
			s.code = worse(s.code, ExitInterrupted)
			continue
		}
		if r.passed() {
			s.passed++
		}
		s.calls += r.calls()
		if r.report != nil {
			s.expectFailed += r.failed()
			s.updated += len(r.updates)
			s.expectPassed += r.report.checked - r.report.unmet
		}
		s.code = worse(s.code, r.code())
	}
	return s
}

func (s suiteSummary) line() string {
	failed := s.scripts - s.passed - s.notRun
	line := fmt.Sprintf("%s: %d passed, %d failed", units.Plural(s.scripts, "script"), s.passed, failed)
	if s.notRun > 0 {
		line += fmt.Sprintf(", %d not run", s.notRun)
	}
	line += fmt.Sprintf("; %s; %s: %d passed, %d failed", units.Plural(s.calls, "call"),
		units.Plural(s.expectPassed+s.expectFailed+s.updated, "expectation"), s.expectPassed, s.expectFailed)
	if s.updated > 0 {
		line += fmt.Sprintf(", %d updated", s.updated)
	}
	return line
}

// printReport prints what failed, script by script in the order they were
// named, what --update changed, and the counts.
func (opts *testOptions) printReport(results []*testResult, sum suiteSummary) {
	f := opts.f
	p := f.pal()
	var b strings.Builder
	for _, r := range results {
		if r == nil {
			continue
		}
		for _, u := range r.updates {
			fmt.Fprintf(&b, "%s %s:%d: expect %s\n  (was: expect %s)\n", p.Warn("updated"), termtext.Line(r.script.path), u.Line,
				termtext.Truncate(termtext.Line(u.To), maxShown), termtext.Truncate(termtext.Line(u.From), maxShown))
		}
		if r.passed() {
			continue
		}
		fmt.Fprintf(&b, "%s %s (%s)\n", p.Bad("FAIL"), termtext.Line(r.script.path), r.counts())
		for _, msg := range r.problems() {
			b.WriteString("  " + termtext.Line(msg) + "\n")
		}
		if r.output != "" && r.err == nil && r.report != nil && len(r.report.mistakes) == 0 {
			// Warnings the run printed (the server changed its hints, broke
			// its output schema): the calls' own failure lines are above.
			for _, l := range strings.Split(strings.TrimRight(r.output, "\n"), "\n") {
				if strings.HasPrefix(l, "mcpsh: warning: ") {
					b.WriteString("  " + l + "\n")
				}
			}
		}
	}
	b.WriteString(sum.line() + "\n")
	f.io.Out.Write([]byte(b.String()))
}

// testJSON is mcpsh test --json.
type testJSON struct {
	Scripts      int              `json:"scripts"`
	Passed       int              `json:"passed"`
	Failed       int              `json:"failed"`
	NotRun       int              `json:"notRun,omitempty"`
	Calls        int              `json:"calls"`
	Expectations expectCounts     `json:"expectations"`
	ExitCode     int              `json:"exitCode"`
	Results      []testScriptJSON `json:"results"`
}

type expectCounts struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Updated int `json:"updated,omitempty"`
}

type testScriptJSON struct {
	File string `json:"file"`
	// Target is the script's target line, as written, when it has one.
	Target       string       `json:"target,omitempty"`
	OK           bool         `json:"ok"`
	ExitCode     int          `json:"exitCode"`
	Calls        int          `json:"calls"`
	Expectations expectCounts `json:"expectations"`
	DurationMS   int64        `json:"durationMs"`
	Problems     []string     `json:"problems,omitempty"`
	Updated      []lineUpdate `json:"updated,omitempty"`
}

func (s suiteSummary) json(results []*testResult) testJSON {
	out := testJSON{Scripts: s.scripts, Passed: s.passed, Failed: s.scripts - s.passed - s.notRun, NotRun: s.notRun, Calls: s.calls,
		Expectations: expectCounts{s.expectPassed, s.expectFailed, s.updated}, ExitCode: s.code, Results: []testScriptJSON{}}
	for _, r := range results {
		if r == nil {
			continue
		}
		j := testScriptJSON{File: r.script.path, Target: r.script.pin, OK: r.passed(), ExitCode: r.code(), Calls: r.calls(),
			DurationMS: r.took.Milliseconds(), Problems: r.problems(), Updated: r.updates}
		if r.report != nil {
			j.Expectations = expectCounts{r.report.checked - r.report.unmet, r.failed(), len(r.updates)}
		}
		out.Results = append(out.Results, j)
	}
	return out
}

// writeJUnitFile writes the suite as JUnit XML: a testsuite per script, a
// testcase per call, a failure per call with the messages of what failed.
func writeJUnitFile(path string, results []*testResult) error {
	report := junit.Suites{Name: "mcpsh test"}
	for _, r := range results {
		if r == nil {
			continue
		}
		s := junit.Suite{Name: r.script.path, File: r.script.path, Time: r.took}
		if r.err != nil || len(r.report.mistakes) > 0 {
			s.Error = strings.Join(r.problems(), "\n")
			report.Suites = append(report.Suites, s)
			continue
		}
		for _, st := range r.report.steps {
			s.Cases = append(s.Cases, junit.Case{
				Name:      fmt.Sprintf("%s (line %d)", st.call.tool.Name, st.call.line),
				Classname: r.script.path, File: r.script.path, Line: st.call.line,
				Time:     msDuration(st.outcome.DurationMS),
				Failures: r.stepProblems(st),
			})
		}
		for _, c := range r.report.notRun {
			s.Cases = append(s.Cases, junit.Case{Name: fmt.Sprintf("%s (line %d)", c.tool.Name, c.line),
				Classname: r.script.path, File: r.script.path, Line: c.line, Skipped: "not run: the script stopped before it"})
		}
		report.Suites = append(report.Suites, s)
	}
	file, err := os.Create(path)
	if err != nil {
		return &usageError{"--junit: " + err.Error()}
	}
	if err := junit.Write(file, report); err != nil {
		file.Close()
		return fmt.Errorf("--junit %s: %w", path, err)
	}
	if err := file.Close(); err != nil {
		return fmt.Errorf("--junit %s: %w", path, err)
	}
	return nil
}

func msDuration(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
