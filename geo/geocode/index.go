package geocode

import (
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/internal/binfmt"
)

// Kind is the class of an indexed feature.
type Kind uint8

// Feature kinds, most specific first.
const (
	// KindAddress is an address point (a node or building with a house
	// number).
	KindAddress Kind = iota + 1
	// KindInterpolation is an address range (addr:interpolation way or a
	// TIGER range) whose numbers are interpolated at query time.
	KindInterpolation
	// KindStreet is a named street: the highway ways of one name joined
	// where they meet.
	KindStreet
	// KindPOI is a named amenity, shop, tourism, office, leisure or
	// historic feature.
	KindPOI
	// KindPlace is a place node (city, town, village, hamlet, suburb,
	// neighbourhood, locality, county, state, country).
	KindPlace
	// KindPostcode is a postal code, located at the centre of what
	// carries it.
	KindPostcode
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindAddress:
		return "address"
	case KindInterpolation:
		return "interpolation"
	case KindStreet:
		return "street"
	case KindPOI:
		return "poi"
	case KindPlace:
		return "place"
	case KindPostcode:
		return "postcode"
	}
	return "unknown"
}

// noRef marks an absent feature, context or area reference.
const noRef = ^uint32(0)

// feature is one indexed object. Strings are ids into Index.strs (0 is
// the empty string). Its layout is fixed (no implicit padding, 104 bytes,
// checked by TestRecordLayout): geocode.bin stores the features as an
// array of these records, which Load uses in place.
type feature struct {
	kind    Kind
	rank    uint8 // place rank (placeTypes); interpolation step; streetAlias, streetRef
	osmType byte  // 'n', 'w', 'r'; 0 for synthetic features
	_       uint8
	name    uint32 // street, place, POI name, postcode; house number of an address
	street  uint32 // street feature of an address, interpolation or POI
	unit    uint32 // addr:unit
	class   uint32 // POI class ("amenity=library"), place type
	ctx     uint32 // context id
	pop     uint32 // population of a place
	hnFrom  int32  // interpolation range
	hnTo    int32
	part0   uint32 // first geometry part
	nparts  uint32
	_       uint32
	osmID   int64
	pt      orb.Point
	bound   orb.Bound
}

// streetAlias is the rank of a street feature that is a route number of
// roads with a name ("I-95" of the Delaware Turnpike): found by search,
// not named by reverse geocoding.
const streetAlias = 1

// streetRef is the rank of a street feature of roads that have only a
// route number ("CS-370").
const streetRef = 2

// placeCtx is the context of a feature: the names around it.
type placeCtx struct {
	locality      uint32 // string ids
	altLocality   uint32 // addr:city when it differs from locality
	neighbourhood uint32
	postcode      uint32
	county        uint32 // area ids
	state         uint32
	country       uint32
}

// area is an administrative area of a context (county, state, country).
// Its layout is fixed (64 bytes), as feature's.
type area struct {
	name  uint32 // string ids
	short uint32
	level uint8
	_     [7]byte
	// bound and center locate it (from the boundary layer); zero when
	// it is known only by name (a TIGER county tag).
	bound  orb.Bound
	center orb.Point
}

// areaKey identifies an area while building.
type areaKey struct {
	name, short uint32
	level       uint8
}

// Index is a geocoding index: built from an OSM extract (Build), saved
// in the bundle (Save) and loaded read-only (Load). Every slice is a
// plain array that Save writes as one section of geocode.bin and Load
// uses in place, aliasing the file's read-only mapping: nothing is
// decoded or rebuilt on load. It is safe for concurrent use.
type Index struct {
	// deferred holds the file checks of LoadDeferred (nil: done).
	deferred *binfmt.Deferred
	t        *Tables
	strs     strTable
	feats    []feature
	ctxs     []placeCtx
	areas    []area
	// parts holds two offsets into pts per geometry part: part i spans
	// pts[parts[2i]:parts[2i+1]]. Parts may share points (a road's line
	// is a part of its street, of the street of its route number and of
	// its TIGER ranges).
	parts []uint32
	// partCtx is the context of each part where it differs from its
	// feature's (noRef: the feature's): each road of a street has the
	// locality and postcode of where it lies.
	partCtx []uint32
	pts     []orb.Point
	meta    Meta
	// names are the name:xx tags of features while the index is built
	// (finish turns them into the search's ln* arrays).
	names map[uint32][]langName

	search
}

// Meta describes an index.
type Meta struct {
	// Source is the base name of the OSM file it was built from.
	Source string `json:"source"`
	// Counts are the number of features by kind name.
	Counts map[string]int `json:"counts"`
}

// Meta returns what the index was built from and holds.
func (ix *Index) Meta() Meta { return ix.meta }

// Tables returns the normalisation tables the index uses.
func (ix *Index) Tables() *Tables { return ix.t }

func (ix *Index) str(id uint32) string { return ix.strs.get(id) }

// ctxOfPart returns the context of geometry part i of feature f.
func (ix *Index) ctxOfPart(f *feature, i uint32) *placeCtx {
	if int(i) < len(ix.partCtx) && ix.partCtx[i] != noRef {
		return &ix.ctxs[ix.partCtx[i]]
	}
	return ix.ctx(f)
}

// part returns geometry part i.
func (ix *Index) part(i uint32) []orb.Point { return ix.pts[ix.parts[2*i]:ix.parts[2*i+1]] }

func (ix *Index) ctx(f *feature) *placeCtx {
	if f.ctx == noRef || int(f.ctx) >= len(ix.ctxs) {
		return &placeCtx{locality: 0, altLocality: 0, neighbourhood: 0, postcode: 0, county: noRef, state: noRef, country: noRef}
	}
	return &ix.ctxs[f.ctx]
}

func (ix *Index) area(id uint32) *area {
	if id == noRef || int(id) >= len(ix.areas) {
		return nil
	}
	return &ix.areas[id]
}
