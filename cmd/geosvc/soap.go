package main

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/geosvc/geosvc/api"
	"github.com/geosvc/geosvc/soap"
)

// SOAPPath is where the SOAP location service answers (POST) and serves
// its WSDL (GET /soap, or /soap?wsdl).
const SOAPPath = "/soap"

// mountSOAP mounts the SOAP location service on srv as a public route:
// its key travels in the envelope (SubscriptionKey), which the service
// checks through the same key gate as the REST interfaces.
func mountSOAP(srv *api.Server, svc *soap.Service) {
	srv.AddInterface(soap.Interface)
	h := echo.WrapHandler(svc)
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost} {
		srv.Public(m, SOAPPath, h)
	}
}
