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

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/observe"
	"github.com/binderyhq/bindery/internal/text"
)

// Authenticator turns a bearer token into a viewer. It returns an UNAUTHENTICATED apperr for a
// token it does not hold.
type Authenticator func(ctx context.Context, token string) (*viewer.Viewer, error)

// recoverPanics turns a panic into a logged 500 with the error body.
func recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				slog.ErrorContext(r.Context(), "panic", "panic", p, "method", r.Method, "route", routePattern(r), "stack", string(debug.Stack()))
				writeError(w, r, apperr.Internalw(fmt.Errorf("panic: %v", p)))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// routePattern is the route pattern of the request being served, for log lines: its path may
// hold a signed token (/files/{token}).
func routePattern(r *http.Request) string { return chi.RouteContext(r.Context()).RoutePattern() }

// limitBody refuses any NUL character or invalid UTF-8 in the path or the query (400), and reads
// the body (bodyReader) of every request but those authenticate charges — it charges an API request
// with credentials to them before its body is read, so that a client whose budget is spent is
// refused without its body costing anything — and SCIM's, which scimHandler reads.
func limitBody(normalMax, uploadMax int64) func(http.Handler) http.Handler {
	read := bodyReader(normalMax, uploadMax)
	return func(next http.Handler) http.Handler {
		readFirst := read(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.URL.RawPath+r.URL.Path+r.URL.RawQuery, "%00") || strings.ContainsRune(r.URL.Path, 0) {
				writeError(w, r, apperr.Invalidf("the URL must not contain NUL characters"))
				return
			}
			if !validURLText(r) {
				writeError(w, r, apperr.Invalidf("the URL must be valid UTF-8 once decoded"))
				return
			}
			if chargedByCredentials(r) {
				next.ServeHTTP(w, r) // authenticate charges it, then bodyReader reads its body
				return
			}
			if strings.HasPrefix(r.URL.Path, "/scim/") {
				next.ServeHTTP(w, r) // scimHandler reads it, to refuse it in SCIM's error format
				return
			}
			readFirst.ServeHTTP(w, r)
		})
	}
}

// bodyReader refuses bodies over max bytes (uploadMax for content uploads) with 413, and any NUL
// character or invalid UTF-8 in the body's strings (400, naming the field: text.CheckJSON): text
// columns cannot hold them, and no field of the API needs them. The body read is then r.Body's,
// and requestBody's.
func bodyReader(normalMax, uploadMax int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength == 0 { // nothing to read or check (a GET): requestBody is empty
				next.ServeHTTP(w, r)
				return
			}
			max := normalMax
			if isUpload(r) {
				max = uploadMax
			}
			body, err := readBounded(w, r, max)
			if err == nil {
				err = text.CheckJSON(body)
			}
			if err != nil {
				refuseBody(w, r, err)
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), bodyKey{}, body))
			r.Body = io.NopCloser(bytes.NewReader(body))
			next.ServeHTTP(w, r)
		})
	}
}

type bodyKey struct{}

// requestBody is the body bodyReader read, without copying it.
func requestBody(r *http.Request) []byte {
	body, _ := r.Context().Value(bodyKey{}).([]byte)
	return body
}

// readBounded reads a request's body, TOO_LARGE when it is over max bytes (declared or sent).
func readBounded(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	tooLarge := func() error { return apperr.TooLargef("request body: must be at most %d bytes", max) }
	if r.ContentLength > max {
		return nil, tooLarge()
	}
	if r.ContentLength >= 0 { // net/http ends the body there: read it into a buffer of its size
		body := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return nil, apperr.Invalidf("request body: shorter than its Content-Length")
		}
		return body, nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		return nil, tooLarge()
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
			if isEventStream(r) { // bounded by the subscriptions' limits
				next.ServeHTTP(w, r)
				return
			}
			ctx, cancel := context.WithTimeout(r.Context(), d)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				slog.WarnContext(ctx, "request deadline exceeded", "method", r.Method, "route", routePattern(r), "deadline", d)
			}
		})
	}
}

// authenticate puts the viewer in the context, with fresh loaders: the viewer of the bearer token,
// else of the session cookie (a write with the cookie must come from a trusted origin: CSRF). A
// missing or unknown token or session answers 401. The request is charged to the token or
// session, or when they fail to the client address (429 once its budget is spent).
func authenticate(auth, session Authenticator, client *ent.Client, origins trustedOrigins) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var cred credentials
			var err error
			if token, ok := bearer(r.Header.Get("Authorization")); ok {
				cred = tokenCredentials(token, auth)
			} else if c, cerr := r.Cookie(SessionCookie); cerr == nil && c.Value != "" && session != nil {
				if !isRead(r.Method) && !origins.allows(r) {
					writeError(w, r, chargeRefused(r, errCrossOrigin))
					return
				}
				cred = sessionCredentials(c.Value, session)
			} else {
				err = apperr.Unauthenticatedf("authentication required: send the header Authorization: Bearer <token>, or sign in")
			}
			var v *viewer.Viewer
			if err == nil {
				v, err = cred.login(r.Context())
			}
			if err == nil {
				err = chargeCredentials(r, cred.who)
			} else {
				err = chargeRefused(r, err)
			}
			if err != nil {
				writeError(w, r, err)
				return
			}
			observe.SetUser(r.Context(), v.UserID)
			ctx := viewerContext(r.Context(), v, client)
			if isEventStream(r) {
				ctx = cred.subscriberContext(ctx, client)
			}
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
