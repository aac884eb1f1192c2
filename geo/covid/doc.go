// Package covid owns geosvc's health layer, the data behind the covidv1
// interface: one record per administration (countries, their provinces,
// US states and counties, New York City's ZIP areas) with case totals,
// trends, a 7-day incidence and a risk score, NYC's ZIP-area polygons, and
// a business density grid built from the OSM extract.
//
// Case series are read by one generic loader described by
// configs/health.yaml (layouts, date formats, key columns, measures, the
// geography of the keys and the mappings where sources disagree), so that
// the next disease is a new data set there, not new code. The layer comes
// either from the committed snapshot covid.bin (JHU CSSE and NYC DOHMH
// data; Snapshot) or from the original files at build time, NYT's state
// series included when given (Build), and is stored in the data bundle as
// health.bin (WriteFile, Load).
//
// docs/health.md gives the id scheme, the rules per source, the formulas
// (trend, incidence, risk score, business density) and a worked example.
package covid
