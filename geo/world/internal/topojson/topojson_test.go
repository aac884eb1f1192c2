package topojson

import (
	"reflect"
	"strings"
	"testing"
)

// small is a hand-made quantized topology (transform: x/2+10, y/4+20):
// two squares sharing arc 0, "left" (arcs 0 and 1) and "right" (arc 2 and
// arc 0 reversed), a MultiPolygon whose first polygon has a hole (arcs 3
// and 4, each closed on itself) and whose second is arc 5 reversed, a
// numeric id, a null geometry and a nested collection with a line.
const small = `{
  "type": "Topology",
  "bbox": [10, 20, 14, 22.5],
  "transform": {"scale": [0.5, 0.25], "translate": [10, 20]},
  "objects": {
    "shapes": {"type": "GeometryCollection", "geometries": [
      {"type": "Polygon", "id": "L", "properties": {"name": "left"}, "arcs": [[0, 1]]},
      {"type": "Polygon", "id": 7, "properties": {"name": "right"}, "arcs": [[2, -1]]},
      {"type": "MultiPolygon", "arcs": [[[3], [4]], [[-6]]]},
      {"type": null},
      {"type": "GeometryCollection", "geometries": [{"type": "LineString", "arcs": [1, 2]}, {"type": "Point", "coordinates": [3, 4]}]}
    ]}
  },
  "arcs": [
    [[2, 0], [0, 2]],
    [[2, 2], [-2, 0], [0, -2], [2, 0]],
    [[2, 0], [2, 0], [0, 2], [-2, 0]],
    [[0, 4], [8, 0], [0, 6], [-8, 0], [0, -6]],
    [[2, 6], [0, 2], [2, 0], [0, -2], [-2, 0]],
    [[6, 0], [2, 0], [0, 2], [-2, -2]]
  ]
}`

func decodeSmall(t *testing.T) *Topology {
	t.Helper()
	topo, err := Decode([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

func TestDecodeSmall(t *testing.T) {
	topo := decodeSmall(t)
	if want := (&Transform{Scale: [2]float64{0.5, 0.25}, Translate: [2]float64{10, 20}}); !reflect.DeepEqual(topo.Transform, want) {
		t.Fatalf("transform %+v", topo.Transform)
	}
	// Arcs, delta-decoded by hand.
	wantArcs := [][]Position{
		{{2, 0}, {2, 2}},
		{{2, 2}, {0, 2}, {0, 0}, {2, 0}},
		{{2, 0}, {4, 0}, {4, 2}, {2, 2}},
		{{0, 4}, {8, 4}, {8, 10}, {0, 10}, {0, 4}},
		{{2, 6}, {2, 8}, {4, 8}, {4, 6}, {2, 6}},
		{{6, 0}, {8, 0}, {8, 2}, {6, 0}},
	}
	if !reflect.DeepEqual(topo.Arcs, wantArcs) {
		t.Fatalf("arcs\n%v\nwant\n%v", topo.Arcs, wantArcs)
	}
	shapes := topo.Objects["shapes"]
	if shapes == nil || shapes.Type != TypeGeometryCollection || len(shapes.Geometries) != 5 {
		t.Fatalf("shapes %+v", shapes)
	}
	gs := shapes.Geometries
	tests := []struct {
		i        int
		typ, id  string
		name     string
		polygons [][][]int
	}{
		{0, TypePolygon, "L", "left", [][][]int{{{0, 1}}}},
		{1, TypePolygon, "7", "right", [][][]int{{{2, -1}}}},
		{2, TypeMultiPolygon, "", "", [][][]int{{{3}, {4}}, {{-6}}}},
		{3, "", "", "", nil},
	}
	for _, tt := range tests {
		g := gs[tt.i]
		if g.Type != tt.typ || g.ID != tt.id || g.StringProperty("name") != tt.name || !reflect.DeepEqual(g.Polygons, tt.polygons) {
			t.Errorf("geometry %d = %+v, want type %q id %q name %q polygons %v", tt.i, g, tt.typ, tt.id, tt.name, tt.polygons)
		}
	}
	nested := gs[4].Geometries
	if len(nested) != 2 || !reflect.DeepEqual(nested[0].Lines, [][]int{{1, 2}}) || !reflect.DeepEqual(nested[1].Points, []Position{{3, 4}}) {
		t.Errorf("nested collection %+v %+v", nested[0], nested[1])
	}
}

func TestPolygons(t *testing.T) {
	topo := decodeSmall(t)
	gs := topo.Objects["shapes"].Geometries
	// Coordinates computed by hand: x/2+10, y/4+20.
	tests := []struct {
		name string
		g    *Geometry
		want [][][]Position
	}{
		{"left: arc 0 then arc 1 without its first position", gs[0], [][][]Position{{
			{{11, 20}, {11, 20.5}, {10, 20.5}, {10, 20}, {11, 20}},
		}}},
		{"right: arc 2 then arc 0 reversed", gs[1], [][][]Position{{
			{{11, 20}, {12, 20}, {12, 20.5}, {11, 20.5}, {11, 20}},
		}}},
		{"multipolygon: a polygon with a hole, an arc reversed", gs[2], [][][]Position{
			{
				{{10, 21}, {14, 21}, {14, 22.5}, {10, 22.5}, {10, 21}},
				{{11, 21.5}, {11, 22}, {12, 22}, {12, 21.5}, {11, 21.5}},
			},
			{{{13, 20}, {14, 20.5}, {14, 20}, {13, 20}}},
		}},
		{"null geometry", gs[3], [][][]Position{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			polys, err := topo.Polygons(tt.g)
			if err != nil {
				t.Fatal(err)
			}
			for _, rings := range polys {
				for _, r := range rings {
					for i := range r {
						r[i] = topo.Coordinates(r[i])
					}
				}
			}
			if !reflect.DeepEqual(polys, tt.want) {
				t.Errorf("got %v\nwant %v", polys, tt.want)
			}
		})
	}
}

func TestLine(t *testing.T) {
	topo := decodeSmall(t)
	tests := []struct {
		refs    []int
		want    []Position
		wantErr string
	}{
		{[]int{1, 2}, []Position{{2, 2}, {0, 2}, {0, 0}, {2, 0}, {4, 0}, {4, 2}, {2, 2}}, ""},
		{[]int{-1}, []Position{{2, 2}, {2, 0}}, ""},
		{[]int{0, 0}, nil, "starts at"},
		{[]int{6}, nil, "6 arcs"},
		{[]int{-7}, nil, "6 arcs"},
	}
	for _, tt := range tests {
		got, err := topo.Line(tt.refs)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Line(%v) error %v, want %q", tt.refs, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Line(%v) = %v, %v; want %v", tt.refs, got, err, tt.want)
		}
	}
	if _, err := topo.Ring([]int{0}); err == nil {
		t.Error("Ring accepted an open line of two positions")
	}
}

func TestNotQuantized(t *testing.T) {
	topo, err := Decode([]byte(`{"type":"Topology","objects":{"a":{"type":"Polygon","arcs":[[0]]}},
		"arcs":[[[0.5,0.5],[1.5,0.5],[1.5,1.5],[0.5,0.5]]]}`))
	if err != nil {
		t.Fatal(err)
	}
	polys, err := topo.Polygons(topo.Objects["a"])
	if err != nil {
		t.Fatal(err)
	}
	if want := [][][]Position{{{{0.5, 0.5}, {1.5, 0.5}, {1.5, 1.5}, {0.5, 0.5}}}}; !reflect.DeepEqual(polys, want) {
		t.Errorf("got %v, want %v (positions as written, not delta-decoded)", polys, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	const arcs = `"arcs":[[[0,0],[1,0],[0,1],[-1,-1]]]`
	tests := []struct {
		name, in, want string
	}{
		{"not JSON", `{`, "unexpected end"},
		{"not a topology", `{"type":"FeatureCollection"}`, "want \"Topology\""},
		{"short transform", `{"type":"Topology","transform":{"scale":[1],"translate":[0,0]},"objects":{},"arcs":[]}`, "transform"},
		{"arc of one position", `{"type":"Topology","objects":{},"arcs":[[[0,0]]]}`, "two or more"},
		{"position of one number", `{"type":"Topology","objects":{},"arcs":[[[0,0],[1]]]}`, "position 1"},
		{"fractional quantized position", `{"type":"Topology","transform":{"scale":[1,1],"translate":[0,0]},"objects":{},"arcs":[[[0,0],[0.5,1]]]}`, "integer"},
		{"huge quantized position", `{"type":"Topology","transform":{"scale":[1,1],"translate":[0,0]},"objects":{},"arcs":[[[0,0],[1e300,1]]]}`, "2^53"},
		{"arc out of range", `{"type":"Topology","objects":{"a":{"type":"Polygon","arcs":[[1]]}},` + arcs + `}`, "arc reference 1"},
		{"reversed arc out of range", `{"type":"Topology","objects":{"a":{"type":"Polygon","arcs":[[-2]]}},` + arcs + `}`, "arc reference -2"},
		{"empty ring", `{"type":"Topology","objects":{"a":{"type":"MultiPolygon","arcs":[[[]]]}},` + arcs + `}`, "without arcs"},
		{"fractional reference", `{"type":"Topology","objects":{"a":{"type":"LineString","arcs":[0.5]}},` + arcs + `}`, "arcs"},
		{"unknown type", `{"type":"Topology","objects":{"a":{"type":"Circle"}},` + arcs + `}`, "unknown geometry type"},
		{"null object", `{"type":"Topology","objects":{"a":null},` + arcs + `}`, "null"},
		{"bad id", `{"type":"Topology","objects":{"a":{"type":null,"id":[1]}},` + arcs + `}`, "id"},
		{"polygon without arcs", `{"type":"Topology","objects":{"a":{"type":"Polygon"}},` + arcs + `}`, "no arcs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
