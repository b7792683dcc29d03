package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/internal/content/tree"
	jsondoc "github.com/binderyhq/bindery/internal/document"
)

// RevisionReusableContent is the wire shape of a reusable content: its document is the id of its
// body's document (getDocumentById, getReusableContentDocumentInRevisionById), absent when empty.
type RevisionReusableContent struct {
	ID       string       `json:"id"`
	Title    string       `json:"title"`
	Document string       `json:"document,omitempty"`
	Git      *gitSyncBlob `json:"git,omitempty" doc:"Where the reusable content's file (.gitbook/includes) is in the git commit of its revision (Git Sync); absent for none, or with metadata=false."`
}

func (v contentView) reusableContent(c *tree.Reusable) RevisionReusableContent {
	return RevisionReusableContent{ID: c.ID, Title: c.Title, Document: c.Body, Git: v.blob(c.ID)}
}

// reusableContents is the revision's reusable contents, by title then id.
func (v contentView) reusableContents() []RevisionReusableContent {
	list := v.c.Tree.Reusables()
	out := make([]RevisionReusableContent, len(list))
	for i, c := range list {
		out[i] = v.reusableContent(c)
	}
	return out
}

// getReusableContent answers getReusableContentById, getReusableContentInChangeRequestById and
// getReusableContentInRevisionById, with its git blob unless metadata=false.
func (a *api) getReusableContent(of contentOf) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := readContent(r, of)
		var rc *tree.Reusable
		if err == nil {
			rc, err = c.ReusableContent(chi.URLParam(r, "reusableContentId"))
		}
		respondWith(w, r, http.StatusOK, rc, err, func(ctx context.Context, rc *tree.Reusable) (RevisionReusableContent, error) {
			v, err := a.contentView(c).withGit(ctx, r, []string{rc.ID})
			return v.reusableContent(rc), err
		})
	}
}

// getReusableContentDocument answers getReusableContentDocumentInRevisionById: the reusable
// content's body as a JSON document, with the reusable contents it places put in when
// dereferenced. evaluated is checked and changes nothing.
func (a *api) getReusableContentDocument(w http.ResponseWriter, r *http.Request) {
	doc, err := a.reusableContentDocument(r)
	respond(w, r, http.StatusOK, doc, err)
}

func (a *api) reusableContentDocument(r *http.Request) (*jsondoc.Document, error) {
	if _, err := (query{r}).oneOf("evaluated", "true", "false", "deterministic-only"); err != nil {
		return nil, err
	}
	dereferenced, err := dereferenced(r)
	if err != nil {
		return nil, err
	}
	c, err := a.revisionContent(r)
	if err != nil {
		return nil, err
	}
	rc, err := c.ReusableContent(chi.URLParam(r, "reusableContentId"))
	if err != nil {
		return nil, err
	}
	return a.r.ReusableDocument(r.Context(), c.Tree, rc, dereferenced)
}

// dereferenced reads a document read's dereferenced: true and reusable-contents put the reusable
// contents a document places in (the only references Bindery dereferences).
func dereferenced(r *http.Request) (bool, error) {
	v, err := (query{r}).oneOf("dereferenced", "true", "false", "reusable-contents")
	return v == "true" || v == "reusable-contents", err
}
