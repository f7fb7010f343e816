package junit

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"
)

// What a CI reader reads back: the counts, each case, the failure with its
// message and file:line; and a server's control characters do not make the
// file unreadable.
func TestWriteParsesBack(t *testing.T) {
	r := Suites{Name: "mcpsh test", Suites: []Suite{
		{Name: "notes.mcpsh", File: "mcpsh-tests/notes.mcpsh", Time: 1500 * time.Millisecond, Cases: []Case{
			{Name: "line 1: get_note id=1", Classname: "notes.mcpsh", File: "mcpsh-tests/notes.mcpsh", Line: 1, Time: 20 * time.Millisecond},
			{Name: "line 3: get_note id=2", Classname: "notes.mcpsh", Line: 3, Failures: []string{
				"notes.mcpsh:4: expected text \"Shopping\", got \"Bills\x1b[31m\x00\"\nmore"}},
		}},
		{Name: "broken.mcpsh", Error: "broken.mcpsh:2: unknown expectation \"expect colour\""},
	}}
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no declaration:\n%s", buf.String())
	}
	var got xmlSuites
	if err := xml.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("does not parse: %v\n%s", err, buf.String())
	}
	if got.Tests != 2 || got.Failures != 1 || got.Errors != 1 || len(got.Suites) != 2 || got.Time != "1.500" {
		t.Fatalf("counts: %+v", got)
	}
	s := got.Suites[0]
	if s.Tests != 2 || s.Failures != 1 || len(s.Cases) != 2 || s.Cases[1].Line != 3 || len(s.Cases[1].Failures) != 1 {
		t.Fatalf("suite: %+v", s)
	}
	f := s.Cases[1].Failures[0]
	if f.Message != "notes.mcpsh:4: expected text \"Shopping\", got \"Bills\uFFFD[31m\uFFFD\"" || !strings.HasSuffix(f.Text, "\nmore") {
		t.Errorf("failure: %+v", f)
	}
	if got.Suites[1].Error == nil || !strings.Contains(got.Suites[1].Error.Message, "unknown expectation") {
		t.Errorf("error suite: %+v", got.Suites[1])
	}
}
