package api

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/geosvc/geosvc/bundle"
	"github.com/geosvc/geosvc/geo/covid"
	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/internal/shareddata"
	"github.com/geosvc/geosvc/keys"
	"github.com/paulmach/orb/maptile"
)

// covidDelaware is the health layer built as `geosvc build` builds it for
// the Delaware extract: the case series of the embedded snapshot and the
// extract's business density grid.
var covidDelaware = sync.OnceValues(func() (*covid.Layer, error) {
	path, err := extracts.Path("delaware")
	if err != nil {
		return nil, err
	}
	l, _, err := covid.Build(covid.BuildOptions{OSMPath: path})
	return l, err
})

type covidFixture struct {
	srv *Server
	key string
}

// newCovidFixture serves covidv1 on the Delaware boundary layer (with the
// world base layer) and health layer.
func newCovidFixture(t testing.TB) *covidFixture {
	t.Helper()
	bl, err := bndDelaware()
	extracts.Need(t, err)
	hl, err := covidDelaware()
	extracts.Need(t, err)
	rd := redistest.New(t)
	store := keys.NewStore(rd.Client, keys.Options{Prefix: rd.Prefix})
	_, plain, err := store.Create(context.Background(), keys.CreateOptions{Owner: "covid test"})
	if err != nil {
		t.Fatal(err)
	}
	f := &covidFixture{key: plain}
	f.srv = New(Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Redis: rd.Client, Gate: keys.NewGate(store, keys.GateOptions{})})
	RegisterCovid(f.srv.Protected(), CovidOptions{
		Bundle: bundle.NewCurrent(&bundle.Bundle{Covid: hl, Boundaries: bl}),
	})
	return f
}

func (f *covidFixture) get(t testing.TB, path string, out any) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set(headerAPIKey, f.key)
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	if out != nil && rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, rec.Body)
		}
	}
	return rec.Code, rec.Body.String()
}

// covidRecord is the JSON of a region record, read back.
type covidRecord struct {
	BoundaryID   string   `json:"boundary_id"`
	CountryCode  string   `json:"country_code"`
	CountryName  string   `json:"country_name"`
	CategoryCode int      `json:"category_code"`
	CategoryName string   `json:"category_name"`
	Name         string   `json:"name"`
	CovidTrend   *float64 `json:"covid_trend"`
	TrendDays    int      `json:"trend_days"`
	DateReported string   `json:"date_reported"`
	TotalCases   *int64   `json:"total_cases"`
	TotalDeaths  *int64   `json:"total_deaths"`
	Density      string   `json:"business_density"`
	Risk         string   `json:"covid_risk_score"`
}

// jhuFinal reads the last value of a country's row(s) of a JHU global
// series from the shared CSV, independently of geo/covid: the row whose
// Province is empty.
func jhuFinal(t *testing.T, file, country string) int64 {
	t.Helper()
	path := shareddata.Require(t, "covid/jhu/"+file)
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[1:] {
		if r[0] == "" && r[1] == country {
			n, err := strconv.ParseInt(strings.TrimSpace(r[len(r)-1]), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("%s: no row of %s", file, country)
	return 0
}

func TestCovidCountry2Data(t *testing.T) {
	f := newCovidFixture(t)
	for _, tc := range []struct{ iso3, jhuName string }{
		{"PRT", "Portugal"}, {"AND", "Andorra"}, {"MCO", "Monaco"},
	} {
		t.Run(tc.iso3, func(t *testing.T) {
			var got struct {
				Data      []covidRecord `json:"data"`
				Timestamp string        `json:"timestamp"`
			}
			code, body := f.get(t, "/covidv1/country2data?country="+tc.iso3+"&admin=0", &got)
			if code != http.StatusOK || len(got.Data) != 1 {
				t.Fatalf("%d %s", code, body)
			}
			r := got.Data[0]
			cases, deaths := jhuFinal(t, "time_series_covid19_confirmed_global.csv", tc.jhuName), jhuFinal(t, "time_series_covid19_deaths_global.csv", tc.jhuName)
			if r.BoundaryID != tc.iso3 || r.CategoryCode != 900 || r.CategoryName != "admin0" || r.TotalCases == nil || *r.TotalCases != cases ||
				r.TotalDeaths == nil || *r.TotalDeaths != deaths || r.DateReported != "2023-03-09" || r.CountryCode == "" {
				t.Errorf("record %+v, want %s with %d cases and %d deaths on 2023-03-09", r, tc.iso3, cases, deaths)
			}
			if !strings.HasPrefix(got.Timestamp, "20") {
				t.Errorf("timestamp %q", got.Timestamp)
			}
		})
	}
	// Every US county (the 3,000+ records of one answer).
	var us struct {
		Data []covidRecord `json:"data"`
	}
	if code, body := f.get(t, "/covidv1/country2data?country=usa&admin=admin2", &us); code != 200 || len(us.Data) < 3000 {
		t.Fatalf("US counties: %d, %d records %.200s", code, len(us.Data), body)
	}
	// A level without data is an empty list.
	var none struct {
		Data []covidRecord `json:"data"`
	}
	if code, body := f.get(t, "/covidv1/country2data?country=PRT&admin=5", &none); code != 200 || none.Data == nil || len(none.Data) != 0 {
		t.Errorf("a level without data: %d %s", code, body)
	}
}

func TestCovidErrors(t *testing.T) {
	f := newCovidFixture(t)
	for _, tc := range []struct {
		path string
		code int
		want string
	}{
		{"/covidv1/country2data?country=PRT", 400, "admin is required"},
		{"/covidv1/country2data?country=PRT&admin=9", 400, "admin"},
		{"/covidv1/country2data?country=PRT&admin=-1", 400, "admin"},
		{"/covidv1/country2data?admin=0", 400, "country is required"},
		{"/covidv1/country2data?country=ZZZ&admin=0", 404, "ZZZ"},
		{"/covidv1/country2data?country=PRT&admin=0&date=2023-13-01", 400, "date"},
		{"/covidv1/country2data?country=PRT&admin=0&date=1990-01-01", 400, "no series of the health data covers that day (they run from 2020-01-22 to "},
		{"/covidv1/xy2data?x=-75.5&admin=0", 400, "y is required"},
		{"/covidv1/xy2data?x=abc&y=39&admin=0", 400, "x must be a number"},
		{"/covidv1/xy2data?x=-75.5&y=39", 400, "admin is required"},
		{"/covidv1/xy2tile?x=-75.5&y=39", 400, "zoom is required"},
		{"/covidv1/xy2tile?x=-75.5&y=39&zoom=13", 400, "zoom must be"},
		{"/covidv1/xy2tile?x=-75.5&y=39&zoom=21", 400, "zoom must be"},
		{"/covidv1/index2tile?x=1&zoom=14", 400, "y is required"},
		{"/covidv1/index2tile?x=16384&y=0&zoom=14", 400, "0 to 16383"},
		{"/covidv1/index2tile?x=-1&y=0", 400, "x must be"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			code, body := f.get(t, tc.path, nil)
			if code != tc.code || !strings.Contains(body, tc.want) {
				t.Errorf("%d %s, want %d with %q", code, body, tc.code, tc.want)
			}
		})
	}
	// A bad key: the spec's exact body.
	req := httptest.NewRequest(http.MethodGet, "/covidv1/countries/list", nil)
	req.Header.Set(headerAPIKey, strings.Repeat("x", 40))
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	if rec.Code != 403 || strings.TrimSpace(rec.Body.String()) != `{"message":"Forbidden"}` {
		t.Errorf("bad key: %d %s", rec.Code, rec.Body)
	}
}

func TestCovidCountriesList(t *testing.T) {
	f := newCovidFixture(t)
	var got struct {
		Codes []struct {
			ISO3     string `json:"ISO3"`
			Name     string `json:"name"`
			DialCode string `json:"dial_code"`
		} `json:"codes"`
	}
	if code, body := f.get(t, "/covidv1/countries/list", &got); code != 200 || len(got.Codes) < 180 {
		t.Fatalf("%d, %d codes: %.200s", code, len(got.Codes), body)
	}
	want := map[string]string{"USA": "+1", "PRT": "+351", "AND": "+376", "MCO": "+377"}
	for _, c := range got.Codes {
		if d, ok := want[c.ISO3]; ok {
			if c.DialCode != d || c.Name == "" {
				t.Errorf("%s: %+v, want dial code %s", c.ISO3, c, d)
			}
			delete(want, c.ISO3)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing %v", want)
	}
}

func TestCovidXY2Data(t *testing.T) {
	f := newCovidFixture(t)
	for _, tc := range []struct {
		name  string
		query string
		want  []string // boundary_ids p0, p1, ...
	}{
		{"Dover, admin 2", "x=-75.5244&y=39.1582&admin=2", []string{"USA|10|10001", "USA|10", "USA"}},
		{"Dover, admin 1", "x=-75.5244&y=39.1582&admin=admin1", []string{"USA|10", "USA"}},
		{"Dover, admin 8: the county is the finest", "x=-75.5244&y=39.1582&admin=8", []string{"USA|10|10001", "USA|10", "USA"}},
		{"New York ZIP 10001, admin 8", "x=-73.9971&y=40.7507&admin=8", []string{"USA|36|36061|10001", "USA|36|36061", "USA|36", "USA"}},
		{"Paris, outside the extract", "x=2.3522&y=48.8566&admin=2", []string{"FRA"}},
		{"Porto", "x=-8.611&y=41.1496&admin=0", []string{"PRT"}},
		{"the Atlantic", "x=-40&y=30&admin=0", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got struct {
				Hierarchy map[string]covidRecord `json:"hierarchy_data"`
				Timestamp string                 `json:"timestamp"`
			}
			code, body := f.get(t, "/covidv1/xy2data?"+tc.query, &got)
			if code != 200 {
				t.Fatalf("%d %s", code, body)
			}
			if len(got.Hierarchy) != len(tc.want) {
				t.Fatalf("hierarchy %v, want %v", got.Hierarchy, tc.want)
			}
			for i, id := range tc.want {
				r := got.Hierarchy[fmt.Sprintf("p%d", i)]
				if r.BoundaryID != id {
					t.Errorf("p%d = %s, want %s", i, r.BoundaryID, id)
				}
			}
		})
	}
	// Kent County's record as of a date equals the same record from the
	// health layer, and differs from the latest.
	var asOf struct {
		Hierarchy map[string]covidRecord `json:"hierarchy_data"`
		Timestamp string                 `json:"timestamp"`
	}
	f.get(t, "/covidv1/xy2data?x=-75.5244&y=39.1582&admin=2&date=2020-06-01", &asOf)
	if p0 := asOf.Hierarchy["p0"]; p0.DateReported != "2020-06-01" || asOf.Timestamp != "2020-06-01T00:00:00Z" || p0.TotalCases == nil {
		t.Errorf("as of 2020-06-01: %+v, timestamp %s", p0, asOf.Timestamp)
	}
}

// tileOf is the web-mercator tile of a point at zoom z, computed here from
// the projection's formulas (independently of orb/maptile).
func tileOf(lon, lat float64, z uint) (x, y uint32) {
	n := math.Exp2(float64(z))
	fx := (lon + 180) / 360 * n
	r := lat * math.Pi / 180
	fy := (1 - math.Log(math.Tan(r)+1/math.Cos(r))/math.Pi) / 2 * n
	return uint32(math.Min(n-1, math.Max(0, math.Floor(fx)))), uint32(math.Min(n-1, math.Max(0, math.Floor(fy))))
}

// tileCorner is the north-west corner of tile (x, y) at zoom z.
func tileCorner(x, y uint32, z uint) (lon, lat float64) {
	n := math.Exp2(float64(z))
	lon = float64(x)/n*360 - 180
	lat = math.Atan(math.Sinh(math.Pi*(1-2*float64(y)/n))) * 180 / math.Pi
	return lon, lat
}

type tileCollection struct {
	Type     string `json:"type"`
	Features []struct {
		Type         string `json:"type"`
		ID           string `json:"id"`
		GeometryName string `json:"geometry_name"`
		Geometry     struct {
			Type        string          `json:"type"`
			Coordinates [][][2]float64  `json:"coordinates"`
			BBox        [4]float64      `json:"bbox"`
			Raw         json.RawMessage `json:"-"`
		} `json:"geometry"`
		Properties struct {
			Hierarchy map[string]covidRecord `json:"hierarchy_data"`
			XIndex    uint32                 `json:"x_index"`
			YIndex    uint32                 `json:"y_index"`
			Density   string                 `json:"business_density"`
			Risk      string                 `json:"covid_risk_score"`
		} `json:"properties"`
	} `json:"features"`
	CRS struct {
		Type       string `json:"type"`
		Properties struct {
			Name string `json:"name"`
		} `json:"properties"`
	} `json:"crs"`
}

func TestCovidTiles(t *testing.T) {
	f := newCovidFixture(t)
	const eps = 1e-9
	for _, tc := range []struct {
		name     string
		lon, lat float64
		z        uint
	}{
		{"Dover z14", -75.5244, 39.1582, 14},
		{"Dover z20", -75.5244, 39.1582, 20},
		{"near the north limit", 10, 85.05, 14},
		{"near the south limit z20", -60, -85.05, 20},
		{"west of the antimeridian", 179.9999, -16.5, 14},
		{"east of the antimeridian", -179.9999, -16.5, 20},
		{"the antimeridian itself", 180, 0, 14},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wx, wy := tileOf(tc.lon, tc.lat, tc.z)
			var a, b tileCollection
			code, body := f.get(t, fmt.Sprintf("/covidv1/xy2tile?x=%v&y=%v&zoom=%d", tc.lon, tc.lat, tc.z), &a)
			if code != 200 || len(a.Features) != 1 {
				t.Fatalf("xy2tile: %d %s", code, body)
			}
			code, body = f.get(t, fmt.Sprintf("/covidv1/index2tile?x=%d&y=%d&zoom=%d", wx, wy, tc.z), &b)
			if code != 200 || len(b.Features) != 1 {
				t.Fatalf("index2tile: %d %s", code, body)
			}
			fa, fb := a.Features[0], b.Features[0]
			if fa.Properties.XIndex != wx || fa.Properties.YIndex != wy || fa.ID != fmt.Sprintf("%d/%d/%d", tc.z, wx, wy) {
				t.Errorf("xy2tile gives %s (%d, %d), want %d/%d/%d", fa.ID, fa.Properties.XIndex, fa.Properties.YIndex, tc.z, wx, wy)
			}
			ja, _ := json.Marshal(fa)
			jb, _ := json.Marshal(fb)
			if string(ja) != string(jb) {
				t.Errorf("xy2tile and index2tile differ:\n%s\n%s", ja, jb)
			}
			west, north := tileCorner(wx, wy, tc.z)
			east, south := tileCorner(wx+1, wy+1, tc.z)
			box := fa.Geometry.BBox
			if math.Abs(box[0]-west) > eps || math.Abs(box[1]-south) > eps || math.Abs(box[2]-east) > eps || math.Abs(box[3]-north) > eps {
				t.Errorf("bbox %v, want [%v %v %v %v]", box, west, south, east, north)
			}
			ring := fa.Geometry.Coordinates[0]
			if fa.Geometry.Type != "Polygon" || len(ring) != 5 || ring[0] != ring[4] {
				t.Fatalf("geometry %+v", fa.Geometry)
			}
			for _, c := range ring {
				if (math.Abs(c[0]-west) > eps && math.Abs(c[0]-east) > eps) || (math.Abs(c[1]-south) > eps && math.Abs(c[1]-north) > eps) {
					t.Errorf("corner %v is not one of the tile's bounds", c)
				}
			}
			if a.Type != "FeatureCollection" || a.CRS.Properties.Name != "urn:ogc:def:crs:OGC:1.3:CRS84" || fa.GeometryName == "" {
				t.Errorf("collection %s, crs %s, geometry_name %q", a.Type, a.CRS.Properties.Name, fa.GeometryName)
			}
		})
	}
	// index2tile's zoom defaults to 16.
	var d tileCollection
	wx, wy := tileOf(-75.5244, 39.1582, 16)
	if code, body := f.get(t, fmt.Sprintf("/covidv1/index2tile?x=%d&y=%d", wx, wy), &d); code != 200 || d.Features[0].ID != fmt.Sprintf("16/%d/%d", wx, wy) {
		t.Errorf("default zoom: %d %s", code, body)
	}
}

// TestCovidTileData: a downtown Dover tile has a business density equal to
// the grid's, a Kent County hierarchy and a risk score; a tile outside the
// extract has neither density nor (at sea) hierarchy.
func TestCovidTileData(t *testing.T) {
	f := newCovidFixture(t)
	hl, _ := covidDelaware()
	var c tileCollection
	code, body := f.get(t, "/covidv1/xy2tile?x=-75.5244&y=39.1582&zoom=16", &c)
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	p := c.Features[0].Properties
	if p.Hierarchy["p0"].BoundaryID != "USA|10|10001" || p.Hierarchy["p2"].BoundaryID != "USA" {
		t.Errorf("hierarchy %v", p.Hierarchy)
	}
	x, y := tileOf(-75.5244, 39.1582, 16)
	want, ok := hl.DensityAt(maptileNew(x, y, 16))
	if !ok || p.Density == "" {
		t.Fatalf("density %q, grid %v %v", p.Density, want, ok)
	}
	if got, _ := strconv.ParseFloat(p.Density, 64); math.Abs(got-want) > want*1e-3 || p.Risk == "" {
		t.Errorf("density %s, grid %v; risk %q", p.Density, want, p.Risk)
	}
	var sea tileCollection
	f.get(t, "/covidv1/xy2tile?x=-40&y=30&zoom=14", &sea)
	if q := sea.Features[0].Properties; q.Density != "" || len(q.Hierarchy) != 0 || q.Risk != "" {
		t.Errorf("a tile at sea: %+v", q)
	}
}

// FuzzCovidQuery sends arbitrary query strings to the covidv1 endpoints:
// every answer is 200, 400 or 404 with a JSON body, never a 5xx.
func FuzzCovidQuery(f *testing.F) {
	for _, s := range []string{"x=-75.5&y=39.1&admin=2", "country=USA&admin=admin2", "x=1&y=2&zoom=14", "admin=9",
		"x=1e400&y=nan&zoom=20", "country=%ff&admin=0&date=2020-02-30", "x=99999999999&y=0&zoom=14"} {
		f.Add(s)
	}
	fx := newCovidFixture(f)
	f.Fuzz(func(t *testing.T, raw string) {
		if _, err := url.ParseQuery(raw); err != nil {
			return
		}
		for _, p := range []string{"/covidv1/country2data", "/covidv1/xy2data", "/covidv1/xy2tile", "/covidv1/index2tile"} {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.URL.Path, req.URL.RawQuery = p, raw
			req.Header.Set(headerAPIKey, fx.key)
			rec := httptest.NewRecorder()
			fx.srv.ServeHTTP(rec, req)
			if rec.Code != 200 && rec.Code != 400 && rec.Code != 404 || !json.Valid(rec.Body.Bytes()) {
				t.Fatalf("%s?%s: %d %s", p, raw, rec.Code, rec.Body)
			}
		}
	})
}

func maptileNew(x, y uint32, z uint) maptile.Tile { return maptile.New(x, y, maptile.Zoom(z)) }

// TestCovidJSONWriters: the hand-written JSON of records and hierarchies
// equals encoding/json's of the same records, byte for byte, for every
// record of several countries and levels (US counties and states
// included) and for a trend in exponent form.
func TestCovidJSONWriters(t *testing.T) {
	hl, err := covidDelaware()
	extracts.Need(t, err)
	var recs []covid.Record
	for _, q := range []struct {
		iso3  string
		level int
	}{{"USA", 0}, {"USA", 1}, {"USA", 2}, {"USA", 8}, {"CAN", 1}, {"PRT", 0}, {"CHN", 1}, {"FRA", 1}} {
		recs = append(recs, hl.Records(q.iso3, q.level, time.Time{})...)
	}
	tiny, huge := 1e-7, 3e21
	recs = append(recs, covid.Record{BoundaryID: "X|\"q\"", Name: "Ünïcode \u0001", CovidTrend: &tiny, CovidDeceasedTrend: &huge})
	if len(recs) < 3500 {
		t.Fatalf("%d records", len(recs))
	}
	for i := range recs {
		want, err := json.Marshal(recs[i])
		if err != nil {
			t.Fatal(err)
		}
		if got := appendRecord(nil, &recs[i]); string(got) != string(want) {
			t.Fatalf("record %s:\\n got %s\\nwant %s", recs[i].BoundaryID, got, want)
		}
	}
	hd := hierarchyData(recs[:3])
	var m map[string]covid.Record
	if err := json.Unmarshal(appendHierarchy(nil, hd), &m); err != nil || len(m) != 3 || m["p2"].BoundaryID != recs[2].BoundaryID {
		t.Errorf("hierarchy: %v %v", m, err)
	}
}
