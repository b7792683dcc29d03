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
	Source *string `json:"source" doc:"website (with url) or markdown (with files or zip). Markdown is read as Docusaurus, MkDocs, a GitBook repository or plain Markdown (README: Importing a docs site). An imported page's title is its table of contents' (SUMMARY.md, nav, a category's label), else its front matter's title, else its leading level-1 heading (which leaves the body), else its file name (its folder's for a README.md)."`
	URL    *string `json:"url"`
	Files  []struct {
		Path   string `json:"path"`
		Base64 string `json:"base64"`
	} `json:"files"`
	Zip *string `json:"zip"`
}

// importResult is the answer of an import: spec/02's revision made, resources imported and found,
// then Bindery's own fields (decision 384): what the content was read as and the per-file report.
type importResult struct {
	Revision          string             `json:"revision"`
	ImportedResources int                `json:"importedResources"`
	TotalResources    int                `json:"totalResources"`
	Dialect           string             `json:"dialect" doc:"What the content was read as: markdown (plain, laid out as Git Sync lays out a space), docusaurus, mkdocs, gitbook or website. Bindery's own, beside spec/02's answer."`
	Report            []importFileReport `json:"report" doc:"Per uploaded file (hidden ones aside), what it became and what converting it did; for a website, per page, the blocks converted from its HTML. Bindery's own."`
}

// importFileReport is what an import did with one uploaded file.
type importFileReport struct {
	Path      string   `json:"path"`
	Result    string   `json:"result" doc:"page, file (imported when a page links to it), layout (read for order and titles: SUMMARY.md, mkdocs.yml, _category_.json) or skipped (a warning says why)."`
	Converted []string `json:"converted" doc:"What was converted to Bindery's blocks, each with its line: admonitions to hints, tabs, expandables."`
	Warnings  []string `json:"warnings" doc:"What was kept as text (an MDX component Bindery does not convert, an import line) or left out, and why."`
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
	in, err := decodeInput[model.ContentImportInput, importBody](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out, err := run(r.Context(), in)
	respondWith(w, r, http.StatusCreated, out, err, func(_ context.Context, c *model.ContentImport) (importResult, error) {
		res := importResult{Revision: c.Revision.ID, ImportedResources: c.ImportedResources, TotalResources: c.TotalResources,
			Dialect: string(c.Dialect), Report: []importFileReport{}}
		for _, f := range c.Report {
			res.Report = append(res.Report, importFileReport{Path: f.Path, Result: string(f.Result),
				Converted: f.Converted, Warnings: f.Warnings})
		}
		return res, nil
	})
}
