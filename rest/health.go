package rest

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
)

// readyTimeout bounds a readiness check: a database that does not answer within it is not ready.
const readyTimeout = 2 * time.Second

// healthRoutes serves the probes of load balancers and orchestrators, without a token:
// GET /healthz (the process answers), GET /readyz (ready says it can serve), and GET /metrics
// when metrics is not nil.
func healthRoutes(r chi.Router, ready func(context.Context) error, metrics http.Handler) {
	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	r.Get("/readyz", readyz(ready))
	if metrics != nil {
		r.Get("/metrics", metrics.ServeHTTP)
	}
}

// readyz answers 200 when ready passes, else 503 naming the failed check (its cause is logged:
// it may name hosts and users of the database).
func readyz(ready func(context.Context) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if ready != nil {
			ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
			defer cancel()
			if err := ready(ctx); err != nil {
				slog.WarnContext(r.Context(), "not ready", "err", err)
				writeErrorBody(w, http.StatusServiceUnavailable, "not ready: "+publicReason(err))
				return
			}
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	}
}

// publicReason is what a failed readiness check may say to anyone: its Public() text when it
// has one.
func publicReason(err error) string {
	if p, ok := err.(interface{ Public() string }); ok {
		return p.Public()
	}
	return "a check failed"
}
