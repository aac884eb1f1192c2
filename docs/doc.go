// Package docs holds geosvc's reference documentation: one Markdown page
// per interface, with the decisions taken where the specification says
// "not shown", and the pages on routing, errors, configuration,
// operations and data (README.md indexes them). The package has no code.
// Its tests check that every relative link of the repository's README.md
// and of these pages resolves to a file, and every #fragment to a heading
// of the target page; and that data.md states the time-zone data versions
// the code has, and no page another one.
package docs
