package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeClock advances by step on every reading.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time { c.t = c.t.Add(c.step); return c.t }

func TestStageLines(t *testing.T) {
	tests := []struct {
		name string
		live bool
		frac Fraction
		want []string // substrings, in order
		took time.Duration
	}{
		{"plain", false, nil, []string{"read osm ...\n", "read osm done in 1.5s\n"}, 1500 * time.Millisecond},
		{"plain ignores fraction", false, func() (float64, bool) { return 0.5, true }, []string{"read osm ...\n", "read osm done in 1.5s\n"}, 1500 * time.Millisecond},
		{"live with fraction", true, func() (float64, bool) { return 0.5, true },
			[]string{"\r\033[Kread osm [############............]  50% 1.5s", "\r\033[Kread osm [########################] 100% 3s\n"}, 3 * time.Second},
		{"live unknown", true, func() (float64, bool) { return 0, false },
			[]string{"\r\033[Kread osm \\ 1.5s", "100% 3s\n"}, 3 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := NewWriter(&buf, tc.live)
			p.interval = time.Hour // only the first and last lines
			clk := &fakeClock{t: time.Unix(0, 0), step: 1500 * time.Millisecond}
			p.now = clk.now
			p.mem = func() (int64, bool) { return 0, false }
			p.usage = func() (float64, int64, bool) { return 0, 0, false }
			s := p.Start("read osm", tc.frac)
			if d := s.Done(); d != tc.took {
				t.Errorf("Done = %v, want %v", d, tc.took)
			}
			s.Done() // a second Done writes nothing
			out := buf.String()
			rest := out
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("output %q lacks %q (in order)", out, w)
				}
				rest = rest[i+len(w):]
			}
			if rest != "" {
				t.Errorf("output %q has %q after the last line", out, rest)
			}
		})
	}
}

// TestStageMemory: a stage's line ends with the CPU time and major faults
// of the stage (the difference of the process's counters from its start)
// and the peak resident memory the system reports for it, reset at its
// start.
func TestStageMemory(t *testing.T) {
	for _, tc := range []struct {
		name  string
		usage func() (float64, int64, bool)
		want  string
	}{
		{"usage known", nil, "contract ...\ncontract done in 1s, CPU 1.75s, 1200 major faults, peak RSS 1536 MiB\n"},
		{"usage unknown", func() (float64, int64, bool) { return 0, 0, false }, "contract ...\ncontract done in 1s, peak RSS 1536 MiB\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := NewWriter(&buf, false)
			clk := &fakeClock{t: time.Unix(0, 0), step: time.Second}
			p.now = clk.now
			resets := 0
			p.resetPeak = func() { resets++ }
			p.mem = func() (int64, bool) { return 1536 << 20, true }
			calls := 0
			p.usage = func() (float64, int64, bool) {
				calls++
				if calls == 1 {
					return 10.5, 300, true
				}
				return 12.25, 1500, true
			}
			if tc.usage != nil {
				p.usage = tc.usage
			}
			p.Start("contract", nil).Done()
			if got := buf.String(); got != tc.want || resets != 1 {
				t.Errorf("output %q (resets %d), want %q (1 reset)", got, resets, tc.want)
			}
		})
	}
}

// TestUsageMatchesProcStat: on Linux the CPU time and major faults usage
// reads (getrusage) agree with the kernel's other account of the process,
// /proc/self/stat's utime + stime (clock ticks of 1/100 s) and majflt,
// read just after, once the process has done some work.
func TestUsageMatchesProcStat(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/stat is Linux's")
	}
	x := 0
	for i := 0; i < 3e8; i++ {
		x += i
	}
	cpu, majflt, ok := usage()
	if !ok {
		t.Fatal("usage unknown on Linux")
	}
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatal(err)
	}
	// Fields after the command name in parentheses: state is field 3,
	// majflt 12, utime 14, stime 15 (proc(5)).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	num := func(field int) float64 {
		v, err := strconv.ParseFloat(f[field-3], 64)
		if err != nil {
			t.Fatalf("/proc/self/stat field %d: %v", field, err)
		}
		return v
	}
	const ticks = 100.0 // USER_HZ on Linux
	stat := (num(14) + num(15)) / ticks
	if cpu < 0.05 || cpu < stat-0.02 || cpu > stat+0.03 {
		t.Errorf("usage CPU %.3f s, /proc/self/stat %.2f s (x %d)", cpu, stat, x)
	}
	if got := num(12); float64(majflt) > got {
		t.Errorf("usage major faults %d, /proc/self/stat %v (read after it)", majflt, got)
	}
}

func TestParseVmHWM(t *testing.T) {
	status := "Name:\tgeosvc\nVmPeak:\t  900 kB\nVmHWM:\t  123456 kB\nVmRSS:\t 100 kB\n"
	if v, ok := parseVmHWM([]byte(status)); !ok || v != 123456<<10 {
		t.Errorf("parseVmHWM = %d %v", v, ok)
	}
	if _, ok := parseVmHWM([]byte("Name: x\n")); ok {
		t.Error("no VmHWM line: ok")
	}
	if v, ok := peakRSS(); runtime.GOOS == "linux" && (!ok || v <= 0) {
		t.Errorf("peakRSS on Linux = %d %v", v, ok)
	}
}

func TestBar(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "[" + strings.Repeat(".", 24) + "]"},
		{0.25, "[######" + strings.Repeat(".", 18) + "]"},
		{1, "[" + strings.Repeat("#", 24) + "]"},
	} {
		if got := bar(tc.f); got != tc.want {
			t.Errorf("bar(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

func TestFileRead(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("FileRead reads /proc/self/fdinfo (Linux)")
	}
	path := filepath.Join(t.TempDir(), "extract.osm.pbf")
	if err := os.WriteFile(path, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	frac := FileRead(path)
	if _, ok := frac(); ok {
		t.Fatal("fraction known before the file is opened")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, n := range []int{0, 250, 750} {
		if n > 0 {
			if _, err := f.Read(make([]byte, n-int(must(f.Seek(0, 1))))); err != nil {
				t.Fatal(err)
			}
		}
		got, ok := frac()
		if !ok || got != float64(n)/1000 {
			t.Errorf("after %d of 1000 bytes: fraction %v, %v; want %v", n, got, ok, float64(n)/1000)
		}
	}
}

func must(v int64, err error) int64 {
	if err != nil {
		panic(err)
	}
	return v
}
