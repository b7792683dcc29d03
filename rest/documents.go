package rest

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	jsondoc "github.com/binderyhq/bindery/internal/document"
)

// getDocument answers getDocumentById: the JSON document whose id is a page's documentId in the
// space (graph.Resolver.SpaceDocument). schema (current or next) is accepted: Bindery answers
// one version of the document model.
func (a *api) getDocument(w http.ResponseWriter, r *http.Request) {
	var doc *jsondoc.Document
	_, err := query{r}.oneOf("schema", "current", "next")
	if err == nil {
		doc, err = a.r.SpaceDocument(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "documentId"), query{r}.str("shareKey"))
	}
	respond(w, r, http.StatusOK, doc, err)
}

// getPageDocument answers getPageDocumentInRevisionById: the page's body in the revision as a
// JSON document, with the reusable contents it places put in when dereferenced, and its if blocks
// and expressions evaluated when evaluated asks (document.WithoutClaims for true,
// document.DeterministicOnly for deterministic-only).
func (a *api) getPageDocument(w http.ResponseWriter, r *http.Request) {
	doc, err := a.pageDocument(r)
	respond(w, r, http.StatusOK, doc, err)
}

func (a *api) pageDocument(r *http.Request) (*jsondoc.Document, error) {
	q := query{r}
	evaluated, err := q.oneOf("evaluated", "true", "false", "deterministic-only")
	if err != nil {
		return nil, err
	}
	placed, err := dereferenced(r)
	if err != nil {
		return nil, err
	}
	c, err := a.revisionContent(r)
	if err != nil {
		return nil, err
	}
	p, err := pageByID(c, r)
	if err != nil {
		return nil, err
	}
	var doc *jsondoc.Document
	if placed {
		doc, err = a.r.DereferencedPageDocument(r.Context(), c.Tree, p)
	} else {
		doc, err = a.r.PageDocument(r.Context(), p)
	}
	if err != nil {
		return nil, err
	}
	switch evaluated {
	case "true":
		return jsondoc.Evaluate(doc, jsondoc.WithoutClaims), nil
	case "deterministic-only":
		return jsondoc.Evaluate(doc, jsondoc.DeterministicOnly), nil
	}
	return doc, nil
}

// computedBody is getComputedDocument's request: a computed content source and the seed of its
// nodes' keys.
type computedBody struct {
	Source notNull[json.RawMessage] `json:"source"`
	Seed   notNull[string]          `json:"seed"`
}

// getComputedDocument answers getComputedDocument: the document computed from the source
// (graph.Resolver.ComputedDocument). schema (current or next) is accepted, as getDocument does.
func (a *api) getComputedDocument(w http.ResponseWriter, r *http.Request) {
	var doc *jsondoc.Document
	var body computedBody
	_, err := query{r}.oneOf("schema", "current", "next")
	if err == nil {
		err = decodeBody(r, &body)
	}
	switch {
	case err != nil:
	case body.Source.Value == nil:
		err = missing("source")
	case body.Seed.Value == nil:
		err = missing("seed")
	default:
		doc, err = a.r.ComputedDocument(r.Context(), chi.URLParam(r, "spaceId"), *body.Source.Value, *body.Seed.Value)
	}
	respond(w, r, http.StatusOK, doc, err)
}
