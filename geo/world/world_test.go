package world

import (
	"testing"

	"github.com/paulmach/orb"
)

// testIndex returns the layer's index (built once per test binary).
func testIndex(t testing.TB) *Index {
	t.Helper()
	ix, err := Lookup()
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestKnownPoints: places whose country, state and county are known
// (coordinates from the places' own records, expected ids and names from
// ISO 3166-1 and the Census Bureau, not from this package).
func TestKnownPoints(t *testing.T) {
	ix := testIndex(t)
	tests := []struct {
		place                string
		lon, lat             float64
		country, countryName string
		state, county        string
		countyName           string
	}{
		{"Paris", 2.3522, 48.8566, "250", "France", "", "", ""},
		{"Porto", -8.61, 41.15, "620", "Portugal", "", "", ""},
		{"Andorra la Vella", 1.5218, 42.5063, "020", "Andorra", "", "", ""},
		{"Monaco", 7.4246, 43.7384, "492", "Monaco", "", "", ""},
		{"Pristina", 21.1655, 42.6629, "900", "Kosovo", "", "", ""},
		{"Hargeisa (Somaliland)", 44.065, 9.56, "706", "Somalia", "", "", ""},
		{"North Nicosia", 33.3642, 35.1856, "196", "Cyprus", "", "", ""},
		{"Baikonur", 63.32, 45.62, "398", "Kazakhstan", "", "", ""},
		{"Christmas Island", 105.63, -10.49, "162", "Christmas Island", "", "", ""},
		{"West Island, Cocos (Keeling) Islands", 96.83, -12.17, "166", "Cocos (Keeling) Islands", "", "", ""},
		{"Guantanamo Bay naval base", -75.15, 19.92, "192", "Cuba", "", "", ""},
		{"Tokyo", 139.6917, 35.6895, "392", "Japan", "", "", ""},
		// The Vatican has no area at 1:10m (nor has Italy's hole for it).
		{"St. Peter's Square, Vatican", 12.4534, 41.9029, "380", "Italy", "", "", ""},
		{"Chukotka west of the antimeridian", 177, 65, "643", "Russia", "", "", ""},
		{"Chukotka east of the antimeridian", -175, 66.5, "643", "Russia", "", "", ""},
		{"South Pole", 0, -90, "010", "Antarctica", "", "", ""},
		{"Antarctic plateau", 120, -80, "010", "Antarctica", "", "", ""},
		{"Dover, Delaware", -75.52, 39.16, "840", "United States of America", "10", "10001", "Kent County"},
		{"Baltimore", -76.61, 39.29, "840", "United States of America", "24", "24510", "Baltimore city"},
		{"Towson (Baltimore County)", -76.6019, 39.4015, "840", "United States of America", "24", "24005", "Baltimore County"},
		{"Washington, DC", -77.0365, 38.8977, "840", "United States of America", "11", "11001", "District of Columbia"},
		// Falls Church city has no area at us-atlas's precision.
		{"Falls Church, Virginia", -77.1711, 38.8823, "840", "United States of America", "51", "51059", "Fairfax County"},
		{"Alexandria, Virginia", -77.0469, 38.8048, "840", "United States of America", "51", "51510", "Alexandria city"},
		{"St. Louis", -90.1994, 38.6270, "840", "United States of America", "29", "29510", "St. Louis city"},
		{"Carson City", -119.7674, 39.1638, "840", "United States of America", "32", "32510", "Carson City"},
		{"New Orleans", -90.0715, 29.9511, "840", "United States of America", "22", "22071", "Orleans Parish"},
		{"Anchorage", -149.9003, 61.2181, "840", "United States of America", "02", "02020", "Anchorage Municipality"},
		// Natural Earth's 1:10m coast puts downtown Juneau in the Gastineau
		// Channel; the Census county has it.
		{"Juneau downtown", -134.4197, 58.3019, "", "", "02", "02110", "Juneau City and Borough"},
		{"Juneau, Mendenhall Valley", -134.58, 58.39, "840", "United States of America", "02", "02110", "Juneau City and Borough"},
		{"Fairbanks", -147.7164, 64.8378, "840", "United States of America", "02", "02090", "Fairbanks North Star Borough"},
		{"Semisopochnoi Island, Aleutians at 179.6°E", 179.6, 51.95, "840", "United States of America", "02", "02016", "Aleutians West Census Area"},
		{"Amchitka Island", 179.0, 51.55, "840", "United States of America", "02", "02016", "Aleutians West Census Area"},
		{"San Juan, Puerto Rico", -66.1057, 18.4655, "630", "Puerto Rico", "72", "72127", "San Juan Municipio"},
		{"Hagatna, Guam", 144.7526, 13.4757, "316", "Guam", "66", "66010", "Guam"},
		{"Honolulu", -157.8583, 21.3069, "840", "United States of America", "15", "15003", "Honolulu County"},
		{"mid-Atlantic", -30, 30, "", "", "", "", ""},
		{"Pacific near the antimeridian", 180, 0, "", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.place, func(t *testing.T) {
			p := orb.Point{tt.lon, tt.lat}
			c, ok := ix.CountryAt(p)
			switch {
			case tt.country == "" && ok:
				t.Errorf("country %s %s, want none", c.ID, c.Name)
			case tt.country != "" && !ok:
				t.Errorf("no country, want %s %s", tt.country, tt.countryName)
			case ok && (c.ID != tt.country || c.Name != tt.countryName || c.Kind != Country || c.Source != "naturalearth"):
				t.Errorf("country %s %q (%v, %s), want %s %q", c.ID, c.Name, c.Kind, c.Source, tt.country, tt.countryName)
			}
			s, ok := ix.StateAt(p)
			switch {
			case tt.state == "" && ok:
				t.Errorf("state %s %s, want none", s.ID, s.Name)
			case tt.state != "" && (!ok || s.ID != tt.state || s.Kind != State || s.Source != "census"):
				t.Errorf("state %v, want %s", s, tt.state)
			}
			co, ok := ix.CountyAt(p)
			switch {
			case tt.county == "" && ok:
				t.Errorf("county %s %s, want none", co.ID, co.Name)
			case tt.county != "" && (!ok || co.ID != tt.county || co.Name != tt.countyName || co.ISO2 != "US"):
				t.Errorf("county %v, want %s %q", co, tt.county, tt.countyName)
			}
		})
	}
}
