package bundle

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/geosvc/geosvc/configs"
	"github.com/geosvc/geosvc/routing"
	"github.com/geosvc/geosvc/routing/osmroad"
	"github.com/geosvc/geosvc/routing/profile"
)

// The routing profiles a bundle may be built with. The car's graph is
// always built; bicycle and foot each add a graph of their own topology;
// truck needs nothing extra (it routes on the car's graph).
const (
	ProfileCar     = "car"
	ProfileTruck   = "truck"
	ProfileBicycle = "bicycle"
	ProfileFoot    = "foot"
)

// graphProfiles are the profiles with a graph of their own, in the order a
// bundle builds and lists them.
var graphProfiles = []string{ProfileCar, ProfileBicycle, ProfileFoot}

// ParseProfiles reads the --profiles list of `geosvc build`
// ("car,bicycle,foot"; "" is the car only) and returns the profiles whose
// graphs to build besides the car's, in a fixed order (bicycle, foot).
// car and truck are accepted and add nothing; any other name is an error
// that lists the names.
func ParseProfiles(list string) ([]string, error) {
	want := map[string]bool{}
	for _, p := range strings.Split(list, ",") {
		p = strings.ToLower(strings.TrimSpace(p))
		switch p {
		case "", ProfileCar, ProfileTruck:
		case ProfileBicycle, ProfileFoot:
			want[p] = true
		default:
			return nil, fmt.Errorf("unknown routing profile %q: --profiles takes a comma-separated list of car, truck, bicycle, foot", p)
		}
	}
	var out []string
	for _, p := range graphProfiles[1:] {
		if want[p] {
			out = append(out, p)
		}
	}
	return out, nil
}

// Profiles returns the routing profiles the bundle answers: "car" and the
// graph profiles it was built with ("bicycle", "foot").
func (b *Bundle) Profiles() []string {
	return append([]string{ProfileCar}, b.Manifest.Profiles...)
}

// GraphFor returns the routing graph of a profile: the car's (Graph) for
// "car" or "", that profile's own for "bicycle" and "foot"; nil when the
// bundle was not built with it, or was opened without graphs.
func (b *Bundle) GraphFor(profile string) *routing.Graph {
	if profile == "" || profile == ProfileCar {
		return b.Graph
	}
	return b.graphs[profile]
}

// SetMetricCacheBytes bounds the cache of customized metrics of every
// profile's graph to n bytes each (routing.Graph.SetMetricCacheBytes).
func (b *Bundle) SetMetricCacheBytes(n int64) {
	for _, p := range b.Profiles() {
		if g := b.GraphFor(p); g != nil {
			g.SetMetricCacheBytes(n)
		}
	}
}

// profileDir is the directory, inside a bundle, of a graph profile's
// routing files ("" for the car's, which lie in the bundle's top).
func profileDir(profile string) string {
	if profile == ProfileCar {
		return ""
	}
	return profile
}

// GraphDir returns the directory of a profile's routing files in the
// bundle directory dir: dir itself for the car ("" or "car"), dir/NAME
// for another profile.
func GraphDir(dir, profile string) string {
	if profile == "" {
		profile = ProfileCar
	}
	return filepath.Join(dir, profileDir(profile))
}

// loadGraphs memory-maps the routing graph of every profile the manifest
// lists, each on a goroutine of its own (their checksums are left to
// Verify, as the car's are): the first error in profile order is
// returned.
func loadGraphs(dir string, m Manifest) (map[string]*routing.Graph, error) {
	names := append([]string{ProfileCar}, m.Profiles...)
	graphs := make([]*routing.Graph, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, p := range names {
		if !slices.Contains(graphProfiles, p) {
			return nil, fmt.Errorf("manifest lists routing profile %q, which this binary does not know", p)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			graphs[i], errs[i] = routing.LoadDeferred(filepath.Join(dir, profileDir(p)))
			if errs[i] != nil && p != ProfileCar {
				errs[i] = fmt.Errorf("profile %s: %w", p, errs[i])
			}
		}()
	}
	wg.Wait()
	out := map[string]*routing.Graph{}
	for i, p := range names {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out[p] = graphs[i]
	}
	return out, nil
}

// profileInputs returns the inputs of the graph profiles besides the car
// (the embedded configs/NAME.yaml), so that --if-stale rebuilds when the
// list or a profile changes.
func profileInputs(profiles []string) ([]Input, error) {
	var in []Input
	for _, p := range profiles {
		b, err := configs.RoutingProfile(p)
		if err != nil {
			return nil, fmt.Errorf("no embedded %s profile: %w", p, err)
		}
		in = append(in, Input{Role: "profile." + p, Source: HashBytes("embedded:configs/"+p+".yaml", b)})
	}
	return in, nil
}

// buildProfileGraph reads the extract again with a graph profile's rules
// (bicycle, foot) and builds its routing graph into its directory of the
// bundle (work/NAME/routing.graph, ...), returning its layers for the
// manifest (routing.NAME, routing.NAME.snap, ...) and their bytes.
func buildProfileGraph(ctx context.Context, opts Options, name string) ([]Layer, int64, error) {
	b, err := configs.RoutingProfile(name)
	if err != nil {
		return nil, 0, err
	}
	prof, err := profile.Parse(b)
	if err != nil {
		return nil, 0, fmt.Errorf("profile %s: %w", name, err)
	}
	start := time.Now()
	stage := opts.Progress.Start("reading "+filepath.Base(opts.OSMPath)+" for the "+name+" graph", nil)
	net, err := osmroad.Read(opts.OSMPath, prof)
	stage.Done()
	if err != nil {
		return nil, 0, fmt.Errorf("read %s (%s): %w", opts.OSMPath, name, err)
	}
	fmt.Fprintf(opts.Report, "read %s for the %s graph (%v):\n%s\n", net.Source, name, time.Since(start).Round(time.Millisecond), net.Report.String())
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	dir := filepath.Join(opts.Out, profileDir(name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, 0, err
	}
	g, rep, err := routing.Build(net, prof, routing.WithDir(dir), routing.WithContraction(opts.Contraction), routing.WithStages(func(s string) func() {
		st := opts.Progress.Start(s+" ("+name+")", nil)
		return func() { st.Done() }
	}))
	if err != nil {
		return nil, 0, fmt.Errorf("build %s graph: %w", name, err)
	}
	if rep != nil {
		fmt.Fprintf(opts.Report, "%s graph: %s\n", name, rep.String())
	}
	g.Release()
	layers, size, err := routingLayers(opts.Out, name)
	if err == nil {
		fmt.Fprintf(opts.Report, "%s graph: %d nodes, %d edges, %d MB in %v\n", name, g.Meta().Nodes, g.Meta().Edges, size>>20, time.Since(start).Round(time.Millisecond))
	}
	return layers, size, err
}

// routingLayers lists the routing files of a graph profile in the bundle
// directory dir: the car's as routing, routing.snap, ... ; another
// profile's as routing.NAME, routing.NAME.snap, ... in NAME/.
func routingLayers(dir, name string) ([]Layer, int64, error) {
	var layers []Layer
	var total int64
	for i, f := range routing.Files() {
		file := filepath.ToSlash(filepath.Join(profileDir(name), f))
		fi, err := os.Stat(filepath.Join(dir, file))
		if err != nil {
			return nil, 0, err
		}
		layer := LayerRouting
		if name != ProfileCar {
			layer += "." + name
		}
		if i > 0 {
			layer += "." + strings.TrimPrefix(f, "routing.")
		}
		layers = append(layers, Layer{Name: layer, File: file, Size: fi.Size()})
		total += fi.Size()
	}
	return layers, total, nil
}
