package soap

import (
	"context"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/geosvc/geosvc/internal/redistest"
	"github.com/geosvc/geosvc/keys"
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
	fault(setOp("LocationCreateSetSimple", f.key, "depots"), "already")
	fault(setOp("LocationCreateSetSimple", setKey, "more"), "a set key cannot create")
	fault(setOp("LocationCreateSetSimple", f.key, "no spaces"), "LocationSetName")

	// Two depots east of the point (-75.4995, 39.0005), one bad.
	var up struct {
		R uploadResult `xml:"Body>LocationUploadResponse>LocationUploadResult"`
	}
	if err := xml.Unmarshal(must(uploadOp(setKey, false, "-75.4990,39.0005", "-75.4980,39.0005", "east,39")), &up); err != nil {
		t.Fatal(err)
	}
	if up.R.Uploaded != 2 || up.R.Rejected != 1 || !strings.Contains(up.R.Message, "location 3") {
		t.Errorf("upload: %+v", up.R)
	}
	fault(uploadOp(f.key, false, "-75.4990,39.0005"), "addresses no location set")
	fault(uploadOp("depots", false, "-75.4990,39.0005"), "Forbidden") // a name is no key

	search := func(key string) []locationInput {
		t.Helper()
		var env struct {
			Locs []locationInput `xml:"Body>ProximitySimpleResponse>ProximitySimpleResult>LocationInput"`
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
		Locs []locationInput `xml:"Body>ProximityResponse>ProximityResult>LocationInput"`
	}
	if err := xml.Unmarshal(must(body), &prox); err != nil || len(prox.Locs) != 1 || prox.Locs[0].FID != "near" {
		t.Errorf("Proximity: %+v %v", prox.Locs, err)
	}

	// Only the owner's key or the set's own deletes it.
	_, stranger, err := f.store.Create(ctx, keys.CreateOptions{Owner: "stranger"})
	if err != nil {
		t.Fatal(err)
	}
	var del struct {
		OK bool `xml:"Body>LocationDeleteSetSimpleResponse>CreateDBStatus"`
	}
	// Set names are each key's own: the stranger has no set "depots".
	if err := xml.Unmarshal(must(setOp("LocationDeleteSetSimple", stranger, "depots")), &del); err != nil || del.OK {
		t.Errorf("stranger's delete: %v %v", del.OK, err)
	}
	if locs := search(setKey); len(locs) != 1 {
		t.Errorf("the set is gone after a stranger's delete: %+v", locs)
	}
	if err := xml.Unmarshal(must(setOp("LocationDeleteSetSimple", f.key, "depots")), &del); err != nil || !del.OK {
		t.Errorf("delete: %v %v", del.OK, err)
	}
	fault(uploadOp(setKey, false, "-75.4990,39.0005"), "Forbidden") // the set key is revoked
	if err := xml.Unmarshal(must(setOp("LocationDeleteSetSimple", f.key, "depots")), &del); err != nil || del.OK {
		t.Errorf("second delete: %v %v", del.OK, err)
	}
}

// TestSetKeyFollowsItsOwner: a set key stops working when its owner's key
// is revoked, and its requests count in the owner's usage and rate limit
// (through the real key gate: a plan whose bucket of 5 never refills on
// a clock that stands still).
func TestSetKeyFollowsItsOwner(t *testing.T) {
	f := newFixture(t, false)
	ctx := context.Background()
	plans, err := keys.ParsePlans([]byte("currency: USD\ndefault_plan: slow\nplans:\n  slow:\n    rate_limit: {rate: 0.5, burst: 5}\n"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	r := redistest.New(t)
	store := keys.NewStore(r.Client, keys.Options{Prefix: r.Prefix, Plans: plans, Now: func() time.Time { return now }})
	f.svc.opts.Gate = keys.NewGate(store, keys.GateOptions{})
	f.svc.opts.Redis, f.svc.opts.Prefix = r.Client, r.Prefix
	owner, ownerKey, err := store.Create(ctx, keys.CreateOptions{Owner: "owner"})
	if err != nil {
		t.Fatal(err)
	}
	used := func(id string) int64 {
		t.Helper()
		days, err := store.Usage(ctx, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, d := range days {
			n += d.Counts[Interface]
		}
		return n
	}
	rec := f.post("text/xml", envelope11(setOp("LocationCreateSetSimple", ownerKey, "mine"))) // token 1
	var created struct {
		Key string `xml:"Body>LocationCreateSetSimpleResponse>SubscriptionKey"`
	}
	if err := xml.Unmarshal(rec.Body.Bytes(), &created); err != nil || created.Key == "" {
		t.Fatalf("no set key: %s", rec.Body)
	}
	setKey, err := store.Authenticate(ctx, created.Key)
	if err != nil {
		t.Fatal(err)
	}
	if n := used(owner.ID); n != 1 {
		t.Fatalf("creating the set: owner's usage %d, want 1", n)
	}
	rec = f.post("text/xml", envelope11(uploadOp(created.Key, false, "-75.4990,39.0005"))) // token 2
	if code, reason := faultOf(t, rec.Body.String()); code != "" || used(owner.ID) != 2 || used(setKey.ID) != 0 {
		t.Errorf("upload with the set key: %s %s, owner's usage %d (want 2), the set key's %d (want 0)", code, reason, used(owner.ID), used(setKey.ID))
	}
	// A fault is not billed.
	f.post("text/xml", envelope11(uploadOp(created.Key, false, "x,y")))                            // token 3
	f.post("text/xml", envelope11(gazetteerSimple(ownerKey, map[string]string{"Street": "Qqqq"}))) // token 4
	if n := used(owner.ID); n != 4 {                                                               // the upload (one location rejected, still an answer) and the gazetteer
		t.Errorf("owner's usage %d, want 4", n)
	}
	f.post("text/xml", envelope11(`<MapSimple xmlns="http://geosvc.org/LocationService/"><SubscriptionKey>`+ownerKey+`</SubscriptionKey></MapSimple>`)) // token 5
	if n := used(owner.ID); n != 4 {
		t.Errorf("a fault was billed: owner's usage %d, want 4", n)
	}
	// The owner's bucket is empty now, and it is the set key's too: one
	// token at 0.5 a second is 2 s away.
	rec = f.post("text/xml", envelope11(uploadOp(created.Key, false, "-75.4990,39.0005")))
	if _, reason := faultOf(t, rec.Body.String()); !strings.Contains(reason, "rate limit exceeded: retry in 2 s") {
		t.Errorf("rate limited: %q", reason)
	}
	// Revoking the owner disables the set key.
	if _, err := store.Revoke(ctx, owner.ID); err != nil {
		t.Fatal(err)
	}
	rec = f.post("text/xml", envelope11(uploadOp(created.Key, false, "-75.4990,39.0005")))
	if _, reason := faultOf(t, rec.Body.String()); reason != "Forbidden" {
		t.Errorf("set key of a revoked owner: %q, want Forbidden", reason)
	}
}

// TestUploadScriptBound: the upload script refuses to grow a set past its
// bound, atomically, and empties it first on request.
func TestUploadScriptBound(t *testing.T) {
	f := newFixture(t, false)
	ctx := context.Background()
	rdb := f.svc.opts.Redis
	key := f.svc.opts.Prefix + "bound"
	run := func(clear string, max int, vals ...string) int {
		t.Helper()
		args := []any{clear, max}
		for _, v := range vals {
			args = append(args, v)
		}
		n, err := uploadScript.Run(ctx, rdb, []string{key}, args...).Int()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := run("0", 3, "a", "b"); n != 2 {
		t.Errorf("first upload: %d", n)
	}
	if n := run("0", 3, "c", "d"); n != -1 {
		t.Errorf("over the bound: %d, want -1", n)
	}
	if n := run("1", 3, "x", "y", "z"); n != 3 {
		t.Errorf("cleared upload: %d, want 3", n)
	}
	if got, _ := rdb.LRange(ctx, key, 0, -1).Result(); strings.Join(got, "") != "xyz" {
		t.Errorf("list %v", got)
	}
	many := make([]string, 2500) // more than one unpack at a time
	for i := range many {
		many[i] = "v"
	}
	if n := run("1", 10000, many...); n != 2500 {
		t.Errorf("2,500 values: %d", n)
	}
}
