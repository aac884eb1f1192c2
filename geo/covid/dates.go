package covid

import (
	"fmt"
	"time"
)

// day is a date as a day number: days since 1970-01-01.
type day int32

// noDay is the day of no date.
const noDay day = -1 << 31

// dayOf returns the day of t's calendar date (in t's location).
func dayOf(t time.Time) day {
	y, m, d := t.Date()
	return day(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// time returns the date as midnight UTC.
func (d day) time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String formats the day as YYYY-MM-DD.
func (d day) String() string {
	if d == noDay {
		return ""
	}
	y, m, dd := d.time().Date()
	if y < 0 || y > 9999 {
		return d.time().Format(time.DateOnly)
	}
	b := [10]byte{'0' + byte(y/1000), '0' + byte(y/100%10), '0' + byte(y/10%10), '0' + byte(y%10), '-',
		'0' + byte(m/10), '0' + byte(m%10), '-', '0' + byte(dd/10), '0' + byte(dd%10)}
	return string(b[:])
}

// Date formats accepted by parseDate and in health.yaml's date_format.
const (
	// formatMDYY is 1/22/20: month and day of 1 or 2 digits, a 2-digit
	// year of the 2000s (JHU's US series).
	formatMDYY = "M/D/YY"
	// formatMDYYYY is 1/22/2020: month and day of 1 or 2 digits, a 4-digit
	// year (JHU's renamed global series, the re-saved NYT file).
	formatMDYYYY = "M/D/YYYY"
	// formatMMDDYYYY is 03/07/2020: exactly 2-digit month and day, 4-digit
	// year (NYC's week_ending).
	formatMMDDYYYY = "MM/DD/YYYY"
	// formatISO is 2020-03-07.
	formatISO = "ISO"
)

// dateParser returns the parser of a date format.
func dateParser(format string) (func(string) (day, error), error) {
	switch format {
	case formatMDYY:
		return func(s string) (day, error) { return parseSlashed(s, 1, 2, false) }, nil
	case formatMDYYYY:
		return func(s string) (day, error) { return parseSlashed(s, 1, 4, false) }, nil
	case formatMMDDYYYY:
		return func(s string) (day, error) { return parseSlashed(s, 2, 4, true) }, nil
	case formatISO:
		return parseISO, nil
	}
	return nil, fmt.Errorf("date format %q: want %s, %s, %s or %s", format, formatMDYY, formatMDYYYY, formatMMDDYYYY, formatISO)
}

// parseDate parses s in one of the date formats (formatMDYY, ...) and
// returns it as midnight UTC. It never panics.
func parseDate(format, s string) (time.Time, error) {
	p, err := dateParser(format)
	if err != nil {
		return time.Time{}, err
	}
	d, err := p(s)
	if err != nil {
		return time.Time{}, err
	}
	return d.time(), nil
}

// parseSlashed parses M/D/Y with month and day of minDigits to 2 digits
// (exactly 2 when exact) and a year of yearDigits digits (2: 20YY).
func parseSlashed(s string, minDigits, yearDigits int, exact bool) (day, error) {
	var parts [3]int
	var lens [3]int
	i := 0
	for _, c := range []byte(s) {
		switch {
		case c == '/':
			i++
			if i > 2 {
				return noDay, fmt.Errorf("date %q: too many parts", s)
			}
		case c >= '0' && c <= '9':
			if lens[i] == 4 {
				return noDay, fmt.Errorf("date %q: too many digits", s)
			}
			parts[i] = parts[i]*10 + int(c-'0')
			lens[i]++
		default:
			return noDay, fmt.Errorf("date %q: not a date", s)
		}
	}
	maxDigits := 2
	if exact {
		minDigits = 2
	}
	if i != 2 || lens[0] < minDigits || lens[0] > maxDigits || lens[1] < minDigits || lens[1] > maxDigits || lens[2] != yearDigits {
		return noDay, fmt.Errorf("date %q: want the form %s", s, slashedForm(yearDigits, exact))
	}
	y := parts[2]
	if yearDigits == 2 {
		y += 2000
	}
	return civil(y, parts[0], parts[1], s)
}

func slashedForm(yearDigits int, exact bool) string {
	switch {
	case exact:
		return formatMMDDYYYY
	case yearDigits == 2:
		return formatMDYY
	}
	return formatMDYYYY
}

// parseISO parses YYYY-MM-DD.
func parseISO(s string) (day, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return noDay, fmt.Errorf("date %q: want YYYY-MM-DD", s)
	}
	num := func(b string) (int, bool) {
		n := 0
		for _, c := range []byte(b) {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(s[:4])
	m, ok2 := num(s[5:7])
	d, ok3 := num(s[8:])
	if !ok1 || !ok2 || !ok3 {
		return noDay, fmt.Errorf("date %q: want YYYY-MM-DD", s)
	}
	return civil(y, m, d, s)
}

// civil returns the day of y-m-d, an error when that is no calendar date.
func civil(y, m, d int, s string) (day, error) {
	if m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2999 {
		return noDay, fmt.Errorf("date %q: out of range", s)
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return noDay, fmt.Errorf("date %q: no such day", s)
	}
	return day(t.Unix() / 86400), nil
}
