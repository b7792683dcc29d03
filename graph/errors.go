package graph

import (
	"context"
	"errors"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/internal/apperr"
)

// AsAppError classifies any error a resolver returns into an *apperr.Error, for the transports,
// for a request whose context is ctx. ent's errors become their kinds; an unknown error once the
// request's deadline passed is TIMEOUT, whatever the driver made of the cancelled statement
// (SQLite says "interrupted"); anything else unknown is INTERNAL (its cause kept for the log).
func AsAppError(ctx context.Context, err error) *apperr.Error {
	if e := apperr.As(err); e != nil {
		return e
	}
	var ve *ent.ValidationError
	switch {
	case ent.IsNotFound(err):
		return apperr.NotFoundf("not found")
	case errors.Is(err, privacy.Deny):
		return apperr.Forbiddenf("you do not have permission to do this")
	case ent.IsConstraintError(err):
		return apperr.Conflictf("this conflicts with an existing object")
	case errors.As(err, &ve):
		return apperr.Invalidf("%s: %s", ve.Name, ve.Unwrap())
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &apperr.Error{Kind: apperr.TimedOut, Message: "The request took too long.", Err: err}
	}
	return apperr.Internalw(err)
}

// ClientGone reports whether the client of ctx's request went away (closed the connection): the
// request's context is cancelled, not past its deadline. Whatever failed then failed because of
// it — a driver error is "context canceled" or "interrupted" — and nobody reads the answer.
func ClientGone(ctx context.Context) bool { return errors.Is(ctx.Err(), context.Canceled) }
