package rest

import (
	"context"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// contentOf reads the revision a content route names: a space's content, a change request's, or a
// revision by id. Every content route takes `shareKey`, which opens a share-link space to its
// holder as GET /v1/spaces/{spaceId}?shareKey= does.
type contentOf func(r *http.Request) (*graph.Content, error)

func (a *api) spaceContent(r *http.Request) (*graph.Content, error) {
	return a.r.SpaceContent(r.Context(), chi.URLParam(r, "spaceId"), query{r}.str("shareKey"))
}

func (a *api) changeRequestContent(r *http.Request) (*graph.Content, error) {
	return a.r.ChangeRequestContent(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"),
		query{r}.str("shareKey"))
}

func (a *api) revisionContent(r *http.Request) (*graph.Content, error) {
	return a.r.RevisionContent(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "revisionId"),
		query{r}.str("shareKey"))
}

// contentRoutes adds the reads of one kind of content under prefix: the revision, its page tree,
// a page by id or by path, its files, a reusable content by id.
func (a *api) contentRoutes(r chi.Router, prefix string, of contentOf) {
	r.Get(prefix, a.getRevision(of))
	r.Get(prefix+"/pages", a.listPages(of))
	r.Get(prefix+"/page/{pageId}", a.getPage(of, pageByID))
	r.Get(prefix+"/path/*", a.getPage(of, pageByPath))
	r.Get(prefix+"/files", a.listFiles(of))
	r.Get(prefix+"/files/{fileId}", a.getFile(of))
	r.Get(prefix+"/reusable-contents/{reusableContentId}", a.getReusableContent(of))
}

// readContent checks the query parameters every content read takes, then reads the content.
// metadata=false leaves out the pages' git blobs (withGit); computed is accepted and changes
// nothing: Bindery has no computed content.
func readContent(r *http.Request, of contentOf) (*graph.Content, error) {
	for _, flag := range []string{"metadata", "computed"} {
		if _, err := (query{r}).boolean(flag); err != nil {
			return nil, err
		}
	}
	return of(r)
}

func (a *api) getRevision(of contentOf) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := readContent(r, of)
		respondWith(w, r, http.StatusOK, c, err, func(ctx context.Context, c *graph.Content) (Revision, error) {
			v, err := a.contentView(c).withGit(ctx, r, nil)
			if err != nil {
				return Revision{}, err
			}
			return v.revision(ctx)
		})
	}
}

func (a *api) listPages(of contentOf) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := readContent(r, of)
		var pages []byte
		if err == nil {
			pages, err = a.contentView(c).encodedPages(r.Context(), r)
		}
		if err != nil {
			writeError(w, r, err)
			return
		}
		writePageTree(w, pages)
	}
}

// writePageTree answers {"pages": […]} with the page tree's JSON as it was encoded: through
// encoding/json, a json.RawMessage is scanned again, which costs more than encoding it did.
func writePageTree(w http.ResponseWriter, pages []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	for _, part := range [][]byte{[]byte(`{"pages":`), pages, []byte("}\n")} {
		if _, err := w.Write(part); err != nil {
			return // the client went away
		}
	}
}

// getPage answers one page with its subpages; format=markdown adds its whole Markdown,
// format=document its body as the reference's JSON document, converted from the stored Markdown;
// dereferenced puts the reusable contents it places in either.
// Without a format the body is not read, and documentId says whether there is one.
func (a *api) getPage(of contentOf, find func(*graph.Content, *http.Request) (*tree.Page, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		format, err := query{r}.oneOf("format", "document", "markdown")
		var placed bool
		if err == nil {
			placed, err = dereferenced(r)
		}
		var c *graph.Content
		if err == nil {
			c, err = readContent(r, of)
		}
		var p *tree.Page
		if err == nil {
			p, err = find(c, r)
		}
		respondWith(w, r, http.StatusOK, p, err, func(ctx context.Context, p *tree.Page) (RevisionPage, error) {
			v, err := a.contentView(c).withGit(ctx, r, append(c.Tree.Descendants(p.ID), p.ID))
			if err != nil {
				return RevisionPage{}, err
			}
			switch format {
			case "markdown":
				return v.pageWithMarkdown(ctx, p, placed)
			case "document":
				return v.pageWithDocument(ctx, p, placed)
			}
			return v.page(p, c.Tree.Path(p.ID)), nil
		})
	}
}

func pageByID(c *graph.Content, r *http.Request) (*tree.Page, error) {
	return c.Page(chi.URLParam(r, "pageId"))
}

func pageByPath(c *graph.Content, r *http.Request) (*tree.Page, error) {
	path, err := pagePath(r)
	if err != nil {
		return nil, err
	}
	return c.PageByPath(path)
}

// pagePath is the page path of a /path/{pagePath} route: the rest of the URL, its slugs
// percent-encoded and its slashes sent as they are or escaped (%2F). When the request's path has
// escapes Go would not have made, routing ran on the escaped path and the slugs are decoded here.
func pagePath(r *http.Request) (string, error) {
	raw := chi.URLParam(r, "*")
	if r.URL.RawPath == "" {
		return raw, nil
	}
	path, err := url.PathUnescape(raw)
	if err != nil {
		return "", apperr.Invalidf("pagePath: %q is not a valid URL-escaped path", truncate(raw, 100))
	}
	return path, nil
}

// listFiles answers a page of the revision's files, with their git blobs unless metadata=false
// (one read for the page).
func (a *api) listFiles(of contentOf) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var v contentView
		fileOf := func(ctx context.Context, f *model.RevisionFile) (RevisionFile, error) {
			w, err := a.revisionFile(ctx, f.RevisionID, f.File)
			w.Git = v.blob(f.ID)
			return w, err
		}
		serveList(w, r, fileOf, func(ctx context.Context, limit *int, page *string) (model.Connection[*model.RevisionFile], error) {
			c, err := readContent(r, of)
			if err != nil {
				return nil, err
			}
			files, err := a.r.RevisionFiles(ctx, c.Revision, limit, page)
			if err != nil {
				return nil, err
			}
			ids := make([]string, 0, len(files.Edges))
			for _, e := range files.Edges {
				ids = append(ids, e.Node.ID)
			}
			v, err = a.contentView(c).withGit(ctx, r, ids)
			return files, err
		})
	}
}

func (a *api) getFile(of contentOf) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := readContent(r, of)
		var f *tree.File
		if err == nil {
			f, err = c.File(chi.URLParam(r, "fileId"))
		}
		respondWith(w, r, http.StatusOK, f, err, func(ctx context.Context, f *tree.File) (RevisionFile, error) {
			v, err := a.contentView(c).withGit(ctx, r, []string{f.ID})
			if err != nil {
				return RevisionFile{}, err
			}
			w, err := a.revisionFile(ctx, c.Revision.ID, f)
			w.Git = v.blob(f.ID)
			return w, err
		})
	}
}

// downloadFile serves the bytes a file's signed downloadURL names, without a bearer token. The
// bytes are an attachment with their stored content type, never sniffed, and sandboxed should a
// browser render them anyway: uploads must not run as pages of this origin.
func (a *api) downloadFile(w http.ResponseWriter, r *http.Request) {
	d, err := a.r.OpenDownload(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	defer d.Body.Close()
	h := w.Header()
	h.Set("Content-Type", d.ContentType)
	h.Set("Content-Disposition", blobs.Attachment(d.Name))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "private, max-age=3600") // the bytes behind a token never change
	// ServeContent sets Content-Length and answers Range requests.
	http.ServeContent(w, r, "", d.ModTime, d.Body)
}
