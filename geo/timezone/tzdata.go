package timezone

// Embed the tz database: zones load on hosts without /usr/share/zoneinfo.
import _ "time/tzdata"
