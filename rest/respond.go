package rest

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
)

// errorBody is the body of every failure: {"error":{"code":<status>,"message":"…"}}.
type errorBody struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// writeError answers with the error's status and message; internal errors are logged and shown
// only as "Internal error.". To a client that went away it answers nothing and logs nothing: the
// error is the disconnect's, and the access log records 499.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	if graph.ClientGone(r.Context()) {
		return
	}
	e := graph.AsAppError(r.Context(), err)
	if e.Kind == apperr.Internal {
		slog.ErrorContext(r.Context(), "internal error", "method", r.Method, "route", routePattern(r), "err", err)
	}
	writeErrorBody(w, e.Kind.Status(), e.Message)
}

// writeErrorBody answers status with the error body.
func writeErrorBody(w http.ResponseWriter, status int, message string) {
	var body errorBody
	body.Error.Code = status
	body.Error.Message = message
	writeJSON(w, status, body)
}

// ErrorJSON is the error body of a failure with status and message, for answers written outside a
// handler (net/http's own, rewritten by server.JSONErrors).
func ErrorJSON(status int, message string) []byte {
	var body errorBody
	body.Error.Code, body.Error.Message = status, message
	b, _ := json.Marshal(body)
	return b
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// respond writes the result of a handler: the value with status, or the error.
func respond[T any](w http.ResponseWriter, r *http.Request, status int, v T, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, status, v)
}

// respondEmpty writes a bodiless success (204 or 205), or the error.
func respondEmpty(w http.ResponseWriter, r *http.Request, status int, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(status)
}

// respondWith converts a resolver's result to its wire shape and writes it, or writes the error.
func respondWith[T, W any](w http.ResponseWriter, r *http.Request, status int, v T, err error,
	conv func(context.Context, T) (W, error)) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	wv, err := conv(r.Context(), v)
	respond(w, r, status, wv, err)
}

// respondOrMinimal writes a write's result converted to its wire shape, or, when the client asked
// for no representation (prefersMinimal), 204 saying so.
func respondOrMinimal[T, W any](w http.ResponseWriter, r *http.Request, status int, v T, conv func(context.Context, T) (W, error)) {
	if prefersMinimal(r) {
		w.Header().Set("Preference-Applied", "return=minimal")
		respondEmpty(w, r, http.StatusNoContent, nil)
		return
	}
	respondWith(w, r, status, v, nil, conv)
}

// serveList answers a List<W> with its count: it reads `limit` and `page`, asks load for the
// connection, and converts its nodes.
func serveList[N, W any](w http.ResponseWriter, r *http.Request, conv func(context.Context, N) (W, error),
	load func(ctx context.Context, limit *int, page *string) (model.Connection[N], error)) {
	serveCounted(w, r, conv, load, true)
}

// serveUncounted is serveList for a list that may grow past what a request can count at the cost
// of a page (an organization's spaces): the list is counted only when `limit` is 0, which asks for
// the count alone; otherwise its count is given only where the page shows it, when the first page
// holds the whole list. A count is never estimated.
func serveUncounted[N, W any](w http.ResponseWriter, r *http.Request, conv func(context.Context, N) (W, error),
	load func(ctx context.Context, limit *int, page *string) (model.Connection[N], error)) {
	serveCounted(w, r, conv, load, false)
}

// serveCounted is serveList (counted) or serveUncounted.
func serveCounted[N, W any](w http.ResponseWriter, r *http.Request, conv func(context.Context, N) (W, error),
	load func(ctx context.Context, limit *int, page *string) (model.Connection[N], error), counted bool) {
	ctx := r.Context()
	limit, err := query{r}.limit()
	if err != nil {
		writeError(w, r, err)
		return
	}
	counted = counted || (limit != nil && *limit == 0)
	if !counted {
		ctx = graph.WithoutTotalCount(ctx)
	}
	page := query{r}.str("page")
	conn, err := load(ctx, limit, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	info, count := conn.Info()
	nodes := conn.Nodes()
	var total *int
	switch {
	case counted:
		total = &count
	case page == nil && !info.HasNextPage:
		n := len(nodes)
		total = &n
	}
	l, err := list(ctx, nodes, info, total, conv)
	respond(w, r, http.StatusOK, l, err)
}
