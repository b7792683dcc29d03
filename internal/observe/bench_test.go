package observe

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"
)

// BenchmarkMiddleware is the observer's own cost on a request to a routed handler: allocations
// and time beside the router's.
func BenchmarkMiddleware(b *testing.B) {
	log, _ := NewLogger(io.Discard, FormatJSON, slog.LevelInfo)
	prev := slog.Default()
	slog.SetDefault(log)
	b.Cleanup(func() { slog.SetDefault(prev) })
	r := chi.NewRouter()
	r.Route("/v1", func(r chi.Router) {
		r.Get("/spaces/{spaceId}", func(w http.ResponseWriter, r *http.Request) {
			SetUser(r.Context(), "user-1")
			_, _ = io.WriteString(w, `{"id":"x"}`)
		})
	})
	req := httptest.NewRequest(http.MethodGet, "/v1/spaces/abc", nil)
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"Router", r}, {"Observed", New("test").Middleware(r, r)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.h.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
}

// BenchmarkStatement is the cost of timing one statement.
func BenchmarkStatement(b *testing.B) {
	o := New("test")
	b.ReportAllocs()
	for b.Loop() {
		o.Statement(`SELECT "spaces"."id" FROM "spaces"`, 1000)
	}
}
