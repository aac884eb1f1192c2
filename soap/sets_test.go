package soap

import (
	"context"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/geosvc/geosvc/api/keys"
)

func setOp(op, key, name string) string {
	return `<` + op + ` xmlns="http://geosvc.org/LocationService/"><LocationSetName>` + name + `</LocationSetName><SubscriptionKey>` + key + `</SubscriptionKey></` + op + `>`
}

func uploadOp(key string, clear bool, locs ...string) string {
	c := "false"
	if clear {
		c = "true"
	}
	var b strings.Builder
	b.WriteString(`<LocationUpload xmlns="http://geosvc.org/LocationService/"><Locations>`)
	for i, l := range locs {
		x, y, _ := strings.Cut(l, ",")
		b.WriteString(`<LocationInput fid="d` + string(rune('1'+i)) + `"><Name>depot ` + string(rune('1'+i)) + `</Name><X>` + x + `</X><Y>` + y + `</Y><Encoding>EPGS4326</Encoding></LocationInput>`)
	}
	b.WriteString(`</Locations><ClearBeforeUpload>` + c + `</ClearBeforeUpload><NameOrSubscriptionKey>` + key + `</NameOrSubscriptionKey></LocationUpload>`)
	return b.String()
}

func TestLocationSets(t *testing.T) {
	f := newFixture(t, false)
	ctx := context.Background()
	must := func(body string) []byte {
		t.Helper()
		rec := f.post("text/xml", envelope11(body))
		if code, reason := faultOf(t, rec.Body.String()); code != "" {
			t.Fatalf("fault %s %s", code, reason)
		}
		return rec.Body.Bytes()
	}
	fault := func(body, want string) {
		t.Helper()
		rec := f.post("text/xml", envelope11(body))
		if _, reason := faultOf(t, rec.Body.String()); !strings.Contains(reason, want) {
			t.Errorf("fault %q, want one containing %q", reason, want)
		}
	}
	var created struct {
		Key string `xml:"Body>LocationCreateSetSimpleResponse>SubscriptionKey"`
	}
	if err := xml.Unmarshal(must(setOp("LocationCreateSetSimple", f.key, "depots")), &created); err != nil || created.Key == "" {
		t.Fatalf("no set key: %v", err)
	}
	setKey := created.Key
	fault(setOp("LocationCreateSetSimple", f.key, "depots"), "exists")
	fault(setOp("LocationCreateSetSimple", f.key, "no spaces"), "LocationSetName")

	// Two depots east of the point (-75.4995, 39.0005), one bad.
	var up struct {
		R UploadResult `xml:"Body>LocationUploadResponse>LocationUploadResult"`
	}
	if err := xml.Unmarshal(must(uploadOp(setKey, false, "-75.4990,39.0005", "-75.4980,39.0005", "east,39")), &up); err != nil {
		t.Fatal(err)
	}
	if up.R.Uploaded != 2 || up.R.Rejected != 1 || !strings.Contains(up.R.Message, "location 3") {
		t.Errorf("upload: %+v", up.R)
	}
	fault(uploadOp(f.key, false, "-75.4990,39.0005"), "addresses no location set")
	fault(uploadOp("depots", false, "-75.4990,39.0005"), "Forbidden") // a name is no key

	search := func(key string) []LocationInput {
		t.Helper()
		var env struct {
			Locs []LocationInput `xml:"Body>ProximitySimpleResponse>ProximitySimpleResult>LocationInput"`
		}
		if err := xml.Unmarshal(must(proximitySimpleBody(key, map[string]string{"NodeType": "DBLocations", "UseDbSet": "true"})), &env); err != nil {
			t.Fatal(err)
		}
		return env.Locs
	}
	locs := search(setKey)
	if len(locs) != 2 || locs[0].Name != "depot 1" || locs[1].Name != "depot 2" || locs[0].Radius != "43" || locs[0].FID != "d1" {
		t.Errorf("set search: %+v", locs)
	}
	fault(proximitySimpleBody(f.key, map[string]string{"NodeType": "DBLocations", "UseDbSet": "true"}), "addresses no location set")

	// Replace the set's contents.
	must(uploadOp(setKey, true, "-75.4970,39.0005"))
	if locs := search(setKey); len(locs) != 1 || locs[0].Name != "depot 1" || locs[0].Radius != "216" {
		t.Errorf("after ClearBeforeUpload: %+v", locs)
	}

	// Proximity among the request's own locations.
	body := `<Proximity xmlns="http://geosvc.org/LocationService/"><X>-75.4995</X><Y>39.0005</Y><Encoding>EPGS4326</Encoding><Locations>` +
		`<LocationInput fid="far"><X>-75.4900</X><Y>39.0005</Y><Encoding>EPGS4326</Encoding></LocationInput>` +
		`<LocationInput fid="near"><X>-75.4994</X><Y>39.0005</Y><Encoding>EPGS4326</Encoding></LocationInput>` +
		`</Locations><NodeType>DBLocations</NodeType><SearchType>Radius</SearchType><MaxNofResults>5</MaxNofResults>` +
		`<MaxdistanceMeters>500</MaxdistanceMeters><UseDbSet>false</UseDbSet><SubscriptionKey>` + f.key + `</SubscriptionKey></Proximity>`
	var prox struct {
		Locs []LocationInput `xml:"Body>ProximityResponse>ProximityResult>LocationInput"`
	}
	if err := xml.Unmarshal(must(body), &prox); err != nil || len(prox.Locs) != 1 || prox.Locs[0].FID != "near" {
		t.Errorf("Proximity: %+v %v", prox.Locs, err)
	}

	// Only the owner's key or the set's own deletes it.
	_, stranger, err := f.store.Create(ctx, keys.CreateOptions{Owner: "stranger"})
	if err != nil {
		t.Fatal(err)
	}
	fault(setOp("LocationDeleteSetSimple", stranger, "depots"), "Forbidden")
	var del struct {
		OK bool `xml:"Body>LocationDeleteSetSimpleResponse>CreateDBStatus"`
	}
	if err := xml.Unmarshal(must(setOp("LocationDeleteSetSimple", f.key, "depots")), &del); err != nil || !del.OK {
		t.Errorf("delete: %v %v", del.OK, err)
	}
	fault(uploadOp(setKey, false, "-75.4990,39.0005"), "Forbidden") // the set key is revoked
	if err := xml.Unmarshal(must(setOp("LocationDeleteSetSimple", f.key, "depots")), &del); err != nil || del.OK {
		t.Errorf("second delete: %v %v", del.OK, err)
	}
}
