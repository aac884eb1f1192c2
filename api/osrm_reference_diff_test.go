package api

// osrmDifferences are the differences from OSRM's own answers that
// docs/osrm.md states ("Compared with OSRM itself"), each with its
// reason; TestOSRMReference fails on any other.
var osrmDifferences = []osrmDifference{}
