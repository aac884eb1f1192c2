// Package progress shows the stages of a long command (geosvc build): on
// a terminal one live line per stage with a bar and a percentage where
// the stage's progress is known, and its elapsed time; elsewhere (CI logs,
// pipes) one plain line when a stage starts and one when it ends.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Fraction reports how far a stage is, 0..1; ok is false while unknown.
type Fraction func() (f float64, ok bool)

// Printer writes stage progress to one writer.
type Printer struct {
	w        io.Writer
	live     bool
	interval time.Duration
	now      func() time.Time
	// mem reads the process's peak resident set since the last reset, in
	// bytes; ok is false where it cannot be read. resetPeak starts a new
	// peak (at each stage's start).
	mem       func() (peak int64, ok bool)
	resetPeak func()
	// usage reads the process's CPU seconds and major page faults so
	// far: a stage's own are the difference from its start.
	usage func() (cpu float64, majflt int64, ok bool)
}

// New returns a printer on f: live lines when f is a terminal, plain lines
// otherwise.
func New(f *os.File) *Printer {
	return NewWriter(f, isTerminal(f))
}

// NewWriter returns a printer on w, with live lines when live is set.
func NewWriter(w io.Writer, live bool) *Printer {
	return &Printer{w: w, live: live, interval: 200 * time.Millisecond, now: time.Now, mem: peakRSS, resetPeak: resetPeakRSS, usage: usage}
}

// isTerminal reports whether f is a character device (a terminal), not a
// file or a pipe.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Stage is one running stage.
type Stage struct {
	p     *Printer
	name  string
	frac  Fraction
	start time.Time
	// cpu and majflt are the process's CPU seconds and major faults at
	// the start (usageOK: known).
	cpu     float64
	majflt  int64
	usageOK bool
	stop    chan struct{}
	done    sync.WaitGroup
	once    sync.Once
}

// Start begins a stage named name; frac, if not nil, tells how far it is.
// End it with Done.
func (p *Printer) Start(name string, frac Fraction) *Stage {
	p.resetPeak()
	s := &Stage{p: p, name: name, frac: frac, start: p.now(), stop: make(chan struct{})}
	if p.usage != nil {
		s.cpu, s.majflt, s.usageOK = p.usage()
	}
	if !p.live {
		fmt.Fprintf(p.w, "%s ...\n", name)
		return s
	}
	s.draw()
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		t := time.NewTicker(p.interval)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				s.draw()
			}
		}
	}()
	return s
}

// Done ends the stage: its line shows the elapsed time and, where the
// system tells them, the CPU time the process spent in the stage (above
// the elapsed time when several cores worked; well below it when the
// stage waited), the pages it read from disk on faults (major faults:
// memory-mapped files and memory pressure) and the peak resident memory
// of the process during the stage (Linux); what comes after (a report)
// starts on a new line. It returns the elapsed time.
func (s *Stage) Done() time.Duration {
	d := s.p.now().Sub(s.start)
	s.once.Do(func() {
		close(s.stop)
		s.done.Wait()
		mem := ""
		if s.usageOK {
			if cpu, majflt, ok := s.p.usage(); ok {
				mem = fmt.Sprintf(", CPU %v, %d major faults", time.Duration((cpu-s.cpu)*1e9).Round(time.Millisecond), majflt-s.majflt)
			}
		}
		if peak, ok := s.p.mem(); ok {
			mem += fmt.Sprintf(", peak RSS %d MiB", peak>>20)
		}
		if s.p.live {
			fmt.Fprintf(s.p.w, "\r\033[K%s %s 100%% %v%s\n", s.name, bar(1), d.Round(time.Millisecond), mem)
		} else {
			fmt.Fprintf(s.p.w, "%s done in %v%s\n", s.name, d.Round(time.Millisecond), mem)
		}
	})
	return d
}

// draw rewrites the stage's live line.
func (s *Stage) draw() {
	el := s.p.now().Sub(s.start).Round(100 * time.Millisecond)
	if s.frac != nil {
		if f, ok := s.frac(); ok {
			f = min(max(f, 0), 1)
			fmt.Fprintf(s.p.w, "\r\033[K%s %s %3.0f%% %v", s.name, bar(f), f*100, el)
			return
		}
	}
	spin := `|/-\`[int(el/(100*time.Millisecond))%4]
	fmt.Fprintf(s.p.w, "\r\033[K%s %c %v", s.name, spin, el)
}

// barWidth is the number of cells of a bar.
const barWidth = 24

// bar returns a text bar filled to f (0..1).
func bar(f float64) string {
	n := int(f*barWidth + 0.5)
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", barWidth-n) + "]"
}
