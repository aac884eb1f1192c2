package main

import (
	"io"
	"log/slog"
	"strings"

	"github.com/geosvc/geosvc/cmd/geosvc/internal/config"
)

// newLogger returns the process logger for cfg, writing to w.
func newLogger(cfg config.Log, w io.Writer) *slog.Logger {
	var level slog.Level
	switch strings.ToLower(cfg.Level) {
	case "debug":
		level = slog.LevelDebug
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	}
	opts := &slog.HandlerOptions{Level: level}
	if strings.EqualFold(cfg.Format, "json") {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
