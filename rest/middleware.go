package rest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/apperr"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/text"
)

// Authenticator turns a bearer token into a viewer. It returns an UNAUTHENTICATED apperr for a
// token it does not hold.
type Authenticator func(ctx context.Context, token string) (*viewer.Viewer, error)

type requestIDKey struct{}

// requestID tags each request with an id, echoed in X-Request-Id and in the log.
func requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rid := id.Random(16)
		w.Header().Set("X-Request-Id", rid)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey{}, rid)))
	})
}

// recoverPanics turns a panic into a logged 500 with the error body.
func recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				slog.ErrorContext(r.Context(), "panic", "panic", p, "path", r.URL.Path, "stack", string(debug.Stack()))
				writeError(w, r, apperr.Internalw(fmt.Errorf("panic: %v", p)))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// statusClientClosedRequest is nginx's status for a request whose client went away before the
// answer began; it is only logged, never sent.
const statusClientClosedRequest = 499

// statusRecorder keeps the status of the answer for the access log, and drops an answer that
// begins after its client went away (GraphQL writes one whatever its fields did): nobody reads it.
type statusRecorder struct {
	http.ResponseWriter
	ctx     context.Context // the request's, without the deadline
	status  int
	started bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.started {
		s.ResponseWriter.WriteHeader(code) // net/http warns of the superfluous call
		return
	}
	s.started, s.status = true, code
	if graph.ClientGone(s.ctx) {
		s.status = statusClientClosedRequest
		return
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if !s.started {
		s.WriteHeader(http.StatusOK)
	}
	if s.status == statusClientClosedRequest {
		return len(b), nil
	}
	return s.ResponseWriter.Write(b)
}

// accessLog logs one line per request; never the Authorization header. A request whose client
// went away before its answer began logs 499.
func accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, ctx: r.Context(), status: http.StatusOK}
		next.ServeHTTP(rec, r)
		if !rec.started && graph.ClientGone(r.Context()) {
			rec.status = statusClientClosedRequest // writeError wrote nothing
		}
		rid, _ := r.Context().Value(requestIDKey{}).(string)
		slog.Debug("request", "id", rid, "method", r.Method, "path", r.URL.Path, "status", rec.status,
			"duration", time.Since(start))
	})
}

// limitBody refuses bodies over max bytes (uploadMax for content uploads) with 413, and any NUL
// character or invalid UTF-8 in the path, the query or the body's strings (400, naming the field:
// text.CheckJSON): text columns cannot hold them, and no field of the API needs them.
func limitBody(normalMax, uploadMax int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			max := normalMax
			if isUpload(r) {
				max = uploadMax
			}
			if strings.Contains(r.URL.RawPath+r.URL.Path+r.URL.RawQuery, "%00") || strings.ContainsRune(r.URL.Path, 0) {
				writeError(w, r, apperr.Invalidf("the URL must not contain NUL characters"))
				return
			}
			if !validURLText(r) {
				writeError(w, r, apperr.Invalidf("the URL must be valid UTF-8 once decoded"))
				return
			}
			body, err := readBounded(w, r, max)
			if err == nil {
				err = text.CheckJSON(body)
			}
			if err != nil {
				refuseBody(w, r, err)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			next.ServeHTTP(w, r)
		})
	}
}

// readBounded reads a request's body, TOO_LARGE when it is over max bytes (declared or sent).
func readBounded(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	tooLarge := apperr.TooLargef("request body: must be at most %d bytes", max)
	if r.ContentLength > max {
		return nil, tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		return nil, tooLarge
	}
	return body, nil
}

// isUpload reports whether a request may carry file bytes: a content batch of a change request
// (insert_files holds base64 bytes, up to 1 MB a file) or an import (uploaded Markdown, a zip).
func isUpload(r *http.Request) bool {
	p := r.URL.Path
	return r.Method == http.MethodPost && strings.HasPrefix(p, "/v1/spaces/") &&
		(strings.Contains(p, "/change-requests/") && strings.HasSuffix(p, "/content") || strings.HasSuffix(p, "/content/import"))
}

// validURLText reports whether the decoded path and every query parameter are valid UTF-8: ids
// and filters reach text columns, which PostgreSQL refuses to compare with invalid bytes.
func validURLText(r *http.Request) bool {
	if !utf8.ValidString(r.URL.Path) {
		return false
	}
	for k, vs := range r.URL.Query() {
		if !utf8.ValidString(k) {
			return false
		}
		for _, v := range vs {
			if !utf8.ValidString(v) {
				return false
			}
		}
	}
	return true
}

// deadline bounds the time one request may take. Past it, the request's statements fail and
// answer TIMEOUT (503) without logging each: one warning per request says it happened.
func deadline(d time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				slog.WarnContext(ctx, "request deadline exceeded", "method", r.Method, "path", r.URL.Path, "deadline", d)
			}
		})
	}
}

// authenticate puts the viewer in the context, with fresh loaders: the viewer of the bearer token,
// else of the session cookie (a write with the cookie must come from a trusted origin: CSRF). A
// missing or unknown token or session answers 401.
func authenticate(auth, session Authenticator, client *ent.Client, origins trustedOrigins) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var v *viewer.Viewer
			var err error
			if token, ok := bearer(r.Header.Get("Authorization")); ok {
				v, err = auth(r.Context(), token)
			} else if c, cerr := r.Cookie(SessionCookie); cerr == nil && c.Value != "" && session != nil {
				if !isRead(r.Method) && !origins.allows(r) {
					writeError(w, r, errCrossOrigin)
					return
				}
				v, err = session(r.Context(), c.Value)
			} else {
				err = apperr.Unauthenticatedf("authentication required: send the header Authorization: Bearer <token>, or sign in")
			}
			if err != nil {
				writeError(w, r, err)
				return
			}
			// The client rides in the context too: content privacy rules read through it.
			ctx := loader.NewContext(ent.NewContext(viewer.NewContext(r.Context(), v), client), client)
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// isRead reports whether a method only reads (and so needs no CSRF check).
func isRead(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// allowOrigins lets browser apps served from the listed origins call the API (CORS), answering
// their preflight requests; requests from other origins get no CORS headers, so browsers refuse
// them. Listed origins may send the session cookie (credentials); "*" allows every origin for
// bearer tokens only (browsers then send no cookie).
func allowOrigins(origins []string) func(http.Handler) http.Handler {
	allowed := map[string]bool{}
	for _, o := range origins {
		allowed[strings.TrimRight(strings.TrimSpace(o), "/")] = true
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			origin := r.Header.Get("Origin")
			if origin == "" || !(allowed[origin] || allowed["*"]) {
				next.ServeHTTP(w, r)
				return
			}
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			if allowed[origin] {
				h.Set("Access-Control-Allow-Credentials", "true") // listed origins may use session cookies
			}
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE")
				h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
