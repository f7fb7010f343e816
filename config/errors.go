package config

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Error is a problem with a configuration file. It names the file and, when known,
// the line and column of a syntax error or the key path of a bad value, so a
// person can go straight to what needs fixing. Callers map it to the usage exit
// code (2) with errors.As.
type Error struct {
	File string
	// Line and Col locate a syntax error (1-based, Col counts characters); 0 when
	// the error is about a value rather than a position.
	Line, Col int
	// Key is the path of the value at fault, such as "mcpServers.fs.trust" or
	// "servers.fs.args[2]"; empty when the whole file is at fault.
	Key string
	Msg string
	// Err is the underlying error, such as one from the operating system.
	Err error
}

// Error renders FILE[:LINE:COL]: [KEY: ]MSG.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
		}
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error, so errors.Is(err, fs.ErrNotExist) works.
func (e *Error) Unwrap() error { return e.Err }

// position converts a byte offset in data to a 1-based line and column, counting
// the column in characters as editors do.
func position(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data)))
	before := data[:off]
	start := bytes.LastIndexByte(before, '\n') + 1
	if start == 0 && bytes.HasPrefix(before, bom) {
		start = len(bom) // editors do not show the byte order mark
	}
	return 1 + bytes.Count(before, []byte("\n")), 1 + utf8.RuneCount(before[start:])
}
