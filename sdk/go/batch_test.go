package geosvc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"reflect"
	"testing"
	"time"

	geosvc "github.com/geosvc/geosvc/sdk/go"
)

// moscow is a point in Moscow (Europe/Moscow: +4 all year 2011-2014).
var moscow = geosvc.Point{Lon: 37.6173, Lat: 55.7558}

// TestBatchCalls: the calls of issue 26 through the SDK against the
// server, each batch item equal to the single call's answer.
func TestBatchCalls(t *testing.T) {
	t.Parallel()
	c := newClient(t, demoKey)
	ctx := context.Background()
	t.Run("TimeZoneAt", func(t *testing.T) {
		for _, tc := range []struct {
			at  time.Time
			raw int
		}{{time.Date(2013, 7, 15, 12, 0, 0, 0, time.UTC), 14400}, {time.Date(2015, 7, 15, 12, 0, 0, 0, time.UTC), 10800}} {
			tz, err := c.TimeZoneAt(ctx, moscow, tc.at)
			if err != nil {
				t.Fatal(err)
			}
			if tz.Name != "Europe/Moscow" || tz.RawOffsetS == nil || *tz.RawOffsetS != tc.raw || *tz.DstOffsetS != 0 || *tz.Abbreviation != "MSK" {
				t.Errorf("Moscow at %v: %+v", tc.at, tz)
			}
		}
	})
	t.Run("AdminHierarchy", func(t *testing.T) {
		fs, err := c.AdminHierarchy(ctx, dover, false)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range fs {
			names = append(names, f.Properties.Name)
		}
		if want := []string{"United States of America", "Delaware", "Kent County", "Dover"}; !reflect.DeepEqual(names, want) {
			t.Errorf("hierarchy %q, want %q", names, want)
		}
	})
	t.Run("ReverseGeocodeBatch", func(t *testing.T) {
		pts := []geosvc.Point{dover, {Lon: -75.5466, Lat: 39.7459}, {Lon: -75.5, Lat: 99}}
		rs, err := c.ReverseGeocodeBatch(ctx, pts)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != 3 || rs[2].Status != "INVALID_REQUEST" {
			t.Fatalf("%d results, last %+v", len(rs), rs[len(rs)-1])
		}
		for i, p := range pts[:2] {
			one, err := c.ReverseGeocode(ctx, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(t, rs[i], one) {
				t.Errorf("point %d: batch and single answers differ", i)
			}
		}
	})
	t.Run("GeocodeBatch", func(t *testing.T) {
		rs, err := c.GeocodeBatch(ctx, []string{"Loockerman Street, Dover", ""})
		if err != nil {
			t.Fatal(err)
		}
		one, err := c.Geocode(ctx, "Loockerman Street, Dover", nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != 2 || !sameJSON(t, rs[0], one) || rs[1].Status != "INVALID_REQUEST" {
			t.Errorf("%+v", rs)
		}
	})
	t.Run("LookupsBatch", func(t *testing.T) {
		rs, err := c.LookupsBatch(ctx, []geosvc.Point{dover, {Lon: 200, Lat: 0}}, []geosvc.LookupLayer{geosvc.LayerTimezone, geosvc.LayerAdmin}, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != 2 || rs[0].Status != 200 || rs[1].Status != 400 || rs[1].Message == nil {
			t.Fatalf("%+v", rs)
		}
		tz, err := c.TimeZone(ctx, dover)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, rs[0].Timezone, tz.TimeZoneResponse) || len(rs[0].Admin.Features) != 4 {
			t.Errorf("dover: %+v", rs[0])
		}
	})
}

// sameJSON reports whether a and b encode alike.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(x) == string(y)
}

// The batch examples of docs/sdks.md (no Output: they need a server;
// TestBatchCalls runs the same calls).
func ExampleClient_LookupsBatch() {
	c, err := geosvc.New("http://localhost:8080", os.Getenv("KEY"))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	dover := geosvc.Point{Lon: -75.5244, Lat: 39.1582}
	wilmington := geosvc.Point{Lon: -75.5466, Lat: 39.7447}
	moscow := geosvc.Point{Lon: 37.6173, Lat: 55.7558}
	tz13, err := c.TimeZoneAt(ctx, moscow, time.Date(2013, 7, 15, 12, 0, 0, 0, time.UTC))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(*tz13.RawOffsetS, *tz13.DstOffsetS, *tz13.Abbreviation) // 14400 0 MSK
	levels, err := c.AdminHierarchy(ctx, dover, false)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(levels)) // 4: United States of America, Delaware, Kent County, Dover
	revs, err := c.ReverseGeocodeBatch(ctx, []geosvc.Point{dover, wilmington})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(revs[0].Results[0].FormattedAddress) // Kings Hwy, Dover, DE 19901, USA
	lk, err := c.LookupsBatch(ctx, []geosvc.Point{dover, wilmington},
		[]geosvc.LookupLayer{geosvc.LayerTimezone, geosvc.LayerAdmin}, time.Time{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(lk[1].Status, lk[1].Admin.Features[3].Properties.Name) // 200 Wilmington
}
