package rest

import (
	"context"
	"net/http"

	"github.com/binderyhq/bindery/graph"
)

// ContentByURL is the reference's answer of getContentByUrl: a collection, or a space with the
// change request and the page the URL names.
type ContentByURL struct {
	Collection    *Collection    `json:"collection,omitempty"`
	Space         *Space         `json:"space,omitempty"`
	ChangeRequest *ChangeRequest `json:"changeRequest,omitempty"`
	Page          *RevisionPage  `json:"page,omitempty"`
}

// getContentByURL answers GET /v1/urls/content?url=: what an app URL of this server shows.
func (a *api) getContentByURL(w http.ResponseWriter, r *http.Request) {
	raw := query{r}.str("url")
	if raw == nil {
		writeError(w, r, missing("url"))
		return
	}
	found, err := a.r.ContentByURL(r.Context(), *raw)
	respondWith(w, r, http.StatusOK, found, err, a.contentByURL)
}

func (a *api) contentByURL(ctx context.Context, found *graph.URLContent) (ContentByURL, error) {
	var out ContentByURL
	var err error
	if found.Collection != nil {
		c, err := a.collection(ctx, found.Collection)
		return ContentByURL{Collection: &c}, err
	}
	s, err := a.space(ctx, found.Space)
	out.Space = &s
	if c := found.Content; c != nil && c.ChangeRequest != nil && err == nil {
		cr, crErr := a.changeRequest(ctx, c.ChangeRequest)
		out.ChangeRequest, err = &cr, crErr
	}
	if p := found.Page; p != nil {
		page := a.contentView(found.Content).page(p, found.Content.Tree.Path(p.ID))
		out.Page = &page
	}
	return out, err
}
