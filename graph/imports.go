package graph

import (
	"context"
	"encoding/base64"
	"errors"
	"net/url"
	"unicode/utf8"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/crawl"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/txn"
)

// maxImportURL is the longest start URL of a website import.
const maxImportURL = 2048

// importContent imports a website or uploaded Markdown into a space's main content as one
// revision of type import, which becomes the space's active revision, as a merge's does. It takes
// the review role, as merging does (it changes the main content without a review); a locked space refuses
// it with 403. The space's row is locked while the revision is written, so imports and merges on
// one space queue. Returns INVALID for a bad input, a refused address or a site that cannot be
// fetched.
func (r *Resolver) importContent(ctx context.Context, spaceID string, in model.ContentImportInput) (*model.ContentImport, error) {
	s, err := r.space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	if err := rule.RequireSpaceRole(ctx, s, viewer.RoleReview, "import into the space's main content"); err != nil {
		return nil, err
	}
	return r.runImport(ctx, s, nil, in, r.importIntoSpace)
}

// importChangeRequestContent imports a website or uploaded Markdown into a change request as one
// new revision of it. It takes the edit role; a locked space refuses it (403), a merged or
// archived change request too (400).
func (r *Resolver) importChangeRequestContent(ctx context.Context, spaceID, crRef string, in model.ContentImportInput) (*model.ContentImport, error) {
	s, cr, err := r.contentTarget(ctx, spaceID, crRef, viewer.RoleEdit, "import content")
	if err != nil {
		return nil, err
	}
	return r.runImport(ctx, s, cr, in, r.importIntoChangeRequest)
}

// importWriter writes imported content into a space's main content (cr nil) or a change request.
type importWriter func(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest, src *imported) (*model.ContentImport, error)

// runImport refuses content that may not change, gathers what to import — before any lock is
// taken, since fetching a site takes seconds — and writes it in one transaction.
func (r *Resolver) runImport(ctx context.Context, s *ent.Space, cr *ent.ChangeRequest, in model.ContentImportInput, write importWriter) (*model.ContentImport, error) {
	if err := contentEditable(s, cr); err != nil {
		return nil, err
	}
	src, err := r.importSource(ctx, in)
	if err != nil {
		return nil, err
	}
	var out *model.ContentImport
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) (err error) {
		out, err = write(ctx, tx, s, cr, src)
		return err
	})
	return out, err
}

// importIntoSpace writes an import after the space's revision and moves the space to it.
func (r *Resolver) importIntoSpace(ctx context.Context, tx *ent.Tx, s *ent.Space, _ *ent.ChangeRequest, src *imported) (*model.ContentImport, error) {
	s, err := lockSpace(ctx, tx, s.ID)
	if err != nil {
		return nil, err
	}
	if err := contentEditable(s, nil); err != nil {
		return nil, err
	}
	out, base, err := r.writeImport(ctx, tx, s, nil, *s.RevisionID, src)
	if err != nil {
		return nil, err
	}
	err = tx.Space.UpdateOneID(s.ID).SetRevisionID(out.Revision.ID).Exec(ctx)
	if err != nil {
		return nil, err
	}
	return out, r.mainContentMoved(ctx, tx, s, base.RootTree, out.Revision.RootTree)
}

// importIntoChangeRequest writes an import after the change request's revision and moves the
// change request to it.
func (r *Resolver) importIntoChangeRequest(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest, src *imported) (*model.ContentImport, error) {
	s, cr, err := lockContent(ctx, tx, s.ID, cr.ID)
	if err != nil {
		return nil, err
	}
	out, _, err := r.writeImport(ctx, tx, s, &cr.ID, cr.RevisionID, src)
	if err != nil {
		return nil, err
	}
	return out, tx.ChangeRequest.UpdateOneID(cr.ID).SetRevisionID(out.Revision.ID).Exec(ctx)
}

// imported is content gathered for an import and how many resources were found.
type imported struct {
	site  importer.Site
	found int
}

// writeImport adds the imported content to the tree of revision baseID and writes the result as
// a revision of type import after it; it returns the answer and the base revision.
func (r *Resolver) writeImport(ctx context.Context, tx *ent.Tx, s *ent.Space, changeRequest *string, baseID string, src *imported) (*model.ContentImport, *ent.Revision, error) {
	base, t, err := r.revisionAndTree(ctx, baseID)
	if err != nil {
		return nil, nil, err
	}
	o, err := importer.Build(t, src.site, edit.Env{Now: r.now(ctx), NewID: id.New, Version: noVersions})
	if err != nil {
		return nil, nil, batchError(err)
	}
	rev, err := r.writeRevision(ctx, tx, newRevision{space: s, changeRequest: changeRequest, kind: revision.TypeImport,
		parents: []string{base.ID}, baseRoot: base.RootTree, tree: o.Tree, changed: o.Changed, bodies: o.Bodies, blobs: o.Blobs})
	if err != nil {
		return nil, nil, err
	}
	imported := o.Pages + o.Files
	return &model.ContentImport{Revision: rev, ImportedResources: imported, TotalResources: max(src.found, imported)}, base, nil
}

// noVersions is the revision lookup of an import's batches, which revert nothing.
func noVersions(string) (*tree.Tree, error) { return nil, errors.New("an import reverts no page") }

// importSource gathers the content an import brings in: a website crawled, or uploaded Markdown
// read. It runs before any lock is taken, since fetching a site takes seconds.
func (r *Resolver) importSource(ctx context.Context, in model.ContentImportInput) (*imported, error) {
	switch in.Source {
	case model.ContentImportSourceWebsite:
		if in.Files != nil || in.Zip != nil {
			return nil, apperr.Invalidf("files, zip: only with source markdown")
		}
		return r.crawlWebsite(ctx, in.URL)
	case model.ContentImportSourceMarkdown:
		if in.URL != nil {
			return nil, apperr.Invalidf("url: only with source website")
		}
		return markdownUpload(in.Files, in.Zip)
	}
	return nil, apperr.Invalidf("source: %q is not one of website, markdown", in.Source)
}

// crawlWebsite fetches the site at rawURL through the SSRF-guarded client.
func (r *Resolver) crawlWebsite(ctx context.Context, rawURL *string) (*imported, error) {
	if rawURL == nil || *rawURL == "" {
		return nil, apperr.Invalidf("url: is required with source website")
	}
	if n := utf8.RuneCountInString(*rawURL); n > maxImportURL {
		return nil, apperr.Invalidf("url: must be at most %d characters, got %d", maxImportURL, n)
	}
	u, err := url.Parse(*rawURL)
	if err != nil || !u.IsAbs() || fetch.CheckURL(u) != nil || u.User != nil {
		return nil, apperr.Invalidf("url: must be an absolute http or https URL without credentials")
	}
	if r.Fetcher == nil {
		return nil, apperr.Invalidf("url: this server imports no websites (no fetcher is configured)")
	}
	lim := r.ImportLimits
	if lim == (crawl.Limits{}) {
		lim = crawl.DefaultLimits
	}
	res, err := crawl.Crawl(ctx, r.Fetcher, u, lim)
	switch {
	case errors.Is(err, fetch.ErrRefused):
		return nil, apperr.Invalidf("url: %v (the server fetches only public addresses, unless its --fetch-allow setting lists the host)", err)
	case err != nil:
		return nil, apperr.Invalidf("url: could not be imported: %v", err)
	}
	return &imported{site: res.Site, found: res.Found}, nil
}

// markdownUpload reads uploaded Markdown: a list of files or a zip archive, both in base64.
func markdownUpload(files []*model.ImportFileInput, zip *string) (*imported, error) {
	if (files == nil) == (zip == nil) {
		return nil, apperr.Invalidf("files, zip: source markdown takes one of them")
	}
	var uploads []importer.Upload
	field := "files"
	if zip != nil {
		field = "zip"
		data, err := base64.StdEncoding.DecodeString(*zip)
		if err != nil {
			return nil, apperr.Invalidf("zip: is not valid base64 (%v)", err)
		}
		if uploads, err = importer.Unzip(data); err != nil {
			return nil, apperr.Invalidf("zip: %v", err)
		}
	}
	for i, f := range files {
		data, err := base64.StdEncoding.DecodeString(f.Base64)
		if err != nil {
			return nil, apperr.Invalidf("files[%d].base64: is not valid base64 (%v)", i, err)
		}
		uploads = append(uploads, importer.Upload{Path: f.Path, Data: data})
	}
	site, err := importer.FromUploads(uploads)
	if err != nil {
		return nil, apperr.Invalidf("%s: %v", field, err)
	}
	if len(site.Pages) == 0 {
		return nil, apperr.Invalidf("%s: holds no Markdown file (.md) to import", field)
	}
	return &imported{site: site, found: len(site.Pages) + len(site.Files)}, nil
}
