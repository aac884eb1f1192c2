package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/geo/osmfile/extracts"
	"github.com/geosvc/geosvc/geo/world"
	"github.com/geosvc/geosvc/routing"
)

// inProcessServer starts `geosvc serve` in this process on the bundle in
// data, with the embedded Redis and the demo key key, and returns its base
// URL once the bundle is loaded; the server stops when t ends.
func inProcessServer(t *testing.T, data, key string, extra ...string) string {
	t.Helper()
	return inProcessServers(t, data, key, extra...).api
}

// inProcessServers is inProcessServer that also returns the admin
// listener's URL; extra are more flags of serve.
func inProcessServers(t *testing.T, data, key string, extra ...string) serverURLs {
	t.Helper()
	return inProcessServersOn(t, data, key, "", extra...) // the embedded Redis, even where CI sets one
}

// inProcessServersOn is inProcessServers on the Redis of redisURL (empty:
// the embedded one), with more flags of serve.
func inProcessServersOn(t *testing.T, data, key, redisURL string, flags ...string) serverURLs {
	t.Helper()
	t.Setenv("REDIS_URL", redisURL)
	t.Setenv("GEOSVC_DEMO_KEY", key)
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan serverURLs, 1)
	done := make(chan error, 1)
	args := append([]string{"--data", data, "--addr", "127.0.0.1:0", "--admin-addr", "127.0.0.1:0", "--log-level", "warn"}, flags...)
	go func() {
		done <- serve(ctx, serveRole, args, listening)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	var urls serverURLs
	select {
	case urls = <-listening:
	case err := <-done:
		t.Fatalf("serve ended before listening: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not listen within 30 s")
	}
	for deadline := time.Now().Add(60 * time.Second); ; {
		resp, err := http.Get(urls.api + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return urls
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready within 60 s", data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// apiCall sends a request with the key and decodes a JSON answer into
// out; it returns the status and the response headers.
func apiCall(t *testing.T, method, u, key string, body any, out any) (int, http.Header) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, u, rd)
	req.Header.Set("x-api-key", key)
	if body != nil {
		req.Header.Set("content-type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v\n%.300s", u, err, b)
		}
	}
	return resp.StatusCode, resp.Header
}

// geocodeAnswer is the part of a geocoder answer the test reads.
type geocodeAnswer struct {
	Status  string `json:"status"`
	Results []struct {
		Types             []string `json:"types"`
		FormattedAddress  string   `json:"formatted_address"`
		AddressComponents []struct {
			LongName  string   `json:"long_name"`
			ShortName string   `json:"short_name"`
			Types     []string `json:"types"`
		} `json:"address_components"`
	} `json:"results"`
}

// country returns result i's country component's short name (ISO2).
func (g geocodeAnswer) country(i int) string {
	if i >= len(g.Results) {
		return ""
	}
	for _, c := range g.Results[i].AddressComponents {
		for _, ty := range c.Types {
			if ty == "country" {
				return c.ShortName
			}
		}
	}
	return ""
}

// namedRoad returns a named road of the graph in the country iso2, taken
// from the data: the longest named stretch of routes between seeded random
// road points whose middle the world base layer (Natural Earth, an
// independent source) puts in iso2, with that middle point. Extracts hold
// roads of their neighbours too (Monaco's: French ones).
func namedRoad(t *testing.T, g *routing.Graph, iso2 string) (string, orb.Point) {
	t.Helper()
	countries, err := world.Lookup()
	if err != nil {
		t.Fatal(err)
	}
	pts := randomRoadPoints(g, 80, 7)
	snaps := g.SnapAll(routing.Fastest, pts, 1000)
	best, bestLen := "", 0.0
	var mid orb.Point
	for i := 0; i+1 < len(snaps); i += 2 {
		r, err := g.Route(context.Background(), routing.Fastest, snaps[i], snaps[i+1])
		if err != nil {
			continue
		}
		for _, s := range r.Segments {
			if s.Name == "" || strings.ContainsAny(s.Name, "/;") || s.DistanceM <= bestLen || len(s.Geometry) < 2 {
				continue
			}
			m := s.Geometry[len(s.Geometry)/2]
			if c, ok := countries.CountryAt(m); ok && c.ISO2 == iso2 {
				best, bestLen, mid = s.Name, s.DistanceM, m
			}
		}
	}
	if best == "" {
		t.Fatal("no named road on the routes between random road points")
	}
	return best, mid
}

// TestEveryExtractAnswersInItsOwnCountry builds the bundle of every test
// extract (once per run) and checks, against what is known of each place
// and what the extract itself holds: the country of a geocoded street (a
// street name taken from the extract) and of a reverse-geocoded road
// point, admin0 at a known point, the time zone there, and a 20 x 20
// tdmv1 matrix between road points without a null cell.
func TestEveryExtractAnswersInItsOwnCountry(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a bundle of every extract")
	}
	for _, tc := range []struct {
		extract string
		point   orb.Point // a known place of the extract
		iso2    string
		iso3    string
		country string // the country's name in adminv1 (country_name)
		zone    string // IANA zone (X-Time-Zone)
	}{
		{"delaware", orb.Point{-75.5244, 39.1582}, "US", "USA", "United States", "America/New_York"},  // Dover
		{"andorra", orb.Point{1.5218, 42.5063}, "AD", "AND", "Andorra", "Europe/Andorra"},             // Andorra la Vella
		{"porto_portugal", orb.Point{-8.6110, 41.1496}, "PT", "PRT", "Portugal", "Europe/Lisbon"},     // Porto, Aliados
		{"monaco", orb.Point{7.4246, 43.7384}, "MC", "MCO", "Monaco", "Europe/Monaco"},                // Monte-Carlo
		{"baltimore", orb.Point{-76.6122, 39.2904}, "US", "USA", "United States", "America/New_York"}, // Baltimore, downtown
	} {
		t.Run(tc.extract, func(t *testing.T) {
			data, err := extractBundle(t, tc.extract)
			extracts.Need(t, err)
			const key = "gs_extract_test_key_0123456789abcdefghij"
			base := inProcessServer(t, data, key)
			g, err := routing.Load(data)
			if err != nil {
				t.Fatal(err)
			}

			// A street of the extract, geocoded: its country.
			name, mid := namedRoad(t, g, tc.iso2)
			var fwd geocodeAnswer
			apiCall(t, "GET", base+"/geocoderv1/geocoder?address="+url.QueryEscape(name), key, nil, &fwd)
			if fwd.Status != "OK" || fwd.country(0) != tc.iso2 {
				t.Errorf("geocoder %q: %s, country %q, want %s (%+v)", name, fwd.Status, fwd.country(0), tc.iso2, fwd.Results)
			}
			if tc.iso2 == "US" && len(fwd.Results) > 0 && !strings.HasSuffix(fwd.Results[0].FormattedAddress, ", USA") {
				t.Errorf("geocoder %q: %q", name, fwd.Results[0].FormattedAddress)
			}
			// The middle of that street, reverse-geocoded.
			var rev geocodeAnswer
			apiCall(t, "GET", fmt.Sprintf("%s/geocoderv1/rev-geocoder?x=%v&y=%v", base, mid[0], mid[1]), key, nil, &rev)
			if rev.Status != "OK" || rev.country(0) != tc.iso2 {
				t.Errorf("rev-geocoder %v (%s): %s, country %q, want %s", mid, name, rev.Status, rev.country(0), tc.iso2)
			}
			for i := range rev.Results {
				if c := rev.country(i); c != "" && c != tc.iso2 {
					t.Errorf("rev-geocoder %v: result %d %q is in %s", mid, i, rev.Results[i].FormattedAddress, c)
				}
			}

			// admin0 at the known point.
			var admin struct {
				Features []struct {
					Properties struct {
						Name        string `json:"name"`
						CountryName string `json:"country_name"`
						Category    string `json:"category_name"`
					} `json:"properties"`
				} `json:"features"`
			}
			apiCall(t, "GET", fmt.Sprintf("%s/adminv1/xy2admininfo?x=%v&y=%v&type=admin0", base, tc.point[0], tc.point[1]), key, nil, &admin)
			var tz struct {
				LocalArea struct {
					Country string `json:"country_ISO3_code"`
				} `json:"local_area"`
			}
			_, hdr := apiCall(t, "GET", fmt.Sprintf("%s/timezonesv1/xy2tzdata?x=%v&y=%v", base, tc.point[0], tc.point[1]), key, nil, &tz)
			if len(admin.Features) != 1 || admin.Features[0].Properties.Category != "admin0" || admin.Features[0].Properties.CountryName != tc.country || tz.LocalArea.Country != tc.iso3 {
				t.Errorf("admin0 at %v: %+v; local area country %q, want %s", tc.point, admin.Features, tz.LocalArea.Country, tc.iso3)
			}
			if z := hdr.Get("X-Time-Zone"); z != tc.zone {
				t.Errorf("time zone at %v: %q, want %s", tc.point, z, tc.zone)
			}

			// A 20 x 20 matrix between road points: no null.
			pts := randomRoadPoints(g, 40, 11)
			addr := make([]string, len(pts))
			for i, p := range pts {
				addr[i] = fmt.Sprintf("%.6f,%.6f", p[0], p[1])
			}
			var ord struct {
				UUID string `json:"uuid"`
			}
			if st, _ := apiCall(t, "POST", base+"/tdmv1/order", key, map[string]any{"origin_addresses": addr[:20], "destination_addresses": addr[20:]}, &ord); st != 200 {
				t.Fatalf("order: %d", st)
			}
			var res struct {
				Status   string     `json:"status"`
				Duration [][]*int64 `json:"duration"`
				Distance [][]*int64 `json:"distance"`
			}
			for deadline := time.Now().Add(60 * time.Second); res.Status != "Finished"; {
				apiCall(t, "POST", base+"/tdmv1/fetch", key, map[string]string{"uuid": ord.UUID}, &res)
				if res.Status == "Failed" || res.Status == "Cancelled" || time.Now().After(deadline) {
					t.Fatalf("job %s: %s", ord.UUID, res.Status)
				}
				time.Sleep(10 * time.Millisecond)
			}
			nulls := 0
			for i := range res.Duration {
				for j := range res.Duration[i] {
					if res.Duration[i][j] == nil || res.Distance[i][j] == nil {
						nulls++
					}
				}
			}
			if len(res.Duration) != 20 || nulls > 0 {
				t.Errorf("matrix: %d rows, %d null cells", len(res.Duration), nulls)
			}
		})
	}
}

// component returns the short name of result i's component of type ty,
// "" when it has none.
func (g geocodeAnswer) component(i int, ty string) string {
	if i >= len(g.Results) {
		return ""
	}
	for _, c := range g.Results[i].AddressComponents {
		if slices.Contains(c.Types, ty) {
			return c.ShortName
		}
	}
	return ""
}

// TestAddressesOfTheirPlace checks the admin context of geocoder answers
// (issue 10, item 3) against what is known of the places: a point on
// Eastern Avenue in the Baltimore extract lies in Baltimore city (an
// independent city with no OSM city area in the extract), so its locality
// is Baltimore and its state MD, and "Baltimore, MD" finds the city, not a
// road; Rua de Santa Catarina, a street of the Porto extract (roads only,
// no admin relations), is in Portugal, formatted without a US part.
func TestAddressesOfTheirPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the Baltimore and Porto bundles")
	}
	for _, tc := range []struct {
		extract, name, path string
		types               []string          // the first result's types
		formatted           string            // the first result's formatted_address, "" for any
		components          map[string]string // short names of the first result's components
	}{
		{"baltimore", "reverse on Eastern Ave", "rev-geocoder?x=-76.5461874&y=39.2874742", []string{"route"}, "",
			map[string]string{"locality": "Baltimore", "administrative_area_level_1": "MD", "country": "US"}},
		{"baltimore", "Baltimore, MD", "geocoder?address=" + url.QueryEscape("Baltimore, MD"), []string{"locality", "political"}, "Baltimore, MD, USA",
			map[string]string{"locality": "Baltimore", "administrative_area_level_1": "MD", "country": "US"}},
		{"porto_portugal", "Rua de Santa Catarina", "geocoder?address=" + url.QueryEscape("Rua de Santa Catarina"), []string{"route"}, "Rua de Santa Catarina, Portugal",
			map[string]string{"route": "Rua de Santa Catarina", "country": "PT", "administrative_area_level_1": ""}},
	} {
		t.Run(tc.extract+"/"+tc.name, func(t *testing.T) {
			data, err := extractBundle(t, tc.extract)
			extracts.Need(t, err)
			const key = "gs_extract_test_key_0123456789abcdefghij"
			base := inProcessServer(t, data, key)
			var g geocodeAnswer
			if st, _ := apiCall(t, "GET", base+"/geocoderv1/"+tc.path, key, nil, &g); st != 200 || g.Status != "OK" || len(g.Results) == 0 {
				t.Fatalf("%s: %d %s %+v", tc.path, st, g.Status, g.Results)
			}
			r := g.Results[0]
			if !slices.Equal(r.Types, tc.types) || (tc.formatted != "" && r.FormattedAddress != tc.formatted) {
				t.Errorf("%s: first result %v %q, want %v %q", tc.path, r.Types, r.FormattedAddress, tc.types, tc.formatted)
			}
			for ty, want := range tc.components {
				if got := g.component(0, ty); got != want {
					t.Errorf("%s: %s %q, want %q (%q)", tc.path, ty, got, want, r.FormattedAddress)
				}
			}
			for i := range g.Results {
				if c := g.component(i, "country"); c != tc.components["country"] {
					t.Errorf("%s: result %d %q is in %q", tc.path, i, g.Results[i].FormattedAddress, c)
				}
				if a := g.Results[i].FormattedAddress; tc.components["country"] != "US" && (strings.Contains(a, "USA") || strings.Contains(a, "United States")) {
					t.Errorf("%s: result %d %q", tc.path, i, a)
				}
			}
		})
	}
}

// randomRoadPoints returns n seeded pseudo-random points on roads of g:
// random points of its extent moved onto the nearest road within 1 km.
func randomRoadPoints(g *routing.Graph, n int, seed int64) []orb.Point {
	rng := rand.New(rand.NewSource(seed))
	b := g.Bounds()
	var out []orb.Point
	var first routing.Snap
	for tries := 0; len(out) < n && tries < 1000*n; tries++ {
		p := orb.Point{b.Min[0] + rng.Float64()*(b.Max[0]-b.Min[0]), b.Min[1] + rng.Float64()*(b.Max[1]-b.Min[1])}
		s := g.Snap(routing.Fastest, p, 1000)
		if !s.OK {
			continue
		}
		// One strongly connected component (the first point's): every
		// component keeps its roads, and a point far from the main one
		// snaps to its own, whose cells are rightly null.
		if len(out) > 0 {
			if _, err := g.Route(context.Background(), routing.Fastest, first, s); err != nil {
				continue
			}
			if _, err := g.Route(context.Background(), routing.Fastest, s, first); err != nil {
				continue
			}
		} else {
			first = s
		}
		out = append(out, s.Point)
	}
	return out
}
