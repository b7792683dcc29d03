package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/content/tree"
	jsondoc "github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/gitsync"
)

// Wire shapes of content reads: the reference client's Revision, RevisionPage (documents and
// groups) and RevisionFile.

// Revision is the wire shape of a revision. Bindery keeps no tags or variables: those lists are
// empty. git names the commit the revision was exported to or imported from (Git Sync), absent
// for none. A merge names the change request it merged.
type Revision struct {
	Object           string                    `json:"object"`
	ID               string                    `json:"id"`
	Type             string                    `json:"type"`
	Parents          []string                  `json:"parents"`
	Pages            []RevisionPage            `json:"pages"`
	Files            []RevisionFile            `json:"files"`
	ReusableContents []RevisionReusableContent `json:"reusableContents"`
	Tags             []struct{}                `json:"tags"`
	CreatedAt        time.Time                 `json:"createdAt"`
	URLs             appURL                    `json:"urls"`
	MergedFrom       *ChangeRequest            `json:"mergedFrom,omitempty"`
	Git              *revisionGit              `json:"git,omitempty"`
}

// revisionGit is the reference's GitSyncCommit.
type revisionGit struct {
	Oid              string `json:"oid"`
	Message          string `json:"message"`
	CreatedByGitBook bool   `json:"createdByGitBook" doc:"Whether Bindery made the commit (an export)."`
	Ref              string `json:"ref"`
}

// gitSyncBlob is the reference's GitSyncBlob: a file of a git commit.
type gitSyncBlob struct {
	Oid  string `json:"oid" doc:"The hash of the file's blob."`
	Path string `json:"path" doc:"The file's path from the top of the repository."`
}

type appURL struct {
	App string `json:"app"`
}

// RevisionPage is the wire shape of a page: a document (kind "sheet", with urls, layout, tags and
// its body's documentId) or a group (without them). markdown is present when asked for.
type RevisionPage struct {
	ID          string            `json:"id"`
	Title       string            `json:"title"`
	Emoji       string            `json:"emoji,omitempty"`
	CreatedAt   time.Time         `json:"createdAt"`
	UpdatedAt   time.Time         `json:"updatedAt"`
	Kind        string            `json:"kind"`
	Type        string            `json:"type"`
	URLs        *appURL           `json:"urls,omitempty"`
	Slug        string            `json:"slug"`
	Path        string            `json:"path"`
	Description string            `json:"description,omitempty"`
	Hidden      bool              `json:"hidden"`
	NoIndex     bool              `json:"noIndex"`
	Condition   string            `json:"condition,omitempty"`
	Layout      *pageLayout       `json:"layout,omitempty"`
	Tags        *[]struct{}       `json:"tags,omitempty"`
	DocumentID  string            `json:"documentId,omitempty"`
	Git         *gitSyncBlob      `json:"git,omitempty" doc:"Where the page is in the git commit of its revision (Git Sync); absent for none, or with metadata=false."`
	Markdown    *string           `json:"markdown,omitempty"`
	Document    *jsondoc.Document `json:"document,omitempty"`
	Pages       []RevisionPage    `json:"pages"`
}

// pageLayout is the layout of every document: Bindery stores none, so pages show everything.
type pageLayout struct {
	Width           string `json:"width"`
	Cover           bool   `json:"cover"`
	CoverSize       string `json:"coverSize"`
	CoverMask       string `json:"coverMask"`
	Title           bool   `json:"title"`
	Description     bool   `json:"description"`
	TableOfContents bool   `json:"tableOfContents"`
	Outline         bool   `json:"outline"`
	Pagination      bool   `json:"pagination"`
	Metadata        bool   `json:"metadata"`
	Tags            bool   `json:"tags"`
	Actions         bool   `json:"actions"`
	Anchors         bool   `json:"anchors"`
}

var (
	defaultLayout = &pageLayout{Width: "default", Cover: true, CoverSize: "hero", CoverMask: "none", Title: true,
		Description: true, TableOfContents: true, Outline: true, Pagination: true, Metadata: true, Tags: true,
		Actions: true, Anchors: true}
	noTags = []struct{}{}
)

// RevisionFile is the wire shape of a file; downloadURL serves its bytes for a limited time.
type RevisionFile struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	ContentType string       `json:"contentType"`
	DownloadURL string       `json:"downloadURL"`
	Size        int64        `json:"size"`
	Git         *gitSyncBlob `json:"git,omitempty" doc:"Where the file's asset is in the git commit of its revision (Git Sync); absent for none, or with metadata=false."`
}

// wireTypes maps stored revision types to the reference's: a space's first revision and an
// import are edits of its content.
var wireTypes = map[revision.Type]string{
	revision.TypeInitial: "edits", revision.TypeImport: "edits", revision.TypeEdits: "edits",
	revision.TypeMerge: "merge", revision.TypeUpdate: "update",
}

// contentView converts one content read: it knows where its pages live in the app.
type contentView struct {
	a   *api
	c   *graph.Content
	app string // app URL of the revision; its pages' URLs add their path
	// git is where pages, files and reusable contents are in the git commit of the revision, by id (withGit).
	git map[string]gitsync.Blob
}

func (a *api) contentView(c *graph.Content) contentView {
	app := a.url("/o/" + c.Space.OrganizationID + "/s/" + c.Space.ID)
	switch {
	case c.ChangeRequest != nil:
		app += "/~/changes/" + strconv.Itoa(c.ChangeRequest.Number)
	case c.Space.RevisionID == nil || *c.Space.RevisionID != c.Revision.ID:
		app += "/~/revisions/" + c.Revision.ID
	}
	return contentView{a: a, c: c, app: app}
}

// withGit is v with where the pages of ids (nil: every page) are in the git commit of the revision,
// unless the request says metadata=false (the reference's default is true).
func (v contentView) withGit(ctx context.Context, r *http.Request, ids []string) (contentView, error) {
	metadata, err := (query{r}).boolean("metadata")
	if err != nil || (metadata != nil && !*metadata) {
		return v, err
	}
	v.git, err = v.a.r.PagesGit(ctx, v.c.Revision, ids)
	return v, err
}

// revision is the whole revision: its page tree and every file.
func (v contentView) revision(ctx context.Context) (Revision, error) {
	files, err := v.files(ctx, v.c.Tree.Files())
	if err != nil {
		return Revision{}, err
	}
	rev := v.c.Revision
	w := Revision{
		Object: "revision", ID: rev.ID, Type: wireTypes[rev.Type], Parents: rev.Parents,
		Pages: v.pages("", ""), Files: files, ReusableContents: v.reusableContents(), Tags: []struct{}{},
		CreatedAt: rev.CreatedAt, URLs: appURL{App: v.app},
	}
	if rev.Type == revision.TypeMerge {
		if w.MergedFrom, err = v.mergedFrom(ctx); err != nil {
			return w, err
		}
	}
	c, err := v.a.r.RevisionCommit(ctx, rev)
	if c != nil {
		w.Git = &revisionGit{Oid: c.Oid, Message: c.Message, CreatedByGitBook: c.CreatedByBindery, Ref: c.Ref}
	}
	return w, err
}

func (v contentView) mergedFrom(ctx context.Context) (*ChangeRequest, error) {
	cr, err := v.a.r.MergedFrom(ctx, v.c.Revision)
	if err != nil {
		return nil, err
	}
	w, err := v.a.changeRequest(ctx, cr)
	return &w, err
}

// Encoded page trees: a revision never changes, so the JSON of its page tree (for one app URL) is
// the same at every read. Big trees are encoded once and kept; small ones encode faster than a
// cache would save.
const (
	bigTree     = 1000 // pages from which an encoded tree is kept
	cachedTrees = 8    // encoded trees kept (10,000 pages are about 7 MB)
)

func newPageTreeCache() *lru.Cache[string, []byte] {
	c, _ := lru.New[string, []byte](cachedTrees)
	return c
}

// encodedPages is the JSON array of the revision's page tree, with the pages' git blobs unless
// the request says metadata=false. A big tree's encoding is kept, under the revision's id too
// when it has blobs (the same tree has others in another revision's commit): the blobs of a
// revision never change once recorded, so a kept tree reads none.
func (v contentView) encodedPages(ctx context.Context, r *http.Request) ([]byte, error) {
	if v.c.Tree.PageCount() < bigTree {
		v, err := v.withGit(ctx, r, nil)
		if err != nil {
			return nil, err
		}
		return encode(v.pages("", ""))
	}
	key := v.c.Revision.RootTree + " " + v.app
	metadata, err := (query{r}).boolean("metadata")
	synced := false
	if err == nil && (metadata == nil || *metadata) {
		synced, err = v.a.r.RevisionHasGit(ctx, v.c.Revision)
	}
	if err != nil {
		return nil, err
	}
	if synced {
		key += " git " + v.c.Revision.ID
	}
	if b, ok := v.a.pageTrees.Get(key); ok {
		return b, nil
	}
	if synced {
		if v, err = v.withGit(ctx, r, nil); err != nil {
			return nil, err
		}
	}
	b, err := encode(v.pages("", ""))
	if err == nil {
		v.a.pageTrees.Add(key, b)
	}
	return b, err
}

// encode is v as JSON, as writeJSON writes it (no HTML escaping).
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// pages converts the children of parent with their subtrees; prefix is their path prefix. The
// tree is walked once and no page costs a lookup.
func (v contentView) pages(parent, prefix string) []RevisionPage {
	kids := v.c.Tree.Children(parent)
	out := make([]RevisionPage, len(kids))
	for i, p := range kids {
		out[i] = v.page(p, prefix+p.Slug)
	}
	return out
}

// page converts one page with its subtree.
func (v contentView) page(p *tree.Page, path string) RevisionPage {
	w := v.pageAlone(p, path)
	w.Pages = v.pages(p.ID, path+"/")
	return w
}

// pageAlone converts one page without its subpages (pages is empty).
func (v contentView) pageAlone(p *tree.Page, path string) RevisionPage {
	w := RevisionPage{
		ID: p.ID, Title: p.Title, Emoji: p.Emoji, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
		Kind: "group", Type: tree.TypeGroup, Slug: p.Slug, Path: path, Hidden: p.Hidden, NoIndex: p.NoIndex,
		Condition: p.Condition, Pages: []RevisionPage{},
	}
	if p.Type != tree.TypeGroup {
		w.Kind, w.Type = "sheet", tree.TypeDocument
		w.URLs = &appURL{App: v.app + "/" + escapePath(path)}
		w.Description, w.Layout, w.Tags, w.DocumentID = p.Description, defaultLayout, &noTags, p.Body
		w.Git = v.blob(p.ID)
	}
	return w
}

// blob is where the page or file id is in the git commit of the revision (withGit), nil for none.
func (v contentView) blob(id string) *gitSyncBlob {
	if b, ok := v.git[id]; ok {
		return &gitSyncBlob{Oid: b.Oid, Path: b.Path}
	}
	return nil
}

// escapePath escapes each slug of a page path for a URL.
func escapePath(path string) string {
	return (&url.URL{Path: path}).EscapedPath()
}

// pageWithMarkdown is page with the page's whole Markdown (documents only).
func (v contentView) pageWithMarkdown(ctx context.Context, p *tree.Page, dereferenced bool) (RevisionPage, error) {
	w := v.page(p, v.c.Tree.Path(p.ID))
	if w.Type == tree.TypeGroup {
		return w, nil
	}
	var md string
	var err error
	if dereferenced {
		md, err = v.a.r.DereferencedPageMarkdown(ctx, v.c.Tree, p)
	} else {
		md, err = v.a.r.PageMarkdown(ctx, p)
	}
	w.Markdown = &md
	return w, err
}

// pageWithDocument is page with its body as the reference's JSON document (documents only), with
// the reusable contents it places put in when dereferenced.
func (v contentView) pageWithDocument(ctx context.Context, p *tree.Page, dereferenced bool) (RevisionPage, error) {
	w := v.page(p, v.c.Tree.Path(p.ID))
	if w.Type == tree.TypeGroup {
		return w, nil
	}
	if dereferenced {
		doc, err := v.a.r.DereferencedPageDocument(ctx, v.c.Tree, p)
		w.Document = doc
		return w, err
	}
	body, err := v.a.r.PageBody(ctx, p)
	w.Document = jsondoc.FromMarkdown(body)
	return w, err
}

// files converts files, each with a fresh download URL.
func (v contentView) files(ctx context.Context, files []*tree.File) ([]RevisionFile, error) {
	out := make([]RevisionFile, len(files))
	for i, f := range files {
		var err error
		if out[i], err = v.a.revisionFile(ctx, v.c.Revision.ID, f); err != nil {
			return nil, err
		}
		out[i].Git = v.blob(f.ID)
	}
	return out, nil
}

func (a *api) revisionFile(ctx context.Context, revisionID string, f *tree.File) (RevisionFile, error) {
	u, err := a.r.FileDownloadURL(ctx, revisionID, f)
	return RevisionFile{ID: f.ID, Name: f.Name, ContentType: f.ContentType, DownloadURL: u, Size: f.Size}, err
}
