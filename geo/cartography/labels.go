package cartography

import (
	"image"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/mapdata"
	"github.com/geosvc/geosvc/geo/render"
)

// LabelType returns the MapLabelType of a place: Capital for a capital;
// City500K .. CitySmall for a city, town, village or hamlet by
// population (without one: a city counts as City50K, a town City5K, a
// village City1K, a hamlet CitySmall); for a suburb, quarter or
// neighbourhood DistrictNumbered when its name is a number or ordinal
// (NumberedName), else District100K .. DistrictSmall by population
// (without one: a suburb counts as District5K, a quarter District1K, a
// neighbourhood DistrictSmall).
func LabelType(p mapdata.Place) string {
	district := p.Kind >= mapdata.Suburb
	if !district && p.Capital {
		return "Capital"
	}
	if district && NumberedName(p.Name) {
		return "DistrictNumbered"
	}
	pop := p.Population
	if pop <= 0 {
		pop = map[mapdata.PlaceKind]int{mapdata.City: 50_000, mapdata.Town: 5_000, mapdata.Village: 1_000, mapdata.Suburb: 5_000, mapdata.Quarter: 1_000}[p.Kind]
	}
	prefix := "City"
	if district {
		prefix = "District"
	}
	for _, t := range []struct {
		n   int
		cls string
	}{{500_000, "500K"}, {100_000, "100K"}, {50_000, "50K"}, {20_000, "20K"}, {5_000, "5K"}, {1_000, "1K"}} {
		if pop >= t.n && !(district && t.n == 500_000) {
			return prefix + t.cls
		}
	}
	return prefix + "Small"
}

// ordinalWords are the English ordinals a numbered district's name may
// begin with.
var ordinalWords = map[string]bool{"first": true, "second": true, "third": true, "fourth": true, "fifth": true, "sixth": true,
	"seventh": true, "eighth": true, "ninth": true, "tenth": true, "eleventh": true, "twelfth": true}

// NumberedName reports whether a district's name is a number or an
// ordinal: one of its words is all digits ("District 5", "Ward 12"), a
// number with an ordinal suffix ("3rd Ward", "7e", "10th", "2nd"), or an
// English ordinal word ("Second District"), and no other word is longer
// than "District" is; so "Fifth Avenue Heights" is not one but "1st
// District" and "16" are.
func NumberedName(name string) bool {
	words := strings.FieldsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || r == '-' || r == '.' })
	if len(words) == 0 || len(words) > 3 {
		return false
	}
	numbered := false
	for _, w := range words {
		lw := strings.ToLower(w)
		digits := strings.TrimRightFunc(lw, unicode.IsLetter)
		suffix := lw[len(digits):]
		switch {
		case digits != "" && allDigits(digits) && (suffix == "" || suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th" || suffix == "e" || suffix == "er" || suffix == "ème"):
			numbered = true
		case ordinalWords[lw]:
			numbered = true
		case lw == "district" || lw == "ward" || lw == "arrondissement" || lw == "bezirk" || lw == "sector" || lw == "precinct":
		default:
			return false
		}
	}
	return numbered
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// labelRank orders label types by priority.
func labelRank(t string) int {
	for i, n := range labelPriority {
		if n == t {
			return i
		}
	}
	return len(labelPriority)
}

// minRank is the lowest-priority label type a map of mpp metres per
// pixel writes.
func minRank(mpp float64) int {
	switch {
	case mpp > 1500:
		return labelRank("City100K")
	case mpp > 400:
		return labelRank("City20K")
	case mpp > 120:
		return labelRank("City1K")
	case mpp > 40:
		return labelRank("District20K")
	default:
		return len(labelPriority)
	}
}

// candidate is a label waiting to be placed.
type candidate struct {
	rank  int
	text  string
	typ   string // legend item: a label type, or "road:TYPE"
	x, y  float64
	dot   float64 // radius of the place's dot (0: none, centred text)
	style render.TextStyle
	pop   int
	road  bool
	fit   float64 // a road name's longest width in pixels
	// path is the pixel polyline a road name is written along (the
	// road's longest visible piece); nil: level text.
	path [][2]float64
}

// labels places the scale bar, then the place and road names by
// priority, each where it overlaps nothing placed before.
func (m *mapDraw) labels() error {
	placed := append([]image.Rectangle(nil), m.req.Reserved...)
	if m.req.ScaleBar {
		box, err := m.scaleBar()
		if err != nil {
			return err
		}
		placed = append(placed, box)
		m.drawn["label:ScaleBar"] = true
	}
	var cs []candidate
	if m.req.Labels {
		cs = m.candidates()
	}
	if m.req.Legend {
		// The legend's box, with a row for every label type that may be
		// written, is reserved before any label is placed; the legend
		// drawn after the labels lists those written and is no larger.
		var types []string
		if m.drawn["label:ScaleBar"] {
			types = append(types, "ScaleBar")
		}
		for _, cd := range cs {
			if !cd.road && !slices.Contains(types, cd.typ) {
				types = append(types, cd.typ)
			}
		}
		if lg, err := m.legendLayout(m.drawnOf("bg:", BackgroundTypes), m.drawnOf("road:", RoadTypes), orderedLabels(types)); err != nil {
			return err
		} else if lg != nil {
			m.legendBox = lg.Box
			placed = append(placed, lg.Box)
		}
	}
	if !m.req.Labels {
		return nil
	}
	return m.place(cs, placed)
}

// candidates returns the place and road names to write, by priority.
func (m *mapDraw) candidates() []candidate {
	var cs []candidate
	pr := m.c.View.Projector()
	lowest := minRank(m.lmpp)
	var places []mapdata.Place
	if m.src.Layer != nil {
		places = m.src.Layer.Places(m.b)
	}
	if m.src.Places != nil {
		places = append(places, m.src.Places(m.b)...)
	}
	seen := map[string]bool{}
	for _, p := range places {
		t := LabelType(p)
		rank := labelRank(t)
		key := p.Name + "|" + strconv.FormatFloat(math.Round(p.Point[0]*100), 'f', 0, 64) + strconv.FormatFloat(math.Round(p.Point[1]*100), 'f', 0, 64)
		if rank > lowest || p.Name == "" || seen[key] {
			continue
		}
		seen[key] = true
		it := m.st.Label[t]
		if it.Text.Color.A == 0 || it.Text.Size <= 0 {
			continue
		}
		x, y := pr.Pixel(p.Point)
		dot := 0.0
		if p.Kind < mapdata.Suburb {
			dot = math.Max(2*m.k, it.Text.Size/5)
		}
		cs = append(cs, candidate{rank: rank, text: p.Name, typ: t, x: x, y: y, dot: dot, style: it.Text, pop: p.Population})
	}
	cs = append(cs, m.roadLabels()...)
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].rank != cs[j].rank {
			return cs[i].rank < cs[j].rank
		}
		return cs[i].pop > cs[j].pop
	})
	return cs
}

// place writes the candidates by priority, each where it overlaps
// nothing placed before.
func (m *mapDraw) place(cs []candidate, placed []image.Rectangle) error {
	view := image.Rect(0, 0, m.c.View.W, m.c.View.H)
	free := func(r image.Rectangle) bool {
		if !r.In(view) {
			return false
		}
		for _, q := range placed {
			if r.Overlaps(q) {
				return false
			}
		}
		return true
	}
	for _, cd := range cs {
		if len(cd.path) > 1 {
			// A road's name along the road; level, as below, where the
			// road bends too much or the place is taken.
			a, ok, err := m.c.LayoutAlong(cd.text, cd.path, cd.style)
			if err != nil {
				return err
			}
			if ok && free(a.Box) {
				m.c.DrawAlong(a)
				placed = append(placed, a.Box)
				m.placed = append(m.placed, Placed{Text: cd.text, Type: cd.typ, Box: a.Box})
				continue
			}
		}
		box0, err := m.c.TextBox(cd.text, 0, 0, cd.style)
		if err != nil {
			return err
		}
		w, asc, desc := box0.Dx(), -box0.Min.Y, box0.Max.Y
		if cd.road && float64(w) > cd.fit {
			continue
		}
		xi, yi := int(math.Round(cd.x)), int(math.Round(cd.y))
		// Baseline origins to try: centred for districts and roads; right,
		// left, above and below a town's dot.
		var tries []image.Point
		if cd.dot == 0 {
			tries = []image.Point{{xi - w/2, yi + (asc-desc)/2}}
			if cd.road {
				gap := int(math.Round(4 * m.k))
				tries = append(tries, image.Point{xi - w/2, yi - gap - desc}, image.Point{xi - w/2, yi + gap + asc})
			}
		} else {
			g := int(math.Ceil(cd.dot)) + int(math.Round(2*m.k))
			tries = []image.Point{{xi + g, yi + (asc-desc)/2}, {xi - g - w, yi + (asc-desc)/2}, {xi - w/2, yi - g - desc}, {xi - w/2, yi + g + asc}}
		}
		dotBox := image.Rect(xi-int(math.Ceil(cd.dot)), yi-int(math.Ceil(cd.dot)), xi+int(math.Ceil(cd.dot))+1, yi+int(math.Ceil(cd.dot))+1)
		if cd.dot > 0 && !free(dotBox) {
			continue
		}
		for _, o := range tries {
			box := box0.Add(o)
			if !free(box) {
				continue
			}
			if cd.dot > 0 {
				m.c.Dot(m.c.View.Point(cd.x, cd.y), cd.dot, cd.style.Color)
				placed = append(placed, dotBox)
			}
			if _, err := m.c.Text(cd.text, o.X, o.Y, cd.style); err != nil {
				return err
			}
			placed = append(placed, box)
			m.placed = append(m.placed, Placed{Text: cd.text, Type: cd.typ, Box: box})
			if !cd.road {
				m.drawn["label:"+cd.typ] = true
			}
			break
		}
	}
	return nil
}

// Placed is a label written on a map.
type Placed struct {
	Text string
	// Type is its MapLabelType, or "road:" and the road's MapRoadType.
	Type string
	// Box is its pixel box, halo included.
	Box image.Rectangle
}

// roadLabelTypes are the road types whose names are written, by
// priority, and the largest metres per pixel at which they are.
var roadLabelTypes = []struct {
	typ    string
	maxMPP float64
}{
	{"Motorway", 60}, {"DualCarriageWay", 40}, {"DualCarriageWayCity", 40}, {"FederalHighway", 25}, {"FederalHighwayCity", 25},
	{"RegionalRoad", 12}, {"RegionalRoadCity", 12}, {"LocalRoad", 3}, {"LocalRoadCity", 3},
}

// roadLabels returns a name candidate for each named major road in view:
// at the middle of its longest visible piece, if the name fits along it.
func (m *mapDraw) roadLabels() []candidate {
	pr := m.c.View.Projector()
	w, h := float64(m.c.View.W), float64(m.c.View.H)
	var out []candidate
	done := map[string]bool{}
	for i, rl := range roadLabelTypes {
		if m.lmpp > rl.maxMPP {
			continue
		}
		it := m.st.Road[rl.typ]
		if it.Text.Color.A == 0 || it.Text.Size <= 0 {
			continue
		}
		type best struct {
			l    float64
			x, y float64
			path [][2]float64
		}
		longest := map[string]best{}
		for name, chain := range roadChains(m.byType[rl.typ], done) {
			// The chain's length in pixels and its middle, along it.
			px := make([][2]float64, len(chain))
			total := 0.0
			for k, p := range chain {
				x, y := pr.Pixel(p)
				px[k] = [2]float64{x, y}
				if k > 0 {
					total += math.Hypot(x-px[k-1][0], y-px[k-1][1])
				}
			}
			if total <= longest[name].l {
				continue
			}
			half := total / 2
			for k := 1; k < len(px); k++ {
				l := math.Hypot(px[k][0]-px[k-1][0], px[k][1]-px[k-1][1])
				if l >= half && l > 0 {
					t := half / l
					mx, my := px[k-1][0]+t*(px[k][0]-px[k-1][0]), px[k-1][1]+t*(px[k][1]-px[k-1][1])
					if mx >= 0 && my >= 0 && mx <= w && my <= h {
						longest[name] = best{total, mx, my, px}
					}
					break
				}
				half -= l
			}
		}
		names := make([]string, 0, len(longest))
		for n := range longest {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			b := longest[n]
			if b.l < 30*m.k {
				continue
			}
			done[n] = true
			out = append(out, candidate{rank: labelRank("City1K"), text: n, typ: "road:" + rl.typ, x: b.x, y: b.y, style: it.Text, road: true, pop: -i, fit: b.l, path: b.path})
		}
	}
	return out
}

// scaleBar draws the scale bar at the lower left corner: a bar of a round
// length (1, 2 or 5 times a power of ten, in m or km, or ft or mi) of at
// most a quarter of the width, and its length written above it; it
// returns the pixel box it took.
func (m *mapDraw) scaleBar() (image.Rectangle, error) {
	length, text := scaleLength(m.mpp*float64(m.c.View.W)/4, m.req.Metric)
	px := int(math.Round(length / m.mpp))
	st := m.st.Label["ScaleBar"]
	// u scales the bar's pixel sizes with the density.
	u := func(n int) int { return int(math.Round(float64(n) * m.k)) }
	x0, y := u(8), m.c.View.H-u(8)
	col := st.Text.Color
	halo := st.Text.Halo
	if halo.A > 0 {
		m.c.Rect(image.Rect(x0-u(1), y-u(4), x0+px+u(2), y+u(2)), halo)
	}
	m.c.Rect(image.Rect(x0, y-u(1), x0+px+u(1), y+u(1)), col)
	m.c.Rect(image.Rect(x0, y-u(3), x0+u(1), y+u(1)), col)
	m.c.Rect(image.Rect(x0+px, y-u(3), x0+px+u(1), y+u(1)), col)
	box, err := m.c.Text(text, x0, y-u(6), st.Text)
	if err != nil {
		return image.Rectangle{}, err
	}
	return box.Union(image.Rect(x0-u(1), y-u(4), x0+px+u(2), y+u(2))), nil
}

// scaleLength returns the longest round length of at most maxM metres
// and its text: metres below 1 km, then kilometres; with metric false
// feet below half a mile, then miles.
func scaleLength(maxM float64, metric bool) (float64, string) {
	steps := []float64{1, 2, 5}
	type unit struct {
		m    float64
		name string
		upTo float64 // the largest length in this unit (metres)
	}
	units := []unit{{1, "m", 999}, {1000, "km", math.Inf(1)}}
	if !metric {
		units = []unit{{0.3048, "ft", 2000 * 0.3048}, {1609.344, "mi", math.Inf(1)}}
	}
	bestM, bestText := 0.0, ""
	for _, u := range units {
		for p := 1e-2; p <= 1e7; p *= 10 {
			for _, s := range steps {
				l := s * p * u.m
				if l <= maxM && l <= u.upTo && l > bestM && s*p >= 1 {
					bestM, bestText = l, strconv.FormatFloat(s*p, 'f', -1, 64)+" "+u.name
				}
			}
		}
	}
	if bestM == 0 {
		return units[0].m, "1 " + units[0].name
	}
	return bestM, bestText
}

// roadChains joins the roads of one type by name into chains (edges that
// meet end to end, as a road runs through its junctions) and returns each
// name's widest chain (by the diagonal of its bounds), leaving out the
// names in done.
func roadChains(roads []Road, done map[string]bool) map[string][]orb.Point {
	byName := map[string][]int{}
	for i, r := range roads {
		if r.Name != "" && !done[r.Name] && len(r.Shape) >= 2 {
			byName[r.Name] = append(byName[r.Name], i)
		}
	}
	out := map[string][]orb.Point{}
	for name, idx := range byName {
		ends := map[orb.Point][]int{}
		for _, i := range idx {
			sh := roads[i].Shape
			ends[sh[0]] = append(ends[sh[0]], i)
			ends[sh[len(sh)-1]] = append(ends[sh[len(sh)-1]], i)
		}
		used := map[int]bool{}
		// next returns an unused edge of the name ending at p, and its
		// shape oriented to start at p.
		next := func(p orb.Point) []orb.Point {
			for _, i := range ends[p] {
				if used[i] {
					continue
				}
				used[i] = true
				sh := roads[i].Shape
				if sh[0] == p {
					return sh
				}
				rev := make([]orb.Point, len(sh))
				for k := range sh {
					rev[k] = sh[len(sh)-1-k]
				}
				return rev
			}
			return nil
		}
		bestLen := -1.0
		for _, i := range idx {
			if used[i] {
				continue
			}
			used[i] = true
			chain := append([]orb.Point(nil), roads[i].Shape...)
			for sh := next(chain[len(chain)-1]); sh != nil; sh = next(chain[len(chain)-1]) {
				chain = append(chain, sh[1:]...)
			}
			var back []orb.Point
			for sh := next(chain[0]); sh != nil; sh = next(back[len(back)-1]) {
				if back == nil {
					back = append([]orb.Point(nil), sh...) // sh is the road's own shape: never append to it
				} else {
					back = append(back, sh[1:]...)
				}
			}
			if len(back) > 0 {
				rev := make([]orb.Point, 0, len(back)+len(chain))
				for k := len(back) - 1; k >= 1; k-- {
					rev = append(rev, back[k])
				}
				chain = append(rev, chain...)
			}
			b := orb.LineString(chain).Bound()
			if d := math.Hypot(b.Max[0]-b.Min[0], b.Max[1]-b.Min[1]); d > bestLen {
				bestLen = d
				out[name] = chain
			}
		}
	}
	return out
}
