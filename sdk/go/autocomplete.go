package geosvc

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/geosvc/geosvc/sdk/go/openapi"
)

// AutocompleteOptions narrows an autocompletion; the zero value asks
// for 10 completions of every kind, in the default names.
type AutocompleteOptions struct {
	// Focus, when set, ranks completions nearer it higher (the map's
	// centre).
	Focus *Point
	// Bounds is a box, "lat,lng|lat,lng" (latitude first, as the
	// geocoder's); BoundsMode "bias" (the default) or "restrict" (only
	// completions inside it).
	Bounds, BoundsMode string
	// Limit is the most completions, 1 to 20; 0 means the server's 10.
	Limit int
	// Layers keeps completions of these kinds: "address", "street",
	// "place", "poi", "postcode".
	Layers []string
	// Lang names the completions in these languages, BCP 47 tags
	// preferred first ("fr", "de-CH,de"), where the data has names in
	// them.
	Lang string
}

// Autocomplete returns the completions of what a search box holds so
// far, best first (geocoderv1/autocomplete), in the geocoder's answer
// shape. Bad input is an *APIError with StatusCode 400, Status
// INVALID_REQUEST and the server's message naming the parameter.
func (c *Client) Autocomplete(ctx context.Context, text string, opts *AutocompleteOptions) (*openapi.GeocodeResponse, error) {
	p := &openapi.AutocompleteParams{Text: text}
	if opts != nil {
		if opts.Focus != nil {
			if err := opts.Focus.check(); err != nil {
				return nil, err
			}
			f := strconv.FormatFloat(opts.Focus.Lon, 'f', -1, 64) + "," + strconv.FormatFloat(opts.Focus.Lat, 'f', -1, 64)
			p.Focus = &f
		}
		p.Bounds = nonEmpty(opts.Bounds)
		if opts.BoundsMode != "" {
			m := openapi.AutocompleteParamsBoundsMode(opts.BoundsMode)
			p.BoundsMode = &m
		}
		if opts.Limit != 0 {
			p.Limit = &opts.Limit
		}
		p.Layers = nonEmpty(strings.Join(opts.Layers, ","))
		p.Lang = nonEmpty(opts.Lang)
	}
	r, err := c.raw.AutocompleteWithResponse(ctx, p)
	if err != nil {
		return nil, wrap("autocomplete", err)
	}
	if r.HTTPResponse.StatusCode == http.StatusBadRequest && r.JSON400 != nil {
		e := &APIError{Op: "autocomplete", StatusCode: http.StatusBadRequest, Status: string(r.JSON400.Status),
			RequestID: r.HTTPResponse.Header.Get("X-Request-Id")}
		if r.JSON400.ErrorMessage != nil {
			e.Message = *r.JSON400.ErrorMessage
		}
		return nil, e
	}
	return geocoded("autocomplete", r.HTTPResponse, r.Body, r.JSON200)
}
