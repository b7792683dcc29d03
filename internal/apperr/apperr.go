// Package apperr is the one error type of Bindery: a kind that each transport maps to its own
// status (rest: HTTP status and {"error":{"code","message"}}; graph: extensions.code) and a
// message a person can act on.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
)

// Kind classifies what went wrong.
type Kind int

// The kinds of error.
const (
	Internal        Kind = iota // a bug or an outage; the message shown is "Internal error."
	Invalid                     // the request is malformed or breaks a bound
	Unauthenticated             // no valid token
	Forbidden                   // the viewer sees the object but may not do this
	NotFound                    // no such object, or the viewer may not see it
	Conflict                    // the request conflicts with the current state
	TooLarge                    // the request body is over the size limit
	RateLimited                 // too many requests
	TimedOut                    // the request ran past the server's deadline
)

var kinds = map[Kind]struct {
	status int
	code   string
}{
	Internal:        {http.StatusInternalServerError, "INTERNAL"},
	Invalid:         {http.StatusBadRequest, "BAD_REQUEST"},
	Unauthenticated: {http.StatusUnauthorized, "UNAUTHENTICATED"},
	Forbidden:       {http.StatusForbidden, "FORBIDDEN"},
	NotFound:        {http.StatusNotFound, "NOT_FOUND"},
	Conflict:        {http.StatusConflict, "CONFLICT"},
	TooLarge:        {http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE"},
	RateLimited:     {http.StatusTooManyRequests, "RATE_LIMITED"},
	TimedOut:        {http.StatusServiceUnavailable, "TIMEOUT"},
}

// Status is the HTTP status of the kind.
func (k Kind) Status() int { return kinds[k].status }

// Code is the GraphQL extensions.code of the kind.
func (k Kind) Code() string { return kinds[k].code }

// Error is an error of a known kind with a message for the caller. Err, when set, is the cause:
// logged, never shown.
type Error struct {
	Kind    Kind
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

func newf(k Kind, format string, args []any) *Error {
	return &Error{Kind: k, Message: fmt.Sprintf(format, args...)}
}

// Invalidf returns a bad-request error.
func Invalidf(format string, args ...any) *Error { return newf(Invalid, format, args) }

// Unauthenticatedf returns an error for a missing or invalid token.
func Unauthenticatedf(format string, args ...any) *Error {
	return newf(Unauthenticated, format, args)
}

// Forbiddenf returns an error for an action the viewer may not take on an object it sees.
func Forbiddenf(format string, args ...any) *Error { return newf(Forbidden, format, args) }

// NotFoundf returns an error for an object that does not exist or that the viewer may not see.
func NotFoundf(format string, args ...any) *Error { return newf(NotFound, format, args) }

// Conflictf returns an error for a request that conflicts with the current state.
func Conflictf(format string, args ...any) *Error { return newf(Conflict, format, args) }

// TooLargef returns an error for a request body over the limit.
func TooLargef(format string, args ...any) *Error { return newf(TooLarge, format, args) }

// RateLimitedf returns an error for a client that spent its budget of requests.
func RateLimitedf(format string, args ...any) *Error { return newf(RateLimited, format, args) }

// Internalw wraps an unexpected error; the caller sees only "Internal error.".
func Internalw(err error) *Error { return &Error{Kind: Internal, Message: "Internal error.", Err: err} }

// As returns err as an *Error, or nil when it is not one.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// IsNotFound reports whether err is a NOT_FOUND Error.
func IsNotFound(err error) bool {
	e := As(err)
	return e != nil && e.Kind == NotFound
}
