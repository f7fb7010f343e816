// Package iostreams is the one place mcpsh's commands get their input and output
// from, so commands can be tested against buffers with the terminal on or off,
// and nothing writes to os.Stdout behind the tests' back.
package iostreams

import (
	"bytes"
	"io"
	"os"

	"github.com/charmbracelet/colorprofile"
	"golang.org/x/term"
)

// IOStreams are a command's streams and what is known about them.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// StdinTTY, StdoutTTY and StderrTTY say which streams are terminals.
	StdinTTY, StdoutTTY, StderrTTY bool
	// Color enables colour on Out; ColorErr on ErrOut. Each is on only when
	// that stream is a terminal, and neither under NO_COLOR: a terminal on
	// stdout says nothing about stderr piped to a file.
	Color, ColorErr bool
	// Profile and ProfileErr are how many colours Out and ErrOut can show,
	// each detected on its own stream (colorprofile.Detect); they matter
	// only where Color or ColorErr is on. Unknown counts as sixteen colours.
	Profile, ProfileErr colorprofile.Profile
	// Width is the terminal width in columns, or 0 when unknown.
	Width int
}

// CanPrompt reports whether someone can answer a question.
func (s *IOStreams) CanPrompt() bool { return s.StdinTTY && s.StdoutTTY }

// System returns the process's real streams.
func System(getenv func(string) string) *IOStreams {
	s := &IOStreams{
		In:        os.Stdin,
		Out:       os.Stdout,
		ErrOut:    os.Stderr,
		StdinTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		StdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		StderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
	}
	// https://no-color.org: any non-empty value turns colour off.
	colour := getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
	s.Color = s.StdoutTTY && colour
	s.ColorErr = s.StderrTTY && colour
	// A profile is read only where colour is on: piped, a command does not
	// pay for reading the environment and the terminal's kind.
	if s.Color || s.ColorErr {
		env := os.Environ()
		if s.Color {
			s.Profile = colorprofile.Detect(os.Stdout, env)
		}
		if s.ColorErr {
			s.ProfileErr = colorprofile.Detect(os.Stderr, env)
		}
	}
	if s.StdoutTTY {
		if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
			s.Width = w
		}
	}
	return s
}

// Test returns streams backed by buffers, with no terminal.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// SetTTY marks every stream as a terminal of the given width, for tests.
func (s *IOStreams) SetTTY(on bool, width int) {
	s.StdinTTY, s.StdoutTTY, s.StderrTTY = on, on, on
	s.Width = width
}
