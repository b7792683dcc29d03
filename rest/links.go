package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/content/links"
	"github.com/binderyhq/bindery/internal/linkstatus"
)

// linkRoutes adds the link reads of one kind of content under prefix: a page's links and the
// pages linking to a file.
func (a *api) linkRoutes(r chi.Router, prefix string, of contentOf) {
	r.Get(prefix+"/page/{pageId}/links", a.listPageLinks(of))
	r.Get(prefix+"/files/{fileId}/backlinks", a.listFileBacklinks(of))
}

// listSpaceLinks answers GET /v1/spaces/{spaceId}/links: the links of every page of the space's
// content.
func (a *api) listSpaceLinks(w http.ResponseWriter, r *http.Request) {
	a.serveLinks(w, r, a.spaceContent, func(ctx context.Context, c *graph.Content, args graph.LinkArgs) (*model.LinkConnection, error) {
		return a.r.RevisionLinks(ctx, c.Revision, c.Tree, args)
	})
}

func (a *api) listPageLinks(of contentOf) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a.serveLinks(w, r, of, func(ctx context.Context, c *graph.Content, args graph.LinkArgs) (*model.LinkConnection, error) {
			p, err := c.Page(chi.URLParam(r, "pageId"))
			if err != nil {
				return nil, err
			}
			return a.r.PageLinks(ctx, c.Revision, c.Tree, p, args)
		})
	}
}

// serveLinks answers a list of links of the content of, which load lists: `status` filters it
// (ok, broken or in-app), `limit` and `page` page it, and stats count the whole list.
func (a *api) serveLinks(w http.ResponseWriter, r *http.Request, of contentOf,
	load func(context.Context, *graph.Content, graph.LinkArgs) (*model.LinkConnection, error)) {
	ctx := r.Context()
	q := query{r}
	status, err := q.oneOf("status", string(links.OK), string(links.Broken), string(links.InApp))
	args := graph.LinkArgs{After: q.str("page")}
	if status != "" {
		args.Status = (*links.Status)(&status)
	}
	if err == nil {
		args.First, err = q.limit()
	}
	var c *graph.Content
	if err == nil {
		c, err = readContent(r, of)
	}
	var conn *model.LinkConnection
	if err == nil {
		conn, err = load(ctx, c, args)
	}
	var loc *locator
	if err == nil {
		loc, err = a.locator(ctx, c)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	info, count := conn.Info()
	l, err := list(ctx, conn.Nodes(), info, &count, loc.link)
	respond(w, r, http.StatusOK, LinkList{List: l, Stats: wireLinkStats(conn.Stats)}, err)
}

// listFileBacklinks answers …/files/{fileId}/backlinks: the pages whose Markdown links to the
// file, by path.
func (a *api) listFileBacklinks(of contentOf) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var loc *locator
		conv := func(ctx context.Context, s *linkstatus.Source) (PageLocation, error) { return loc.page(s), nil }
		serveList(w, r, conv, func(ctx context.Context, limit *int, page *string) (model.Connection[*linkstatus.Source], error) {
			c, err := readContent(r, of)
			if err != nil {
				return nil, err
			}
			f, err := c.File(chi.URLParam(r, "fileId"))
			if err != nil {
				return nil, err
			}
			if loc, err = a.locator(ctx, c); err != nil {
				return nil, err
			}
			return a.r.FileBacklinks(ctx, c.Tree, f.ID, limit, page)
		})
	}
}
