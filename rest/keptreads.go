package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/internal/observe"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/readcache"
)

// trackReads lets a read (a GET of the API or of a published site, or a GraphQL request: its
// operation says whether it reads) take what the read cache kept at the database's version, and
// keep what it reads: the token authenticate looks up, the answer keptReads records. Nothing else
// is cached.
func trackReads(c *readcache.Cache) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if c == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if mayKeep(r) {
				r = r.WithContext(c.Track(r.Context()))
			}
			next.ServeHTTP(w, r)
		})
	}
}

// mayKeep reports whether a request may be answered from what was kept: a GET or a GraphQL
// request (graph marks operations other than queries, DoNotKeep), but no stream of events.
func mayKeep(r *http.Request) bool {
	return (r.Method == http.MethodGet || isGraphQL(r)) && !isEventStream(r)
}

// keptReads answers a read sent before (the same method, URL, headers, credentials among them,
// and body) with the answer kept for it, when the database has not changed since; else it runs
// the handler and keeps its answer when the request allows (decision 366). The request was
// authenticated and charged before: a kept answer repeats only what the handler charged and the
// route metrics name.
func keptReads(c *readcache.Cache) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if !c.KeepsAnswers() {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !readcache.Tracked(r.Context()) { // not a read, or the cache is paused
				next.ServeHTTP(w, r)
				return
			}
			c.Serve(w, r, readcache.KeyOf(readcache.Router, r, requestBody(r)), func(a *readcache.Answer) { answerKept(w, r, a) },
				func(w http.ResponseWriter) string {
					next.ServeHTTP(w, r)
					return chi.RouteContext(r.Context()).RoutePattern()
				})
		})
	}
}

// answerKept writes a kept answer, after charging the points its computation charged.
func answerKept(w http.ResponseWriter, r *http.Request, a *readcache.Answer) {
	observe.SetRoute(r.Context(), a.Route)
	if a.Cost > 0 {
		if err := ratelimit.FromContext(r.Context()).Charge(r.Context(), a.Cost); err != nil {
			writeError(w, r, err)
			return
		}
	}
	a.Repeat(r.Context())
	a.Replay(w)
}
