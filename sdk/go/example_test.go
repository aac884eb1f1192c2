package geosvc_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	geosvc "github.com/geosvc/geosvc/sdk/go"
	"github.com/geosvc/geosvc/sdk/go/openapi"
)

// The examples of docs/sdks.md, compiled by go vet and go test (they have
// no Output: they need a server; TestInterfaces runs the same calls).

func Example() {
	c, err := geosvc.New("http://localhost:8080", os.Getenv("KEY"))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	dover := geosvc.Point{Lon: -75.5244, Lat: 39.1582}

	tz, err := c.TimeZone(ctx, dover) // timezonesv1
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tz.Name, tz.TimeZone.TimeZone) // America/New_York UTC-05:00
}

func ExampleClient_interfaces() {
	c, _ := geosvc.New("http://localhost:8080", os.Getenv("KEY"))
	ctx := context.Background()
	dover := geosvc.Point{Lon: -75.5244, Lat: 39.1582}
	wilmington := geosvc.Point{Lon: -75.5466, Lat: 39.7447}

	// zip4v1: the client sends x = latitude, y = longitude.
	z, _ := c.ZIP4(ctx, dover)
	fmt.Println(z.Features[0].Properties.Zip9) // 199010936

	// geocoderv1
	g, _ := c.Geocode(ctx, "Dover, DE", nil)
	fmt.Println(g.Results[0].FormattedAddress, g.Results[0].Geometry.Location) // Dover, DE, USA {39.158168 -75.5243682}
	r, _ := c.ReverseGeocode(ctx, dover, nil)
	fmt.Println(r.Results[0].FormattedAddress) // Kings Hwy, Dover, DE 19901, USA

	// adminv1: Bounds is the bbox read longitude first.
	a, _ := c.Admin(ctx, dover, geosvc.Admin5)
	fmt.Println(a.Area().Properties.Name, a.Bounds.MinLon <= dover.Lon) // Kent County true

	// geoboundariesv1: 0 for every category.
	bs, _ := c.GeoBoundaries(ctx, geosvc.Point{Lon: -75.47, Lat: 39.26}, 0)
	fmt.Println(*bs[0].GeoBoundaryName) // Bombay Hook National Wildlife Refuge

	// covidv1
	h, _ := c.CovidAt(ctx, dover, "admin2", time.Time{})
	fmt.Println(h.HierarchyData["p0"].Name) // Kent

	// routev1
	rt, _ := c.Route(ctx, dover, wilmington, geosvc.Fastest)
	fmt.Println(rt.Distance, rt.Duration) // 78747 3793 (metres, seconds)

	// tilesv1
	png, _ := c.Tile(ctx, 14, 4754, 6252)
	fmt.Println(len(png))

	// keysv1
	s, _ := c.Usage(ctx, "")
	fmt.Println(s.Plan, s.Total)
	k, _ := c.Trial(ctx, openapi.TrialRequest{Email: "ann@example.com"})
	fmt.Println(k.ApiKey, k.Expires)
}

func ExampleClient_Matrix() {
	c, _ := geosvc.New("http://localhost:8080", os.Getenv("KEY"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	origins := []geosvc.Point{{Lon: -75.5244, Lat: 39.1582}, {Lon: -75.5466, Lat: 39.7447}}
	destinations := []geosvc.Point{{Lon: -75.7527, Lat: 39.6837}, {Lon: -75.1391, Lat: 38.7746}}
	m, err := c.Matrix(ctx, origins, destinations, &geosvc.MatrixOptions{
		OnProgress: func(st openapi.JobStatus) { log.Printf("%d/%d rows", st.Progress.RowsDone, st.Progress.RowsTotal) },
	})
	var jobErr *geosvc.JobError
	var forbidden *geosvc.ForbiddenError
	switch {
	case errors.As(err, &forbidden):
		log.Fatal("the key is not valid for tdmv1")
	case errors.As(err, &jobErr):
		log.Fatalf("job %s %s: %s", jobErr.UUID, jobErr.Status, jobErr.Message)
	case err != nil:
		log.Fatal(err) // context ended (the job was cancelled), network, APIError...
	}
	for i, row := range *m.Duration {
		for j, s := range row {
			if s != nil {
				fmt.Printf("origin %d -> destination %d: %d s, %d m\n", i, j, *s, *(*m.Distance)[i][j])
			}
		}
	}
}
