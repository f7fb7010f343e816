// Package junit writes test results as JUnit XML, the format CI systems
// (GitHub Actions reporters, GitLab, Jenkins, CircleCI) read: a testsuite
// per script, a testcase per call, a failure per unmet expectation.
//
// The format has no standard; this follows what those readers share (the
// Ant/Surefire shape): testsuites > testsuite > testcase > failure, with
// counts and times in seconds on each level.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// Suites is the whole report.
type Suites struct {
	Name   string
	Suites []Suite
}

// Suite is one script.
type Suite struct {
	Name string
	// File is the script's path, for readers that link to it.
	File  string
	Time  time.Duration
	Cases []Case
	// Error, when set, says the suite could not run (a script that does
	// not parse, a server that cannot be reached): one error element.
	Error string
}

// Case is one call and its expectations.
type Case struct {
	Name      string
	Classname string
	File      string
	Line      int
	Time      time.Duration
	// Failures are the expectations that failed, each with its message
	// ("check.mcpsh:8: expected …, got …").
	Failures []string
	// Skipped says why the call was not made, when it was not.
	Skipped string
	// Output is what the call printed, kept as system-out.
	Output string
}

type xmlSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr,omitempty"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Skipped  int        `xml:"skipped,attr"`
	Time     string     `xml:"time,attr"`
	Suites   []xmlSuite `xml:"testsuite"`
}

type xmlSuite struct {
	Name     string    `xml:"name,attr"`
	File     string    `xml:"file,attr,omitempty"`
	Tests    int       `xml:"tests,attr"`
	Failures int       `xml:"failures,attr"`
	Errors   int       `xml:"errors,attr"`
	Skipped  int       `xml:"skipped,attr"`
	Time     string    `xml:"time,attr"`
	Cases    []xmlCase `xml:"testcase"`
	Error    *xmlText  `xml:"error,omitempty"`
}

type xmlCase struct {
	Name      string    `xml:"name,attr"`
	Classname string    `xml:"classname,attr"`
	File      string    `xml:"file,attr,omitempty"`
	Line      int       `xml:"line,attr,omitempty"`
	Time      string    `xml:"time,attr"`
	Failures  []xmlText `xml:"failure"`
	Skipped   *xmlText  `xml:"skipped,omitempty"`
	Output    string    `xml:"system-out,omitempty"`
}

type xmlText struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// Write writes the report as indented XML with its declaration. A
// server's text may hold any character: encoding/xml writes those XML 1.0
// cannot hold as U+FFFD, so the file stays readable (the test holds it to
// that).
func Write(w io.Writer, r Suites) error {
	out := xmlSuites{Name: r.Name}
	var total time.Duration
	for _, s := range r.Suites {
		xs := xmlSuite{Name: s.Name, File: s.File, Time: seconds(s.Time)}
		if s.Error != "" {
			xs.Errors = 1
			xs.Error = &xmlText{Message: firstLine(s.Error), Type: "error", Text: s.Error}
		}
		for _, c := range s.Cases {
			xc := xmlCase{Name: c.Name, Classname: c.Classname, File: c.File, Line: c.Line, Time: seconds(c.Time), Output: c.Output}
			for _, f := range c.Failures {
				xc.Failures = append(xc.Failures, xmlText{Message: firstLine(f), Type: "expectation", Text: f})
			}
			if len(c.Failures) > 0 {
				xs.Failures++
			}
			if c.Skipped != "" {
				xc.Skipped = &xmlText{Message: c.Skipped}
				xs.Skipped++
			}
			xs.Cases = append(xs.Cases, xc)
		}
		xs.Tests = len(s.Cases)
		out.Tests += xs.Tests
		out.Failures += xs.Failures
		out.Errors += xs.Errors
		out.Skipped += xs.Skipped
		total += s.Time
		out.Suites = append(out.Suites, xs)
	}
	out.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	e := xml.NewEncoder(w)
	e.Indent("", "  ")
	if err := e.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
