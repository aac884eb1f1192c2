package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/keys"
)

// ctxServer and ctxReservations are the context keys under which the
// guard leaves the server and the quota units a request has taken.
const (
	ctxServer       = "geosvc.server"
	ctxReservations = "geosvc.reservations"
)

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
	s, _ := c.Get(ctxServer).(*Server)
	k, ok := keyOf(c)
	if s == nil || s.opts.Keys == nil || !ok {
		return nil
	}
	res, err := s.opts.Keys.TakeQuota(c.Request().Context(), k, metric, n)
	var qe *keys.QuotaExceeded
	switch {
	case errors.As(err, &qe):
		c.Response().Header().Set("Retry-After", strconv.FormatInt(int64((qe.RetryAfter(s.opts.Now())+time.Second-1)/time.Second), 10))
		return echo.NewHTTPError(http.StatusTooManyRequests, quotaBody{Message: qe.Error(), Quota: qe})
	case err != nil:
		s.log.Warn("quota unavailable, request let through", slog.String("request_id", requestIDOf(c)), slog.String("key_id", k.ID), slog.Any("error", err))
		return nil
	}
	if !res.Empty() {
		taken, _ := c.Get(ctxReservations).([]keys.Reservation)
		c.Set(ctxReservations, append(taken, res))
	}
	return nil
}

// releaseQuota gives back the quota units the request took.
func (s *Server) releaseQuota(c echo.Context) {
	taken, _ := c.Get(ctxReservations).([]keys.Reservation)
	if len(taken) == 0 || s.opts.Keys == nil {
		return
	}
	c.Set(ctxReservations, nil)
	ctx := context.WithoutCancel(c.Request().Context())
	for _, r := range taken {
		if err := s.opts.Keys.Release(ctx, r); err != nil {
			s.log.Warn("quota units not given back", slog.String("request_id", requestIDOf(c)), slog.Any("error", err))
		}
	}
}

// TakeQuota takes n units of metric from the quota of key k's plan for a
// request that checks its key itself (SOAP). It returns a release func to
// call if the request then fails, or a *keys.QuotaExceeded when the quota
// has no room. When the plan has no such quota, or Redis cannot say
// (logged), it lets the request through.
func (s *Server) TakeQuota(ctx context.Context, k keys.Key, metric string, n int64) (func(), error) {
	nop := func() {}
	if s.opts.Keys == nil {
		return nop, nil
	}
	res, err := s.opts.Keys.TakeQuota(ctx, k, metric, n)
	var qe *keys.QuotaExceeded
	switch {
	case errors.As(err, &qe):
		return nop, qe
	case err != nil:
		s.log.Warn("quota unavailable, request let through", slog.String("key_id", k.ID), slog.Any("error", err))
		return nop, nil
	case res.Empty():
		return nop, nil
	}
	return func() {
		if err := s.opts.Keys.Release(context.WithoutCancel(ctx), res); err != nil {
			s.log.Warn("quota units not given back", slog.String("key_id", k.ID), slog.Any("error", err))
		}
	}, nil
}
