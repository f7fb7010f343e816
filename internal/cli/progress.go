package cli

import (
	"fmt"
	"sync"
	"time"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/termtext"
)

// progressLine shows a call in flight on a terminal's stderr: a spinner and the
// elapsed time once a call has taken a moment, and the server's progress when it
// sends any. Progress arrives on SDK goroutines, which must not block on a
// terminal write, so update only stores it and a ticker draws.
type progressLine struct {
	mu     sync.Mutex
	last   *client.Progress
	status string
	stop   chan struct{}
	wg     sync.WaitGroup
}

// progressDelay keeps quick calls from flashing a spinner.
const progressDelay = 700 * time.Millisecond

func (a *app) newProgress(tool string) *progressLine {
	p := &progressLine{}
	if !a.io.StderrTTY {
		return p
	}
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		start := time.Now()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		frames := []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
		drawn := false
		for i := 0; ; i++ {
			select {
			case <-p.stop:
				if drawn {
					fmt.Fprint(a.io.ErrOut, "\r\x1b[K")
				}
				return
			case <-tick.C:
			}
			el := time.Since(start)
			if el < progressDelay {
				continue
			}
			line := fmt.Sprintf("%c %s %.1fs%s", frames[i%len(frames)], tool, el.Seconds(), p.describe())
			width := a.io.Width
			if width <= 0 {
				width = 80
			}
			fmt.Fprint(a.io.ErrOut, "\r\x1b[K"+termtext.Truncate(line, width-1))
			drawn = true
		}
	}()
	return p
}

func (p *progressLine) update(pr client.Progress) {
	p.mu.Lock()
	p.last = &pr
	p.mu.Unlock()
}

// setStatus shows a line such as a retry's wait in place of the progress.
func (p *progressLine) setStatus(s string) {
	p.mu.Lock()
	p.status = s
	p.mu.Unlock()
}

func (p *progressLine) describe() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := ""
	if pr := p.last; pr != nil {
		if pr.Total > 0 {
			s = fmt.Sprintf(" %.0f/%.0f", pr.Progress, pr.Total)
		} else {
			s = fmt.Sprintf(" %.0f", pr.Progress)
		}
		if pr.Message != "" {
			s += " " + termtext.Line(pr.Message)
		}
	}
	if p.status != "" {
		s += " · " + p.status
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
