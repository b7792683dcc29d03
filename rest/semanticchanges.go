package rest

import (
	"context"
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// semanticChangesLimit is the reference's default of getRevisionSemanticChanges's limit.
const semanticChangesLimit = 10

// RevisionSemanticChanges is the reference's answer of getRevisionSemanticChanges.
type RevisionSemanticChanges struct {
	MergedFrom *ChangeRequest   `json:"mergedFrom,omitempty"`
	Changes    []SemanticChange `json:"changes"`
	More       int              `json:"more,omitempty"`
}

// SemanticChange is one of the reference's RevisionSemanticChange objects.
type SemanticChange struct {
	Type            string                      `json:"type"`
	Page            *ChangedPage                `json:"page,omitempty"`
	Parent          *changedParents             `json:"parent,omitempty"`
	File            *ChangedFile                `json:"file,omitempty"`
	ReusableContent *ChangedReusableContent     `json:"reusableContent,omitempty"`
	Attributes      map[string]changedAttribute `json:"attributes,omitempty"`
}

// ChangedPage is the reference's ChangedRevisionPage.
type ChangedPage struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	Path  string `json:"path,omitempty"`
}

// changedParents are a moved page's parents (absent: the top level).
type changedParents struct {
	Before *ChangedPage `json:"before,omitempty"`
	After  *ChangedPage `json:"after,omitempty"`
}

// ChangedFile is the reference's ChangedRevisionFile.
type ChangedFile struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	DownloadURL string `json:"downloadURL"`
}

// ChangedReusableContent is the reference's ChangedRevisionReusableContent.
type ChangedReusableContent struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// changedAttribute is the reference's ChangeAttributeString or ChangeAttributeNumber.
type changedAttribute struct {
	Before any `json:"before,omitempty"`
	After  any `json:"after,omitempty"`
}

// getRevisionSemanticChanges answers GET /v1/spaces/{spaceId}/revisions/{revisionId}/changes:
// what the revision changed from its first parent, or (Bindery's `from`) from another revision
// of the space; `limit` 1..1000, 10 by default.
func (a *api) getRevisionSemanticChanges(w http.ResponseWriter, r *http.Request) {
	limit, err := query{r}.limit()
	n := semanticChangesLimit
	if limit != nil {
		n = *limit
	}
	var sc *graph.SemanticChanges
	if err == nil {
		sc, err = a.r.RevisionChanges(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "revisionId"), query{r}.str("from"), n)
	}
	respondWith(w, r, http.StatusOK, sc, err, a.semanticChanges)
}

func (a *api) semanticChanges(ctx context.Context, sc *graph.SemanticChanges) (RevisionSemanticChanges, error) {
	out := RevisionSemanticChanges{Changes: make([]SemanticChange, len(sc.Changes)), More: sc.More}
	if sc.MergedFrom != nil {
		cr, err := a.changeRequest(ctx, sc.MergedFrom)
		if err != nil {
			return out, err
		}
		out.MergedFrom = &cr
	}
	for i, c := range sc.Changes {
		wire, err := a.semanticChange(ctx, sc, c)
		if err != nil {
			return out, err
		}
		out.Changes[i] = wire
	}
	return out, nil
}

func (a *api) semanticChange(ctx context.Context, sc *graph.SemanticChanges, c revisions.Change) (SemanticChange, error) {
	wire := SemanticChange{Type: c.Type, Page: changedPage(c.Page, c.PagePath)}
	if c.Type == revisions.PageMoved {
		wire.Parent = &changedParents{Before: changedPage(c.ParentBefore, ""), After: changedPage(c.ParentAfter, "")}
	}
	if c.Reusable != nil {
		wire.ReusableContent = &ChangedReusableContent{ID: c.Reusable.ID, Title: c.Reusable.Title}
	}
	if len(c.Attributes) > 0 {
		wire.Attributes = map[string]changedAttribute{}
		for name, v := range c.Attributes {
			wire.Attributes[name] = changedAttribute(v)
		}
	}
	if c.File == nil {
		return wire, nil
	}
	revisionID := sc.Content.Revision.ID // a deleted file is read where it was
	if c.Type == revisions.FileDeleted {
		revisionID = sc.From.Revision.ID
	}
	f, err := a.revisionFile(ctx, revisionID, c.File)
	wire.File = &ChangedFile{ID: f.ID, Name: f.Name, ContentType: f.ContentType, DownloadURL: f.DownloadURL}
	return wire, err
}

func changedPage(p *tree.Page, path string) *ChangedPage {
	if p == nil {
		return nil
	}
	return &ChangedPage{ID: p.ID, Type: p.Type, Title: p.Title, Path: path}
}

// getRevisionPageDiff answers GET …/revisions/{revisionId}/changes/page/{pageId}/diff: the
// unified diff of the page's Markdown from the revision's first parent (or `from`) to it.
func (a *api) getRevisionPageDiff(w http.ResponseWriter, r *http.Request) {
	diff, err := a.r.RevisionPageDiff(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "revisionId"),
		chi.URLParam(r, "pageId"), query{r}.str("from"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/x-diff; charset=utf-8")
	io.WriteString(w, diff)
}
