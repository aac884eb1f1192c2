package timezone

// The zone tables are generated from Debian's tzdata and unicode-cldr-core
// packages (apt-get install tzdata unicode-cldr-core) and committed.
//go:generate go run ./internal/gen -out internal/tzdb/tables.go
