package graph

import (
	"context"
	"sort"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/page"
)

// Content reads: a space's current content, a change request's, or any revision of a space by
// id; their page trees, pages by id or slug path, files, and signed URLs of the files' bytes.
// Every read starts from a space the viewer can read, and revisions are read through their policy
// (readers of the space); trees, bodies and bytes are content-addressed below them.

// Content is a revision the viewer may read, with its tree, its space, and the change request
// whose content it is (nil for the space's own content and for a revision read by id).
type Content struct {
	Space         *ent.Space
	ChangeRequest *ent.ChangeRequest
	Revision      *ent.Revision
	Tree          *tree.Tree
}

// SpaceContent returns the active revision of a space. shareKey opens a share-link space to its
// holder, as for the space itself. Returns NOT_FOUND when the viewer cannot read the space.
func (r *Resolver) SpaceContent(ctx context.Context, spaceID string, shareKey *string) (*Content, error) {
	return r.contentIn(ctx, spaceID, shareKey, func(s *ent.Space) (*ent.ChangeRequest, string, error) {
		if s.RevisionID == nil {
			return nil, "", apperr.NotFoundf("the space has no content yet")
		}
		return nil, *s.RevisionID, nil
	})
}

// ChangeRequestContent returns the active revision of a change request, named by its id or its
// number in the space. Returns NOT_FOUND when the viewer cannot read the space or it has no such
// change request.
func (r *Resolver) ChangeRequestContent(ctx context.Context, spaceID, changeRequest string, shareKey *string) (*Content, error) {
	return r.contentIn(ctx, spaceID, shareKey, func(s *ent.Space) (*ent.ChangeRequest, string, error) {
		cr, err := r.changeRequest(ctx, s.ID, changeRequest)
		if err != nil {
			return nil, "", err
		}
		return cr, cr.RevisionID, nil
	})
}

// RevisionContent returns a revision of a space by id: its main content's or a change request's.
// Returns NOT_FOUND when the viewer cannot read the space or the revision is not one of its.
func (r *Resolver) RevisionContent(ctx context.Context, spaceID, revisionID string, shareKey *string) (*Content, error) {
	return r.contentIn(ctx, spaceID, shareKey, func(*ent.Space) (*ent.ChangeRequest, string, error) {
		return nil, revisionID, nil
	})
}

// contentIn reads a space the viewer can read (with the share key they present, if any), then the
// revision of it that pick names, and its tree.
func (r *Resolver) contentIn(ctx context.Context, spaceID string, shareKey *string,
	pick func(*ent.Space) (*ent.ChangeRequest, string, error)) (*Content, error) {
	s, err := r.sharedSpace(ctx, spaceID, shareKey)
	if err != nil {
		return nil, err
	}
	cr, revisionID, err := pick(s)
	if err != nil {
		return nil, err
	}
	rev, err := r.Client.Revision.Query().Where(revision.ID(revisionID), revision.SpaceID(s.ID)).Only(ctx)
	if err != nil {
		return nil, rule.NotFound(err, "revision")
	}
	t, err := r.revisionTree(ctx, rev)
	if err != nil {
		return nil, err
	}
	return &Content{Space: s, ChangeRequest: cr, Revision: rev, Tree: t}, nil
}

// MergedFrom returns the change request whose merge made a merge revision.
func (r *Resolver) MergedFrom(ctx context.Context, rev *ent.Revision) (*ent.ChangeRequest, error) {
	return r.Client.ChangeRequest.Query().
		Where(changerequest.SpaceID(rev.SpaceID), changerequest.RevisionMergedID(rev.ID)).Only(ctx)
}

// Page returns the page with the id. Returns NOT_FOUND when the revision has none.
func (c *Content) Page(id string) (*tree.Page, error) {
	return revisions.InRevision(c.Tree.Page(id), "page "+id)
}

// PageByPath returns the page at a slug path from the top level ("guides/intro"; outer slashes
// are ignored). Returns NOT_FOUND when the revision has none there.
func (c *Content) PageByPath(path string) (*tree.Page, error) {
	return revisions.InRevision(c.Tree.ByPath(path), "page at path "+path)
}

// File returns the file with the id. Returns NOT_FOUND when the revision has none.
func (c *Content) File(id string) (*tree.File, error) {
	return revisions.InRevision(c.Tree.File(id), "file "+id)
}

// PageMarkdown returns a page's whole Markdown as authoring reads it back
// (revisions.PageMarkdown).
func (r *Resolver) PageMarkdown(ctx context.Context, p *tree.Page) (string, error) {
	body, err := r.PageBody(ctx, p)
	return revisions.PageMarkdown(p, body), err
}

// RevisionFiles returns one page of a revision's files, by name then id.
// Returns INVALID for a bad page size or cursor.
func (r *Resolver) RevisionFiles(ctx context.Context, rev *ent.Revision, first *int, after *string) (*model.RevisionFileConnection, error) {
	args, err := page.NewArgs(first, after)
	if err != nil {
		return nil, err
	}
	t, err := r.revisionTree(ctx, rev)
	if err != nil {
		return nil, err
	}
	files := t.Files()
	start, err := filesAfter(files, args.After)
	if err != nil {
		return nil, err
	}
	rows := files[start:min(len(files), start+args.Limit+1)]
	p := page.Trim(rows, args.Limit, len(files), fileCursor)
	conn := &model.RevisionFileConnection{
		Edges: edges(ctx, p.Items, fileCursor, func(c string, f *tree.File) *model.RevisionFileEdge {
			return &model.RevisionFileEdge{Cursor: c, Node: &model.RevisionFile{File: f, RevisionID: rev.ID}}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}
	loader.Level(ctx, conn.Nodes()) // their git blobs read together
	return conn, nil
}

func fileCursor(f *tree.File) page.Cursor { return page.Cursor{Key: f.Name, ID: f.ID} }

// filesAfter is the index of the first file after the cursor in files (sorted by name, then id).
func filesAfter(files []*tree.File, after *page.Cursor) (int, error) {
	if after == nil {
		return 0, nil
	}
	name, err := after.String()
	if err != nil {
		return 0, err
	}
	return sort.Search(len(files), func(i int) bool {
		f := files[i]
		return f.Name > name || (f.Name == name && f.ID > after.ID)
	}), nil
}

// downloads are the download links of revisions' files, signed with this server's keys.
func (r *Resolver) downloads() revisions.Downloads {
	return revisions.Downloads{Contents: r.content(), Blobs: r.Blobs, Signer: r.signer()}
}

// FileDownloadURL returns a URL that serves a file's bytes for a while (revisions.Downloads.URL).
// Callers pass a file of a revision the viewer read.
func (r *Resolver) FileDownloadURL(ctx context.Context, revisionID string, f *tree.File) (string, error) {
	return r.downloads().URL(ctx, revisionID, f)
}

// OpenDownload opens the file that a download URL's token names, for anyone holding the token
// (revisions.Downloads.Open).
func (r *Resolver) OpenDownload(ctx context.Context, token string) (*revisions.Download, error) {
	return r.downloads().Open(ctx, token)
}

// GraphQL fields of content: the model of a page tree keeps its bodies unread until Markdown is
// asked for, and the pages read together load their bodies in batches.

// activeRevision is Space.revision: the space's active revision, read through the request's loader.
func (r *Resolver) activeRevision(ctx context.Context, s *ent.Space) (*ent.Revision, error) {
	if s.RevisionID == nil {
		return nil, nil
	}
	return loader.Get(ctx, r.Client, loader.Revisions, s, func(s *ent.Space) string { return derefOr(s.RevisionID, "") })
}

// spaceRevision is Space.revisionById: a revision of the space, or nil.
func (r *Resolver) spaceRevision(ctx context.Context, s *ent.Space, id string) (*ent.Revision, error) {
	rev, err := r.Client.Revision.Query().Where(revision.ID(id), revision.SpaceID(s.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return rev, err
}

// contentPages is Revision.pages: the top-level pages, each with its subtree.
func (r *Resolver) contentPages(ctx context.Context, rev *ent.Revision) ([]*model.ContentPage, error) {
	t, err := r.revisionTree(ctx, rev)
	if err != nil {
		return nil, err
	}
	pages := pageModels(rev.ID, t, "", "")
	loader.Level(ctx, subtreePages(pages))
	return pages, nil
}

// revisionPage is Revision.page: the page with the id, with its subtree, or nil.
func (r *Resolver) revisionPage(ctx context.Context, rev *ent.Revision, id string) (*model.ContentPage, error) {
	return r.contentPage(ctx, rev, func(t *tree.Tree) *tree.Page { return t.Page(id) })
}

// revisionPageByPath is Revision.pageByPath: the page at the slug path, with its subtree, or nil.
func (r *Resolver) revisionPageByPath(ctx context.Context, rev *ent.Revision, path string) (*model.ContentPage, error) {
	return r.contentPage(ctx, rev, func(t *tree.Tree) *tree.Page { return t.ByPath(path) })
}

// contentPage is the page find picks in a revision's tree, with its subtree, or nil.
func (r *Resolver) contentPage(ctx context.Context, rev *ent.Revision, find func(*tree.Tree) *tree.Page) (*model.ContentPage, error) {
	t, err := r.revisionTree(ctx, rev)
	if err != nil {
		return nil, err
	}
	p := find(t)
	if p == nil {
		return nil, nil
	}
	path := t.Path(p.ID)
	page := &model.ContentPage{Page: p, Path: path, RevisionID: rev.ID, Children: pageModels(rev.ID, t, p.ID, path+"/")}
	loader.Level(ctx, subtreePages([]*model.ContentPage{page}))
	return page, nil
}

// pageModels returns the children of parent in the tree of revision revID, each with its
// subtree; prefix is their path prefix.
func pageModels(revID string, t *tree.Tree, parent, prefix string) []*model.ContentPage {
	kids := t.Children(parent)
	out := make([]*model.ContentPage, len(kids))
	for i, p := range kids {
		path := prefix + p.Slug
		out[i] = &model.ContentPage{Page: p, Path: path, RevisionID: revID, Children: pageModels(revID, t, p.ID, path+"/")}
	}
	return out
}

// subtreePages returns pages and the pages of their subtrees: the pages read together, a level
// whose bodies load in one batch.
func subtreePages(pages []*model.ContentPage) []*model.ContentPage {
	out := append([]*model.ContentPage(nil), pages...)
	for _, p := range pages {
		out = append(out, subtreePages(p.Children)...)
	}
	return out
}

// contentPageMarkdown is ContentPage.markdown: nil for a group, which has no document.
func (r *Resolver) contentPageMarkdown(ctx context.Context, p *model.ContentPage) (*string, error) {
	body, err := r.contentPageBody(ctx, p)
	if body == nil || err != nil {
		return nil, err
	}
	md := revisions.PageMarkdown(p.Page, *body)
	return &md, nil
}

// contentPageDocument is ContentPage.document: the body as a JSON document, nil for a group.
func (r *Resolver) contentPageDocument(ctx context.Context, p *model.ContentPage) (any, error) {
	body, err := r.contentPageBody(ctx, p)
	if body == nil || err != nil {
		return nil, err
	}
	return document.FromMarkdown(*body), nil
}

// contentPageBody is a page's stored body, read in a batch with the other pages of the read; nil
// for a group.
func (r *Resolver) contentPageBody(ctx context.Context, p *model.ContentPage) (*string, error) {
	if p.Type == tree.TypeGroup {
		return nil, nil
	}
	body, err := loader.Get(ctx, r.Client, r.bodyBatch(), p, func(p *model.ContentPage) string { return p.Body })
	return &body, err
}

// revisionFile is Revision.file: the file with the id, or nil.
func (r *Resolver) revisionFile(ctx context.Context, rev *ent.Revision, id string) (*model.RevisionFile, error) {
	t, err := r.revisionTree(ctx, rev)
	if err != nil || t.File(id) == nil {
		return nil, err
	}
	return &model.RevisionFile{File: t.File(id), RevisionID: rev.ID}, nil
}

// bodyBatch reads page bodies by hash, those cached costing nothing.
func (r *Resolver) bodyBatch() *loader.Batch[string, string] {
	return loader.NewBatch("page bodies", func(ctx context.Context, _ *ent.Client, hashes []string) (map[string]string, error) {
		return r.content().Bodies(ctx, hashes)
	})
}
