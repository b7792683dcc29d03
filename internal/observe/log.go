package observe

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
)

// Log formats.
const (
	FormatAuto = "auto" // text on a terminal, JSON lines otherwise
	FormatJSON = "json"
	FormatText = "text"
)

// NewLogger returns a logger writing to w at level and above, in format (FormatAuto, FormatJSON or
// FormatText); every line logged with a request's context carries its request_id.
func NewLogger(w io.Writer, format string, level slog.Level) (*slog.Logger, error) {
	o := &slog.HandlerOptions{Level: level}
	switch format {
	case FormatAuto:
		if isTerminal(w) {
			return NewLogger(w, FormatText, level)
		}
		return NewLogger(w, FormatJSON, level)
	case FormatJSON:
		return slog.New(WithRequestIDs(slog.NewJSONHandler(w, o))), nil
	case FormatText:
		return slog.New(WithRequestIDs(slog.NewTextHandler(w, o))), nil
	}
	return nil, fmt.Errorf("--log-format: %q is not auto, json or text", format)
}

// ParseLevel reads a log level: debug, info, warn or error (any case).
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	switch strings.ToLower(s) {
	case "debug", "info", "warn", "error":
		return l, l.UnmarshalText([]byte(s))
	}
	return l, fmt.Errorf("--log-level: %q is not debug, info, warn or error", s)
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// WithRequestIDs adds the request_id of the request a record's context belongs to, so that every
// line logged while serving a request (an internal error, a deadline) names it.
func WithRequestIDs(h slog.Handler) slog.Handler { return requestIDHandler{h} }

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(attrs)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
