// Package publish serves published docs sites to their readers as HTML: the third surface beside
// rest/ and GraphQL. A request becomes a viewer.Visitor; graph.VisitSite checks the site's
// audience and admits the visitor to the site's spaces; pages are read through the resolvers and
// rendered by graph/content/htmlpage. Nothing here queries the database or decides access.
//
// URLs: /sites/{basename or id}/{section path}/{site space path}/{page path}, where the default
// section and the default site space leave their segment out; "<page URL>.md" is the page's
// Markdown; llms.txt, sitemap.xml and robots.txt sit at the site's root.
package publish

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/apperr"
)

// Handler serves published sites under /sites/.
type Handler struct {
	r       *graph.Resolver
	baseURL string // absolute URL of this server, for canonical links and sitemaps
}

// New returns the published-site surface; mount it with Routes.
func New(r *graph.Resolver, baseURL string) *Handler {
	return &Handler{r: r, baseURL: strings.TrimRight(baseURL, "/")}
}

// Routes adds the site routes to a router.
func (h *Handler) Routes(r chi.Router) {
	r.Get(assetPath, serveStyle)
	r.Get("/sites/{site}", h.serve)
	r.Get("/sites/{site}/*", h.serve)
}

// serve answers one request to a published site.
func (h *Handler) serve(w http.ResponseWriter, req *http.Request) {
	ctx := viewer.NewContext(req.Context(), viewer.Visitor())
	ref := chi.URLParam(req, "site")
	visit, err := h.r.VisitSite(ctx, ref, graph.Audience{})
	if err != nil {
		h.fail(w, err)
		return
	}
	s := &siteView{h: h, ctx: ctx, visit: visit, base: "/sites/" + ref}
	rest := strings.Trim(chi.URLParam(req, "*"), "/")
	switch rest {
	case "robots.txt":
		s.serveRobots(w)
	case "sitemap.xml":
		s.serveSitemap(w)
	case "llms.txt":
		s.serveLLMs(w)
	default:
		if file, ok := strings.CutPrefix(rest, "~files/"); ok {
			s.serveFile(w, req, file)
			return
		}
		s.servePage(w, req, rest)
	}
}

// fail answers an error as a page: 404 for anything not found, 500 (logged by the server's
// middleware) for the unexpected.
func (h *Handler) fail(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	if e := apperr.As(err); e != nil {
		status = e.Kind.Status()
	}
	if status == http.StatusForbidden || status == http.StatusUnauthorized {
		status = http.StatusNotFound // a reader outside the audience learns nothing of the site
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.WriteHeader(status)
	_ = pages.ExecuteTemplate(w, "error.html", errorView{Status: status, Text: http.StatusText(status)})
}

// errPageNotFound is a path that names no page of the site.
var errPageNotFound = apperr.NotFoundf("page not found")
