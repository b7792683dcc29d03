package rest

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/apperr"
)

// errorBody is the body of every failure: {"error":{"code":<status>,"message":"…"}}.
type errorBody struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// writeError answers with the error's status and message; internal errors are logged and shown
// only as "Internal error.".
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := graph.AsAppError(err)
	if e.Kind == apperr.Internal {
		slog.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	var body errorBody
	body.Error.Code = e.Kind.Status()
	body.Error.Message = e.Message
	writeJSON(w, body.Error.Code, body)
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
