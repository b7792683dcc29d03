package revisions

import (
	"context"
	"errors"
	"net/url"
	"unicode/utf8"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/viewer"
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

// Source is content gathered for an import (Website, Markdown) and how many resources were found.
type Source struct {
	site  importer.Site
	found int
}

// Gather gathers the content an import brings in. An import calls it after its access checks
// and before any lock is taken, since fetching a site takes seconds.
type Gather func(ctx context.Context) (*Source, error)

// Imported is what an import made: the revision, the pages and files imported, and those found
// (a website's bounds, failed requests and files no page links to leave some out); what the
// content was read as and, per uploaded file, what it became.
type Imported struct {
	Revision                          *ent.Revision
	ImportedResources, TotalResources int
	Dialect                           string
	Report                            []importer.FileReport
}

// ImportIntoSpace imports content into a space's main content as one revision of type import,
// which becomes the space's active revision, as a merge's does. It takes the review role, as
// merging does (it changes the main content without a review); a locked space refuses it with
// 403. The space's row is locked while the revision is written, so imports and merges on one
// space queue. Returns the errors of gather.
func (svc *Service) ImportIntoSpace(ctx context.Context, spaceID string, gather Gather) (*Imported, error) {
	s, err := svc.SpaceTarget(ctx, spaceID, viewer.RoleReview, "import into the space's main content")
	if err != nil {
		return nil, err
	}
	return svc.runImport(ctx, s, nil, gather, svc.importIntoSpace)
}

// ImportIntoChangeRequest imports content into a change request (by id or number) as one new
// revision of it. It takes the edit role; a locked space refuses it (403), a merged or archived
// change request too (400). Returns the errors of gather.
func (svc *Service) ImportIntoChangeRequest(ctx context.Context, spaceID, crRef string, gather Gather) (*Imported, error) {
	s, cr, err := svc.ChangeRequestTarget(ctx, spaceID, crRef, viewer.RoleEdit, "import content")
	if err != nil {
		return nil, err
	}
	return svc.runImport(ctx, s, cr, gather, svc.importIntoChangeRequest)
}

// importWriter writes imported content into a space's main content (cr nil) or a change request.
type importWriter func(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest, src *Source) (*Imported, error)

// runImport refuses content that may not change, gathers what to import — before any lock is
// taken — and writes it in one transaction.
func (svc *Service) runImport(ctx context.Context, s *ent.Space, cr *ent.ChangeRequest, gather Gather, write importWriter) (*Imported, error) {
	if err := editable(s, cr); err != nil {
		return nil, err
	}
	src, err := gather(ctx)
	if err != nil {
		return nil, err
	}
	var out *Imported
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) (err error) {
		out, err = write(ctx, tx, s, cr, src)
		return err
	})
	return out, err
}

// importIntoSpace writes an import after the space's revision and moves the space to it.
func (svc *Service) importIntoSpace(ctx context.Context, tx *ent.Tx, s *ent.Space, _ *ent.ChangeRequest, src *Source) (*Imported, error) {
	s, err := LockSpace(ctx, tx, s.ID)
	if err != nil {
		return nil, err
	}
	if err := editable(s, nil); err != nil {
		return nil, err
	}
	out, base, err := svc.writeImport(ctx, tx, s, nil, *s.RevisionID, src)
	if err != nil {
		return nil, err
	}
	return out, svc.MoveMain(ctx, tx, s, base, out.Revision)
}

// MoveMain points the space's main content at revision now, from revision old, in tx (the space
// locked), and brings what follows it in step (mainContentMoved).
func (svc *Service) MoveMain(ctx context.Context, tx *ent.Tx, s *ent.Space, old, now *ent.Revision) error {
	if err := tx.Space.UpdateOneID(s.ID).SetRevisionID(now.ID).Exec(ctx); err != nil {
		return err
	}
	return svc.mainContentMoved(ctx, tx, s, old, now)
}

// Laid is content laid out elsewhere over a revision of a space (a Git Sync import): its tree,
// the keys of the entries that differ from the revision's, the page bodies and file bytes it adds.
type Laid struct {
	Tree    *tree.Tree
	Changed []string
	Bodies  map[string]string
	Blobs   []edit.Blob
}

// WriteLaid writes content laid over revision base as a revision of type import after it, in
// tx: of the change request changeRequest, or of the main content (nil), which MoveMain then
// points at it. The caller decided the viewer's right to.
func (svc *Service) WriteLaid(ctx context.Context, tx *ent.Tx, s *ent.Space, changeRequest *string, base *ent.Revision, l Laid) (*ent.Revision, error) {
	return svc.writeRevision(ctx, tx, newRevision{space: s, changeRequest: changeRequest, kind: revision.TypeImport,
		parents: []string{base.ID}, baseRoot: base.RootTree, tree: l.Tree, changed: l.Changed, bodies: l.Bodies, blobs: l.Blobs})
}

// importIntoChangeRequest writes an import after the change request's revision and moves the
// change request to it.
func (svc *Service) importIntoChangeRequest(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest, src *Source) (*Imported, error) {
	s, cr, err := lockContent(ctx, tx, s.ID, cr.ID)
	if err != nil {
		return nil, err
	}
	out, _, err := svc.writeImport(ctx, tx, s, &cr.ID, cr.RevisionID, src)
	if err != nil {
		return nil, err
	}
	return out, tx.ChangeRequest.UpdateOneID(cr.ID).SetRevisionID(out.Revision.ID).Exec(ctx)
}

// writeImport adds the imported content to the tree of revision baseID and writes the result as
// a revision of type import after it; it returns what it made and the base revision.
func (svc *Service) writeImport(ctx context.Context, tx *ent.Tx, s *ent.Space, changeRequest *string, baseID string, src *Source) (*Imported, *ent.Revision, error) {
	base, t, err := svc.Contents.RevisionAndTree(ctx, baseID)
	if err != nil {
		return nil, nil, err
	}
	o, err := importer.Build(t, src.site, edit.Env{Now: svc.Now(ctx), NewID: id.New, Version: noVersions})
	if err != nil {
		return nil, nil, batchError(err)
	}
	rev, err := svc.writeRevision(ctx, tx, newRevision{space: s, changeRequest: changeRequest, kind: revision.TypeImport,
		parents: []string{base.ID}, baseRoot: base.RootTree, tree: o.Tree, changed: o.Changed, bodies: o.Bodies, blobs: o.Blobs})
	if err != nil {
		return nil, nil, err
	}
	imported := o.Pages + o.Files
	return &Imported{Revision: rev, ImportedResources: imported, TotalResources: max(src.found, imported),
		Dialect: src.site.Dialect, Report: src.site.Report}, base, nil
}

// noVersions is the revision lookup of an import's batches, which revert nothing.
func noVersions(string) (*tree.Tree, error) { return nil, errors.New("an import reverts no page") }

// Website fetches the site at rawURL through the SSRF-guarded client (Service.Fetcher, within
// Service.ImportLimits). Returns INVALID naming the url for a missing, bad or refused address and
// for a site that cannot be fetched.
func (svc *Service) Website(ctx context.Context, rawURL string) (*Source, error) {
	if rawURL == "" {
		return nil, apperr.Invalidf("url: is required with source website")
	}
	if n := utf8.RuneCountInString(rawURL); n > maxImportURL {
		return nil, apperr.Invalidf("url: must be at most %d characters, got %d", maxImportURL, n)
	}
	u, err := url.Parse(rawURL)
	if err != nil || !u.IsAbs() || fetch.CheckURL(u) != nil || u.User != nil {
		return nil, apperr.Invalidf("url: must be an absolute http or https URL without credentials")
	}
	if svc.Fetcher == nil {
		return nil, apperr.Invalidf("url: this server imports no websites (no fetcher is configured)")
	}
	lim := svc.ImportLimits
	if lim == (crawl.Limits{}) {
		lim = crawl.DefaultLimits
	}
	res, err := crawl.Crawl(ctx, svc.Fetcher, u, lim)
	switch {
	case errors.Is(err, fetch.ErrRefused):
		return nil, apperr.Invalidf("url: %v (the server fetches only public addresses, unless its --fetch-allow setting lists the host)", err)
	case err != nil:
		return nil, apperr.Invalidf("url: could not be imported: %v", err)
	}
	return &Source{site: res.Site, found: res.Found}, nil
}

// Markdown reads uploaded Markdown files (importer.FromUploads: Docusaurus, MkDocs, GitBook or
// plain Markdown), given as field (files, or the files of a zip). Returns INVALID naming field
// when they hold no Markdown file or cannot be read.
func Markdown(field string, uploads []importer.Upload) (*Source, error) {
	site, err := importer.FromUploads(uploads)
	if err != nil {
		return nil, apperr.Invalidf("%s: %v", field, err)
	}
	if len(site.Pages) == 0 {
		return nil, apperr.Invalidf("%s: holds no Markdown file (.md, .mdx) to import", field)
	}
	return &Source{site: site, found: len(site.Pages) + len(site.Files)}, nil
}
