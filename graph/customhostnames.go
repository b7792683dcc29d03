package graph

import (
	"context"
	"strings"

	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/sites"
)

// customHostname is Query.customHostname (sites.Service.CustomHostname): null for a hostname no
// site the viewer manages has.
func (r *Resolver) customHostname(ctx context.Context, hostname string) (*sites.CustomHostname, error) {
	h, err := r.sitesService().CustomHostname(ctx, hostname)
	if apperr.IsNotFound(err) {
		return nil, nil
	}
	return h, err
}

// customHostnameStatus is CustomHostname.status: the stored status in the enum's case.
func customHostnameStatus(h *sites.CustomHostname) *model.CustomHostnameStatus {
	if h.Status == nil {
		return nil
	}
	s := model.CustomHostnameStatus(strings.ToUpper(*h.Status))
	return &s
}
