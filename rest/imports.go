package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/graph/model"
)

// importBody is the body of importContent and importContentInChangeRequest: spec/02's
// {url, source}, and for uploaded Markdown (source "markdown") files or a zip in base64.
type importBody struct {
	Source *string `json:"source" doc:"website (with url) or markdown (with files or zip). An imported Markdown page's title is its front matter's title, else its leading level-1 heading (which leaves the body), else its file name (its folder's for a README.md)."`
	URL    *string `json:"url"`
	Files  []struct {
		Path   string `json:"path"`
		Base64 string `json:"base64"`
	} `json:"files"`
	Zip *string `json:"zip"`
}

// importResult is the answer of an import: the revision made, resources imported and found.
type importResult struct {
	Revision          string `json:"revision"`
	ImportedResources int    `json:"importedResources"`
	TotalResources    int    `json:"totalResources"`
}

// input converts the body to the GraphQL input both surfaces share.
func (b importBody) input() (model.ContentImportInput, error) {
	if b.Source == nil {
		return model.ContentImportInput{}, missing("source")
	}
	in := model.ContentImportInput{Source: model.ContentImportSource(*b.Source), URL: b.URL, Zip: b.Zip}
	if b.Files != nil {
		in.Files = make([]*model.ImportFileInput, len(b.Files))
	}
	for i, f := range b.Files {
		in.Files[i] = &model.ImportFileInput{Path: f.Path, Base64: f.Base64}
	}
	return in, nil
}

func (a *api) importContent(w http.ResponseWriter, r *http.Request) {
	a.serveImport(w, r, func(ctx context.Context, in model.ContentImportInput) (*model.ContentImport, error) {
		return a.r.Mutation().ImportContent(ctx, chi.URLParam(r, "spaceId"), in)
	})
}

func (a *api) importChangeRequestContent(w http.ResponseWriter, r *http.Request) {
	a.serveImport(w, r, func(ctx context.Context, in model.ContentImportInput) (*model.ContentImport, error) {
		return a.r.Mutation().ImportChangeRequestContent(ctx, chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"), in)
	})
}

// serveImport decodes an import's body, runs it and answers 201 with the result.
func (a *api) serveImport(w http.ResponseWriter, r *http.Request, run func(context.Context, model.ContentImportInput) (*model.ContentImport, error)) {
	var body importBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in, err := body.input()
	if err != nil {
		writeError(w, r, err)
		return
	}
	out, err := run(r.Context(), in)
	respondWith(w, r, http.StatusCreated, out, err, func(_ context.Context, c *model.ContentImport) (importResult, error) {
		return importResult{Revision: c.Revision.ID, ImportedResources: c.ImportedResources, TotalResources: c.TotalResources}, nil
	})
}
