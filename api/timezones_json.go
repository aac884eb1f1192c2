package api

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/geosvc/geosvc/geo/timezone"
)

// tzCategoryCode is the category_code of the time_zone object (the
// specification's description says 911).
const tzCategoryCode = 911

// tzTimeZone is the time_zone object, fields in the specification's order.
type tzTimeZone struct {
	CategoryCode          int         `json:"category_code"`
	CategoryName          string      `json:"category_name"`
	TimeZone              string      `json:"time_zone"`
	CountryISO3Codes      []string    `json:"country_ISO3_codes"`
	LocalBoundaryNames    []string    `json:"local_boundary_names"`
	AbbreviationsNames    [][2]string `json:"time_zone_abbreviations_names"`
	DSTAbbreviationsNames [][2]string `json:"dst_time_zone_abbreviations_names"`
}

// tzLocalZone is the zone part of the local_area object: every field after
// local_boundary_name, in the specification's order. The dst_* fields are
// left out for a zone without DST.
type tzLocalZone struct {
	TimeZone             string `json:"time_zone"`
	LocalAbbreviation    string `json:"time_zone_local_abbreviation"`
	LocalName            string `json:"time_zone_local_name"`
	HasDST               bool   `json:"has_daylight_saving_time"`
	DSTLocalAbbreviation string `json:"dst_time_zone_local_abbreviation,omitempty"`
	DSTLocalName         string `json:"dst_time_zone_local_name,omitempty"`
	DSTStart             string `json:"dst_start,omitempty"`
	DSTEnd               string `json:"dst_end,omitempty"`
}

// tzEncoded is a zone's answer parts, encoded once per zone and year.
type tzEncoded struct {
	// head is `{"time_zone":{...},"local_area":{`.
	head []byte
	// tail is the zone fields of local_area without the braces, then `}}`.
	tail []byte
}

// tzEncoder encodes xy2tzdata answers; it caches the parts that depend on
// the zone and year only. Safe for concurrent use.
type tzEncoder struct {
	cache sync.Map // *timezone.Zone -> *tzEncoded
	bufs  sync.Pool
}

// encoded returns the cached parts of r's zone.
func (e *tzEncoder) encoded(r timezone.Result) (*tzEncoded, error) {
	if v, ok := e.cache.Load(r.Zone); ok {
		return v.(*tzEncoded), nil
	}
	z := r.Zone
	tz := tzTimeZone{
		CategoryCode:          tzCategoryCode,
		CategoryName:          "time_zone",
		TimeZone:              z.UTCOffset(),
		CountryISO3Codes:      z.Countries,
		LocalBoundaryNames:    r.BoundaryNames,
		AbbreviationsNames:    [][2]string{{z.Standard.Abbreviation, z.Standard.Name}},
		DSTAbbreviationsNames: [][2]string{},
	}
	if tz.CountryISO3Codes == nil {
		tz.CountryISO3Codes = []string{}
	}
	if tz.LocalBoundaryNames == nil {
		tz.LocalBoundaryNames = []string{}
	}
	lz := tzLocalZone{
		TimeZone:          z.UTCOffset(),
		LocalAbbreviation: z.Standard.Abbreviation,
		LocalName:         z.Standard.Name,
		HasDST:            z.HasDST,
	}
	if z.HasDST {
		tz.DSTAbbreviationsNames = [][2]string{{z.DST.Abbreviation, z.DST.Name}}
		lz.DSTLocalAbbreviation = z.DST.Abbreviation
		lz.DSTLocalName = z.DST.Name
		lz.DSTStart = formatInstant(z.DSTStart)
		lz.DSTEnd = formatInstant(z.DSTEnd)
	}
	tzJSON, err := json.Marshal(tz)
	if err != nil {
		return nil, err
	}
	lzJSON, err := json.Marshal(lz)
	if err != nil {
		return nil, err
	}
	enc := &tzEncoded{
		head: append(append([]byte(`{"time_zone":`), tzJSON...), `,"local_area":{`...),
		tail: append(lzJSON[1:len(lzJSON)-1:len(lzJSON)-1], "}}"...),
	}
	v, _ := e.cache.LoadOrStore(r.Zone, enc)
	return v.(*tzEncoded), nil
}

// formatInstant writes t as an ISO 8601 instant in UTC, "" for the zero
// time.
func formatInstant(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// encode appends the xy2tzdata answer of r to dst: the time_zone object,
// then local_area with the area's id, country and name when the point is
// in an area of the bundle (the country alone, from the zone, when not).
func (e *tzEncoder) encode(dst []byte, r timezone.Result) ([]byte, error) {
	enc, err := e.encoded(r)
	if err != nil {
		return nil, err
	}
	dst = append(dst, enc.head...)
	if r.InArea {
		dst = append(dst, `"local_boundary_id":`...)
		dst = strconv.AppendInt(dst, r.Area.ID, 10)
		dst = append(dst, ',')
	}
	if c := r.CountryISO3(); c != "" {
		dst = append(dst, `"country_ISO3_code":`...)
		dst = appendJSONString(dst, c)
		dst = append(dst, ',')
	}
	if r.InArea {
		dst = append(dst, `"local_boundary_name":`...)
		dst = appendJSONString(dst, r.Area.Name)
		dst = append(dst, ',')
	}
	return append(dst, enc.tail...), nil
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// does (plain printable ASCII is copied as is, anything else goes through
// encoding/json).
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // a string always encodes
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
