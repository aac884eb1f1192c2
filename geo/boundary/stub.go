package boundary

import "github.com/paulmach/orb"

// Temporary bodies, replaced as the implementation lands.

func load(dir string) (*Layer, error)                               { return nil, errNotYet }
func build(opts BuildOptions) (*Report, error)                      { return nil, errNotYet }
func (l *Layer) geometry(i int32) orb.MultiPolygon                  { return nil }
func (l *Layer) polygonAt(i int32, p orb.Point) (orb.Polygon, bool) { return nil, false }
func (l *Layer) contains(i int32, p orb.Point) bool                 { return false }
func (l *Layer) containing(p orb.Point, filter Filter) []*Area      { return nil }
func (l *Layer) adminAt(p orb.Point, level int) (*Area, bool)       { return nil, false }
