package main

import (
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/paulmach/orb"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/geo/boundary"
	"github.com/geosvc/geosvc/geo/timezone"
)

// timezoneLayer is the name of the time-zone layer.
const timezoneLayer = "timezone"

// The time-zone layer has no file of its own: the zone polygons (tzf) and
// the tz database are compiled into the binary, and the zone -> admin
// areas lists are computed at load time from the boundary layer (one tzf
// lookup of each area's representative point, about a microsecond each),
// so they always agree with the binary's tzf data.
func init() {
	dataLayers = append(dataLayers, dataLayer{
		name:  timezoneLayer,
		order: 50, // after the boundary layer
		load:  loadTimezoneLayer,
		register: func(g *echo.Group, ls *loadedLayers) {
			api.RegisterTimezones(g, api.TimezonesOptions{
				Index: func() *timezone.Index {
					ix, _ := ls.get(timezoneLayer).(*timezone.Index)
					return ix
				},
			})
		},
	})
}

// loadTimezoneLayer loads tzf's polygons and indexes the admin areas of
// the boundary layer, if one is loaded, by zone.
func loadTimezoneLayer(dir string, ls *loadedLayers) error {
	start := time.Now()
	var areas timezone.Areas
	for _, v := range ls.byName {
		if l, ok := v.(*boundary.Layer); ok {
			areas = boundaryAreas{l}
		}
	}
	ix, err := timezone.NewIndex(timezone.Options{Areas: areas, Clock: time.Now})
	if err != nil {
		return err
	}
	ls.byName[timezoneLayer] = ix
	slog.Info("time-zone layer loaded", "with_areas", areas != nil, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// boundaryAreas shows the boundary layer's administrative areas to the
// time-zone index.
type boundaryAreas struct{ l *boundary.Layer }

func toTZArea(a *boundary.Area) timezone.Area {
	return timezone.Area{ID: a.ID, Name: a.Name, CountryISO3: a.CountryISO3, Level: a.AdminLevel, Point: a.RepPoint}
}

// MostSpecific is the admin area of highest admin_level containing p.
func (b boundaryAreas) MostSpecific(p orb.Point) (timezone.Area, bool) {
	a, ok := b.l.MostSpecificAdmin(p)
	if !ok {
		return timezone.Area{}, false
	}
	return toTZArea(a), true
}

// All is every administrative area.
func (b boundaryAreas) All() []timezone.Area {
	var out []timezone.Area
	for _, a := range b.l.Areas() {
		if a.Kind == boundary.KindAdmin {
			out = append(out, toTZArea(a))
		}
	}
	return out
}
