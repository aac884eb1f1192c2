package api

import (
	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/keys"
)

// ctxServer is the context key under which the guard leaves the server.
const ctxServer = "geosvc.server"

// quotaBody is the body of a 429 for a quota: the rate limit's 429 has a
// message only; this one says which quota and when it resets.
type quotaBody struct {
	Message string              `json:"message"`
	Quota   *keys.QuotaExceeded `json:"quota"`
}

// takeQuota takes n units of metric ("geocoderv1" for a request,
// "tdmv1.cells" for the cells of a matrix order) from the quota of the
// request's key's plan, before the work is accepted. It returns nil when
// the request may go on (also when the plan has no such quota, and when
// Redis cannot say: logged, let through, as the rate limit does), or the
// 429 to return: Retry-After until the quota resets, and a body
// {"message", "quota": {plan, metric, period, limit, used, requested,
// resets}}. Units taken are given back by the guard if the request does
// not succeed (a non-2xx answer or an error), so a handler simply returns
// the error.
//
// The tdmv1 order handler calls it once the order is valid:
//
//	if err := takeQuota(c, keys.TDMV1+keys.CellsSuffix, int64(len(o.Origins))*int64(len(o.Destinations))); err != nil {
//		return err
//	}
func takeQuota(c echo.Context, metric string, n int64) error {
	pass, ok := c.Get(ctxPass).(*keys.Pass)
	if !ok {
		return nil
	}
	if err := pass.TakeQuota(c.Request().Context(), metric, n); err != nil {
		if s, ok := c.Get(ctxServer).(*Server); ok {
			return s.gateError(c, err)
		}
		return err
	}
	return nil
}
