package covid

import "strings"

// idSep separates the parts of a boundary_id.
const idSep = "|"

// CountryID returns the boundary_id of a country's admin0 record: its
// ISO3 code as biter777/countries writes it ("USA", "XKX" for Kosovo);
// code may be ISO3, ISO2 or a name the library knows.
func CountryID(code string) string { return canonicalISO3(code) }

// StateID returns the boundary_id of a US state (or territory) by FIPS
// code: "10" or "10.0" -> "USA|10", "1" -> "USA|01".
func StateID(fips string) string {
	f, ok := normalizeFIPS(fips)
	if !ok || len(f) != 2 {
		return ""
	}
	return "USA" + idSep + f
}

// CountyID returns the boundary_id of a US county by 5-digit FIPS code:
// "10001" or JHU's "10001.0" -> "USA|10|10001", "1001" -> "USA|01|01001".
func CountyID(fips string) string {
	f, ok := normalizeFIPS(fips)
	if !ok || len(f) != 5 {
		return ""
	}
	return "USA" + idSep + f[:2] + idSep + f
}

// ParentID returns the boundary_id of the record directly above id (the
// id without its last part): "USA|36|36047|11201" -> "USA|36|36047";
// "" for a country.
func ParentID(id string) string {
	i := strings.LastIndex(id, idSep)
	if i < 0 {
		return ""
	}
	return id[:i]
}
