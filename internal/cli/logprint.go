package cli

import (
	"fmt"
	"strings"

	"github.com/mcpsh/mcpsh/client"
	"github.com/mcpsh/mcpsh/internal/sessionlog"
	"github.com/mcpsh/mcpsh/internal/termtext"
	"github.com/mcpsh/mcpsh/internal/units"
)

// logPrinter prints entries, a heading before each session's first one.
type logPrinter struct {
	f       *factory
	json    bool
	shown   int
	session string
	server  string
}

func (p *logPrinter) print(e sessionlog.Entry) error {
	p.shown++
	if p.json {
		return writeJSONLine(p.f.io.Out, e)
	}
	out, pal := p.f.io.Out, p.f.pal()
	where := termtext.Line(e.Server) + " · " + termtext.Line(e.Via)
	switch {
	case e.Session != p.session:
		if p.session != "" {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "%s %s · %s\n", pal.Muted("session"), pal.Strong(termtext.Line(e.Session)), where)
	case e.Server+"\x00"+e.Via != p.server:
		// One interactive session can call several servers.
		fmt.Fprintf(out, "%s %s\n", pal.Muted("server"), where)
	}
	p.session, p.server = e.Session, e.Server+"\x00"+e.Via
	p.entry(e)
	return nil
}

// entry prints one call: time, status, tool, class, attempts, duration,
// who approved, and the open-world mark; the reason or error on a second line.
func (lp *logPrinter) entry(e sessionlog.Entry) {
	out, p := lp.f.io.Out, lp.f.pal()
	status := string(e.Status)
	switch e.Status {
	case client.StatusOK:
		status = p.Good(termtext.Pad(status, 10))
	case client.StatusToolError, client.StatusRefused:
		status = p.Warn(termtext.Pad(status, 10))
	default:
		status = p.Bad(termtext.Pad(status, 10))
	}
	mark := "  "
	if e.OpenWorld {
		mark = p.OpenWorld("◆ ")
	}
	who := ""
	if e.ApprovedBy != "" {
		who = " · approved by " + string(e.ApprovedBy)
	}
	fmt.Fprintf(out, "%s %s %s%s %s · %s · %s · %s%s\n",
		e.Time.Local().Format("15:04:05"), status, mark, termtext.Line(e.Tool),
		p.Muted(termtext.Line(e.Title)), p.Class(e.Class, string(e.Class)), units.Plural(len(e.Attempts), "attempt"), units.MS(e.DurationMS), who)
	var notes []string
	if e.Host != nil {
		notes = append(notes, "proxied for "+termtext.Truncate(termtext.Line(strings.TrimSpace(e.Host.Name+" "+e.Host.Version)), 60))
	}
	if e.OpenWorld {
		notes = append(notes, "open-world")
	}
	for _, at := range e.Attempts {
		if at.Failure == "" {
			continue
		}
		n := fmt.Sprintf("attempt %d: %s", at.N, at.Failure)
		if at.WaitMS > 0 {
			n += fmt.Sprintf(", waited %.1fs", at.WaitMS/1000)
		}
		notes = append(notes, n)
	}
	if len(notes) > 0 {
		fmt.Fprintf(out, "         %s\n", p.Muted(strings.Join(notes, "; ")))
	}
	if e.Error != "" {
		fmt.Fprintf(out, "         %s\n", termtext.Line(e.Error))
	}
}
