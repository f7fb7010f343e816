package cli

import (
	"fmt"
	"sync"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// progressLine owns stderr while a batch call runs. On a terminal it draws a
// spinner and the elapsed time once the call has taken a moment, and the
// server's progress when it sends any; messages (retries) print above it.
// Progress arrives on SDK goroutines, which must not block on a terminal
// write, so update only stores it and a ticker draws.
type progressLine struct {
	io   ioWriter
	tool string
	mu   sync.Mutex // guards last and every write to stderr
	last *client.Progress
	// drawn is true while a status line is on the screen.
	drawn bool
	stop  chan struct{}
	wg    sync.WaitGroup
}

type ioWriter struct {
	w     interface{ Write([]byte) (int, error) }
	tty   bool
	width int
}

// progressDelay keeps quick calls from flashing a spinner.
const progressDelay = 700 * time.Millisecond

func (f *factory) newProgress(tool string) *progressLine {
	p := &progressLine{io: ioWriter{f.io.ErrOut, f.io.StderrTTY, f.io.Width}, tool: tool}
	if !p.io.tty {
		return p
	}
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go p.run()
	return p
}

func (p *progressLine) run() {
	defer p.wg.Done()
	start := time.Now()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	frames := []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
	for i := 0; ; i++ {
		select {
		case <-p.stop:
			p.mu.Lock()
			p.clear()
			p.mu.Unlock()
			return
		case <-tick.C:
		}
		el := time.Since(start)
		if el < progressDelay {
			continue
		}
		p.mu.Lock()
		line := fmt.Sprintf("%c %s %.1fs%s", frames[i%len(frames)], p.tool, el.Seconds(), p.describe())
		width := p.io.width
		if width <= 0 {
			width = 80
		}
		fmt.Fprint(p.io.w, "\r\x1b[K"+termtext.Truncate(line, width-1))
		p.drawn = true
		p.mu.Unlock()
	}
}

func (p *progressLine) clear() {
	if p.drawn {
		fmt.Fprint(p.io.w, "\r\x1b[K")
		p.drawn = false
	}
}

func (p *progressLine) update(pr client.Progress) {
	p.mu.Lock()
	p.last = &pr
	p.mu.Unlock()
}

// println prints a message on its own line, above the status line.
func (p *progressLine) println(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintln(p.io.w, msg)
}

// describe renders the last progress; the caller holds mu.
func (p *progressLine) describe() string {
	pr := p.last
	if pr == nil {
		return ""
	}
	s := fmt.Sprintf(" %.0f", pr.Progress)
	if pr.Total > 0 {
		s = fmt.Sprintf(" %.0f/%.0f", pr.Progress, pr.Total)
	}
	if pr.Message != "" {
		s += " " + termtext.Line(pr.Message)
	}
	return s
}

func (p *progressLine) done() {
	if p.stop != nil {
		close(p.stop)
		p.wg.Wait()
		p.stop = nil
	}
}
