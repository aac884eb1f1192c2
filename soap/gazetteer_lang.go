package soap

import (
	"strings"

	"github.com/geosvc/geosvc/geo/geocode"
)

// gazetteerLangs reads a Gazetteer request's Language: BCP 47 tags,
// comma-separated (none: the default names); a malformed one is a Sender
// fault.
func gazetteerLangs(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	langs, err := geocode.ParseLangs(s)
	if err != nil {
		return nil, senderFault("Language %q is %v", s, err)
	}
	return langs, nil
}

// localizeLocation writes the names of a checked location in langs: its
// Name (the best match's formatted address) and each field's names that
// are a match's (the best's, or one of the ties'), by the component
// they come from. Given values echoed (Current, NotChecked fields) stay
// as given.
func localizeLocation(ix *geocode.Index, loc *location, best geocode.Candidate, ties []geocode.Candidate, langs []string) {
	type key struct{ typ, name string }
	names := map[key]string{}
	for _, c := range append([]geocode.Candidate{best}, ties...) {
		lc := ix.Localize(c, langs)
		for i, comp := range c.Components {
			if i < len(lc.Components) && len(comp.Types) > 0 && lc.Components[i].LongName != comp.LongName {
				names[key{comp.Types[0], comp.LongName}] = lc.Components[i].LongName
			}
		}
		if c.PlaceID == best.PlaceID {
			loc.Name = lc.FormattedAddress
		}
	}
	if len(names) == 0 {
		return
	}
	for _, gf := range gazetteerFields {
		f := fieldOf(loc, gf.component)
		if f == nil || f.Status == statusNotChecked {
			continue
		}
		for i, n := range f.Names {
			if v, ok := names[key{gf.component, n.Value}]; ok {
				f.Names[i].Value = v
			}
		}
	}
}

// fieldOf returns the field of loc for a component type (nil: none).
func fieldOf(loc *location, component string) *locationField {
	switch component {
	case "country":
		return loc.Country
	case "administrative_area_level_1":
		return loc.State
	case "postal_code":
		return loc.PostCode
	case "locality":
		return loc.City
	case "route":
		return loc.Street
	case "street_number":
		return loc.Premise
	}
	return nil
}
