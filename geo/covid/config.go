package covid

import (
	"bytes"
	"fmt"
	"slices"
	"sort"

	"go.yaml.in/yaml/v3"

	"github.com/geosvc/geosvc/configs"
)

// configFile is the base name of the health configuration in configs/.
const configFile = "health.yaml"

// config is a parsed health.yaml: the data sets (one per disease), the
// trend window and the business tags of the density grid.
type config struct {
	// TrendDays is the window of the trends, in days (default 7).
	TrendDays int `yaml:"trend_days"`
	// BusinessTags are the OSM tags that make a business: key -> values,
	// "*" standing for any value not in BusinessExcludeValues.
	BusinessTags map[string][]string `yaml:"business_tags"`
	// BusinessExcludeValues are values that never make a business
	// ("no", "vacant", ...), whatever the key.
	BusinessExcludeValues []string `yaml:"business_exclude_values"`
	// Datasets are the data sets, by name.
	Datasets []datasetConfig `yaml:"datasets"`
}

// datasetConfig is one disease's data: its sources, the lookup table, the
// input files and the geographies their keys belong to.
type datasetConfig struct {
	Name        string                  `yaml:"name"`
	Title       string                  `yaml:"title"`
	Sources     map[string]sourceConfig `yaml:"sources"`
	Lookup      lookupConfig            `yaml:"lookup"`
	Inputs      []inputConfig           `yaml:"inputs"`
	Geographies geographiesConfig       `yaml:"geographies"`

	byName map[string]int // input name -> index in Inputs
}

// sourceConfig is a data provider: its attribution and licence strings
// (shown by /v1/info) and whether its data may be shipped in the committed
// snapshot.
type sourceConfig struct {
	Attribution     string `yaml:"attribution"`
	Licence         string `yaml:"licence"`
	Redistributable bool   `yaml:"redistributable"`
}

// lookupConfig is the lookup table of ISO3 codes, FIPS codes and
// populations (JHU's UID_ISO_FIPS_LookUp_Table.csv).
type lookupConfig struct {
	Source string `yaml:"source"`
	File   string `yaml:"file"`
}

// inputConfig is one input file of a data set.
type inputConfig struct {
	// Name identifies the input (BuildOptions.Files overrides its path).
	Name string `yaml:"name"`
	// Source is the key of the input's Source.
	Source string `yaml:"source"`
	// File is the path, relative to BuildOptions.DataDir.
	File string `yaml:"file"`
	// Layout is wide, long, date-rows, totals or geojson.
	Layout string `yaml:"layout"`
	// DateFormat is the format of the dates (see parseDate).
	DateFormat string `yaml:"date_format"`
	// DateColumn is the column holding the date (long, date-rows).
	DateColumn string `yaml:"date_column"`
	// ColumnPrefix precedes the area code in the column names (date-rows).
	ColumnPrefix string `yaml:"column_prefix"`
	// DateOf names the input whose last date the totals are as of
	// (totals).
	DateOf string `yaml:"date_of"`
	// Measure is the single measure of a wide or date-rows input.
	Measure string `yaml:"measure"`
	// Measures maps measures to their columns (long, totals).
	Measures map[string]string `yaml:"measures"`
	// Population is the column holding the population (totals).
	Population string `yaml:"population"`
	// Decimals is how many decimals of a rate are kept.
	Decimals int `yaml:"decimals"`
	// Geography is the coding system of the keys: jhu-global, us-fips or
	// nyc-modzcta.
	Geography string `yaml:"geography"`
	// Level is the admin level the rows feed, where the geography does not
	// imply it (us-fips: 1 for states, 2 for counties).
	Level int `yaml:"level"`
	// Keys maps key roles (country, province, fips, name, state, code,
	// group) to column names.
	Keys map[string]string `yaml:"keys"`
}

// geographiesConfig configures the geographies (coding systems) a data
// set's keys belong to.
type geographiesConfig struct {
	JHUGlobal  jhuGlobalConfig  `yaml:"jhu-global"`
	USFIPS     usFIPSConfig     `yaml:"us-fips"`
	NYCModZCTA nycModZCTAConfig `yaml:"nyc-modzcta"`
}

// jhuGlobalConfig configures JHU's country/province names.
type jhuGlobalConfig struct {
	// ISO3 maps "Country" or "Country/Province" to an ISO3 code; it wins
	// over the lookup table.
	ISO3 map[string]string `yaml:"iso3"`
	// NotAreas are province names that are no province (summed, never
	// records).
	NotAreas []string `yaml:"not_areas"`
}

// usFIPSConfig configures US FIPS-keyed series.
type usFIPSConfig struct {
	Country       string `yaml:"country"`
	NotCountyFrom int    `yaml:"not_county_from"`
	// Territories maps the FIPS code of a territory to the ISO3 code of
	// its own admin0 record.
	Territories map[string]string `yaml:"territories"`
	Pooled      []pooledArea      `yaml:"pooled"`
}

// pooledArea is a reporting unit that holds the cases of several counties
// whose own rows are 0.
type pooledArea struct {
	Area       string   `yaml:"area"`
	IncludedIn string   `yaml:"included_in"`
	Counties   []string `yaml:"counties"`
}

// nycModZCTAConfig configures the NYC modified ZIP code tabulation areas.
type nycModZCTAConfig struct {
	Country  string            `yaml:"country"`
	State    string            `yaml:"state"`
	Level    int               `yaml:"level"`
	Boroughs map[string]string `yaml:"boroughs"`
	Exclude  []string          `yaml:"exclude"`
}

// Layouts, geographies and measures the loader knows.
const (
	layoutWide     = "wide"
	layoutLong     = "long"
	layoutDateRows = "date-rows"
	layoutTotals   = "totals"
	layoutGeoJSON  = "geojson"

	geoJHUGlobal  = "jhu-global"
	geoUSFIPS     = "us-fips"
	geoNYCModZCTA = "nyc-modzcta"
)

// parseConfig parses a health.yaml; nil parses the embedded one. Unknown
// keys are errors.
func parseConfig(b []byte) (*config, error) {
	if b == nil {
		var err error
		if b, err = configs.FS.ReadFile(configFile); err != nil {
			return nil, fmt.Errorf("health: %w", err)
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	c := &config{}
	if err := dec.Decode(c); err != nil {
		return nil, fmt.Errorf("health: %s: %w", configFile, err)
	}
	if c.TrendDays == 0 {
		c.TrendDays = 7
	}
	if err := c.check(); err != nil {
		return nil, fmt.Errorf("health: %s: %w", configFile, err)
	}
	return c, nil
}

// dataset returns the data set called name.
func (c *config) dataset(name string) (*datasetConfig, bool) {
	for i := range c.Datasets {
		if c.Datasets[i].Name == name {
			return &c.Datasets[i], true
		}
	}
	return nil, false
}

func (c *config) check() error {
	if c.TrendDays < 1 || c.TrendDays > 365 {
		return fmt.Errorf("trend_days %d: want 1 to 365", c.TrendDays)
	}
	if len(c.BusinessTags) == 0 {
		return fmt.Errorf("business_tags: none")
	}
	seen := map[string]bool{}
	for i := range c.Datasets {
		d := &c.Datasets[i]
		if d.Name == "" || seen[d.Name] {
			return fmt.Errorf("data set %d: name %q empty or repeated", i, d.Name)
		}
		seen[d.Name] = true
		if err := d.check(); err != nil {
			return fmt.Errorf("data set %s: %w", d.Name, err)
		}
	}
	return nil
}

func (d *datasetConfig) check() error {
	if _, ok := d.Sources[d.Lookup.Source]; !ok || d.Lookup.File == "" {
		return fmt.Errorf("lookup: source %q unknown or file missing", d.Lookup.Source)
	}
	d.byName = map[string]int{}
	for i, in := range d.Inputs {
		if in.Name == "" {
			return fmt.Errorf("input %d: no name", i)
		}
		if _, dup := d.byName[in.Name]; dup {
			return fmt.Errorf("input %s: name repeated", in.Name)
		}
		d.byName[in.Name] = i
		if err := in.check(d); err != nil {
			return fmt.Errorf("input %s: %w", in.Name, err)
		}
	}
	for _, in := range d.Inputs {
		if in.Layout == layoutTotals {
			j, ok := d.byName[in.DateOf]
			if !ok || d.Inputs[j].Layout == layoutTotals || d.Inputs[j].Layout == layoutGeoJSON {
				return fmt.Errorf("input %s: date_of %q is no series input", in.Name, in.DateOf)
			}
		}
	}
	return nil
}

func (in *inputConfig) check(d *datasetConfig) error {
	if _, ok := d.Sources[in.Source]; !ok {
		return fmt.Errorf("source %q not under sources", in.Source)
	}
	if in.File == "" {
		return fmt.Errorf("no file")
	}
	switch in.Geography {
	case geoJHUGlobal, geoUSFIPS, geoNYCModZCTA:
	default:
		return fmt.Errorf("geography %q: want %s, %s or %s", in.Geography, geoJHUGlobal, geoUSFIPS, geoNYCModZCTA)
	}
	needDate := func() error {
		if _, err := dateParser(in.DateFormat); err != nil {
			return err
		}
		return nil
	}
	needMeasure := func(m string) error {
		if !slices.Contains(measureNames, m) {
			return fmt.Errorf("measure %q: want one of %v", m, measureNames)
		}
		return nil
	}
	switch in.Layout {
	case layoutWide:
		if err := needDate(); err != nil {
			return err
		}
		return needMeasure(in.Measure)
	case layoutDateRows:
		if err := needDate(); err != nil {
			return err
		}
		if in.DateColumn == "" || in.ColumnPrefix == "" {
			return fmt.Errorf("date-rows needs date_column and column_prefix")
		}
		return needMeasure(in.Measure)
	case layoutLong, layoutTotals:
		if in.Layout == layoutLong {
			if err := needDate(); err != nil {
				return err
			}
			if in.DateColumn == "" {
				return fmt.Errorf("long needs date_column")
			}
		}
		if len(in.Measures) == 0 {
			return fmt.Errorf("%s needs measures", in.Layout)
		}
		for _, m := range sortedKeys(in.Measures) {
			if err := needMeasure(m); err != nil {
				return err
			}
		}
		return nil
	case layoutGeoJSON:
		if in.Keys["code"] == "" {
			return fmt.Errorf("geojson needs keys.code")
		}
		return nil
	}
	return fmt.Errorf("layout %q: want wide, long, date-rows, totals or geojson", in.Layout)
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
