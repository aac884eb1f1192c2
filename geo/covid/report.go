package covid

import (
	"fmt"
	"sort"
	"strings"
)

// Report says what Build read and what it did with the rows that did not
// become records of their own.
type Report struct {
	// Inputs are the inputs read, in configuration order.
	Inputs []InputReport
	// LeftOut are rows counted in no record: no country (cruise ships,
	// Olympic Games), no state.
	LeftOut []Note
	// NotAreas are rows that count in their parent's sum but are no
	// record: JHU's Unassigned and Out of <state> rows, areas without a
	// FIPS code (Kansas City, the Utah health districts, ...), province
	// rows such as Unknown or Repatriated Travellers, NYC's city and
	// borough columns.
	NotAreas []Note
	// Pooled are counties whose cases JHU files under another area: their
	// case fields are omitted and included_in names that area's record.
	Pooled []Note
	// Records counts the records per admin level.
	Records [9]int
}

// InputReport describes one input read by Build.
type InputReport struct {
	// Name and Source are the input's and its source's names.
	Name, Source string
	// File is the path read, or "snapshot" for an input taken from the
	// committed snapshot.
	File string
	// Rows is the number of series read (one per area and measure).
	Rows int
	// First and Last are the first and last dates of the input's series,
	// YYYY-MM-DD.
	First, Last string
}

// Note is one row of the report.
type Note struct {
	// Row describes the row: input, line and keys.
	Row string
	// Reason says what was done with it.
	Reason string
}

func (r *Report) note(list *[]Note, row *rawRow, format string, args ...any) {
	*list = append(*list, Note{Row: row.label(), Reason: fmt.Sprintf(format, args...)})
}

func (r *Report) sort() {
	for _, l := range [][]Note{r.LeftOut, r.NotAreas, r.Pooled} {
		sort.SliceStable(l, func(i, j int) bool { return l[i].Row < l[j].Row })
	}
}

// String summarises the report in a few lines.
func (r *Report) String() string {
	var b strings.Builder
	for _, in := range r.Inputs {
		fmt.Fprintf(&b, "input %s (%s): %d series %s..%s from %s\n", in.Name, in.Source, in.Rows, in.First, in.Last, in.File)
	}
	fmt.Fprintf(&b, "records per level: ")
	for lv, n := range r.Records {
		if n > 0 {
			fmt.Fprintf(&b, "admin%d %d ", lv, n)
		}
	}
	fmt.Fprintf(&b, "\nleft out %d series, counted in a parent only %d, pooled counties %d\n", len(r.LeftOut), len(r.NotAreas), len(r.Pooled))
	for _, n := range r.LeftOut {
		fmt.Fprintf(&b, "  left out: %s: %s\n", n.Row, n.Reason)
	}
	return b.String()
}
