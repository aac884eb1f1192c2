package api

import (
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
)

// headerRequestID carries the request id, both ways.
const headerRequestID = "X-Request-Id"

const ctxRequestID = "geosvc.request_id"

// maxRequestIDLen bounds a client-chosen request id.
const maxRequestIDLen = 128

// requestID takes the client's X-Request-Id when it is a sane token (1..128
// printable ASCII characters), else makes a UUID, and echoes it in the
// response.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(headerRequestID)
		if !validRequestID(id) {
			id = uuid.NewString()
		}
		c.Set(ctxRequestID, id)
		c.Response().Header().Set(headerRequestID, id)
		return next(c)
	}
}

func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] > '~' {
			return false
		}
	}
	return true
}

// requestIDOf returns the id of the request c serves.
func requestIDOf(c echo.Context) string {
	id, _ := c.Get(ctxRequestID).(string)
	return id
}
