package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"

	"io/fs"
	"mime"
	"net/http"
	"path"
	"time"

	"github.com/labstack/echo/v4"
)

// consolePrefix is where the console's files other than its page are
// served.
const consolePrefix = "/console/"

// consoleCSP keeps the console to its own origin: scripts, styles, images
// (tiles) and API calls from geosvc only.
const consoleCSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// ServeConsole serves the web console on public routes: index.html of
// files at / and every other file under /console/ (files is
// console.Files()), and its icon at /favicon.ico too. The page asks for an API key and calls the REST
// interfaces with it; the files themselves need none.
func (s *Server) ServeConsole(files fs.FS) error {
	return fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		h := consoleFile(p, b)
		routes := []string{consolePrefix + p}
		switch p {
		case "index.html":
			routes = []string{"/"}
		case "favicon.svg":
			// Browsers ask every page's host for /favicon.ico; an SVG
			// answered there (with its own type) spares them a 403.
			routes = append(routes, "/favicon.ico")
		}
		for _, route := range routes {
			s.Public(http.MethodGet, route, h)
			s.Public(http.MethodHead, route, h)
		}
		return nil
	})
}

// consoleFile answers one embedded file with its content type, an ETag of
// its content (If-None-Match gives 304) and a revalidating cache policy.
func consoleFile(name string, b []byte) echo.HandlerFunc {
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = http.DetectContentType(b)
	}
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set(echo.HeaderContentType, ctype)
		h.Set("ETag", etag)
		h.Set(echo.HeaderCacheControl, "no-cache")
		h.Set(echo.HeaderXContentTypeOptions, "nosniff")
		if name == "index.html" || name == "vector.html" {
			h.Set(echo.HeaderContentSecurityPolicy, consoleCSP)
			h.Set("Referrer-Policy", "no-referrer")
		}
		http.ServeContent(c.Response(), c.Request(), name, time.Time{}, bytes.NewReader(b))
		return nil
	}
}
