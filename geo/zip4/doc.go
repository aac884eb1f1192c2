// Package zip4 owns geosvc's ZIP+4 layer: one polygon per ZIP+4 code, a
// spatial index answering "which ZIP+4 areas contain this point" and a
// zip9 -> feature map, stored in the data bundle as zip4.bin.
//
// Real ZIP+4 polygons are licensed USPS data, so by default the layer is
// DERIVED from OpenStreetMap: US roads imported from TIGER carry
// tiger:zip_left and tiger:zip_right, and ZIP+4 codes are assigned per
// block face (one side of a street between two intersections). Derive cuts
// every TIGER-tagged street at its intersections into block faces, builds
// one polygon per face side (the part of the plane within MaxDepth of the
// street on that side that is nearer to it than to any other street: a
// Voronoi partition of street sides, see sides.go), takes its ZIP5 from the
// side's TIGER tag and numbers the +4 with a deterministic block-face rule
// (see plus4.go). Those +4 codes are NOT USPS codes; every derived feature
// says so (Source "derived-tiger", Derived true). An authoritative layer read
// with ReadGeoJSON (geosvc build --zip4 FILE) replaces the derived one.
package zip4
