package rule

import (
	"context"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
)

// RequireViewer returns the viewer of the request: a user, the system, or a published site's
// visitor. Returns UNAUTHENTICATED when there is none.
func RequireViewer(ctx context.Context) (*viewer.Viewer, error) {
	v := viewer.FromContext(ctx)
	if v == nil || (v.UserID == "" && !v.IsSystem() && !v.IsVisitor()) {
		return nil, apperr.Unauthenticatedf("authentication required: send Authorization: Bearer <token>")
	}
	return v, nil
}
