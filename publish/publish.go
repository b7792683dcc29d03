// Package publish serves published docs sites to their readers as HTML: the third surface beside
// rest/ and GraphQL. A request becomes a viewer.Visitor; graph.VisitSite checks the site's
// audience and admits the visitor to the site's spaces; pages are read through the resolvers and
// rendered by internal/content/htmlpage. Nothing here queries the database or decides access.
//
// URLs: /sites/{basename or id}/{section path}/{site space path}/{page path}, where the default
// section and the default site space leave their segment out; "<page URL>.md" is the page's
// Markdown; llms.txt, sitemap.xml and robots.txt sit at the site's root, and its MCP server at
// ~gitbook/mcp (mcp.go).
package publish

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/observe"
	"github.com/binderyhq/bindery/internal/readcache"
	"github.com/binderyhq/bindery/internal/sites"
)

// Handler serves published sites under /sites/.
type Handler struct {
	r       *graph.Resolver
	reads   *readcache.Cache           // keeps the pages of sites at their own hostnames; nil: none
	baseURL string                     // absolute URL of this server, for canonical links and sitemaps
	ownHost string                     // the host of baseURL
	pages   *lru.Cache[string, []byte] // rendered pages by ETag
	visible visibility                 // the pages readers see (visible.go)
	// expressions are the expressions of page bodies, by body (expressions.go)
	expressions *lru.Cache[string, pageExpressions]
}

// New returns the published-site surface; mount it with Routes, and ByHost before the router.
// reads keeps the pages ByHost serves (the router keeps those under /sites/); nil keeps none.
func New(r *graph.Resolver, baseURL string, reads *readcache.Cache) *Handler {
	return &Handler{r: r, reads: reads, baseURL: strings.TrimRight(baseURL, "/"), ownHost: hostOf(baseURL), pages: newPageCache(),
		visible: newVisibility(), expressions: newExpressionCache()}
}

// Routes adds the site routes to a router.
func (h *Handler) Routes(r chi.Router) {
	r.Get(assetsPrefix+"*", serveAsset)
	r.Get("/sites/{site}", h.serve)
	r.Get("/sites/{site}/*", h.serve)
	r.Post("/sites/{site}/"+mcpPath, func(w http.ResponseWriter, req *http.Request) { h.serveAt(w, req, mcpPath) })
	r.Post("/sites/{site}/"+signOutPath, func(w http.ResponseWriter, req *http.Request) { h.serveAt(w, req, signOutPath) })
	r.Post("/sites/{site}/*", h.serve) // page feedback (…/~feedback); every other path refuses a POST
}

// serve answers one request to a published site under /sites/.
func (h *Handler) serve(w http.ResponseWriter, req *http.Request) {
	h.serveAt(w, req, chi.URLParam(req, "*"))
}

// serveAt answers a request to the path rest of a published site under /sites/.
func (h *Handler) serveAt(w http.ResponseWriter, req *http.Request, rest string) {
	name := chi.URLParam(req, "site")
	ctx := viewer.NewContext(req.Context(), viewer.Visitor())
	ref := sites.SiteRef{Name: name}
	if isSignInPath(rest) {
		if !h.serveSignIn(ctx, w, req, ref, "/sites/"+name, rest) {
			h.fail(w, req, errPageNotFound)
		}
		return
	}
	visit, err := h.r.VisitSite(ctx, ref, audience(w, req, "/sites/"+name, rest))
	h.serveVisit(ctx, w, req, ref, visit, err, "/sites/"+name, rest)
}

// ByHost serves a published site that has a custom hostname at the root of requests to that
// host, and passes every other request to next: those to the server's own host, to an address,
// and to a host no published site has.
func (h *Handler) ByHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !h.IsSiteHost(req) {
			next.ServeHTTP(w, req)
			return
		}
		ctx := req.Context()
		if req.Method == http.MethodGet && h.reads.KeepsAnswers() {
			ctx = h.reads.Track(ctx)
		}
		if !readcache.Tracked(ctx) {
			h.serveHost(w, req, next, req)
			return
		}
		tracked := req.WithContext(ctx)
		// A page read again from an unchanged database is the one kept (decision 367).
		h.reads.Serve(w, tracked, readcache.KeyOf(readcache.SiteHost, tracked, nil),
			func(a *readcache.Answer) {
				observe.SetRoute(tracked.Context(), observe.RouteSiteHost)
				a.Repeat(tracked.Context())
				a.Replay(w)
			},
			func(w http.ResponseWriter) string {
				h.serveHost(w, tracked, next, req)
				return observe.RouteSiteHost
			})
	})
}

// serveHost answers req at the root of its site's hostname, or passes the request as it came
// (untracked) to next when no site has the hostname: the answer is then the router's to keep.
func (h *Handler) serveHost(w http.ResponseWriter, req *http.Request, next http.Handler, came *http.Request) {
	ctx := viewer.NewContext(req.Context(), viewer.Visitor())
	ref := sites.SiteRef{Hostname: hostOf("//" + req.Host)}
	if isSignInPath(req.URL.Path) {
		readcache.DoNotKeep(req.Context())
		if !h.serveSignIn(ctx, w, req, ref, "", req.URL.Path) {
			next.ServeHTTP(w, came)
		}
		return
	}
	visit, err := h.r.VisitSite(ctx, ref, audience(w, req, "", req.URL.Path))
	if apperr.IsNotFound(err) {
		readcache.DoNotKeep(req.Context())
		next.ServeHTTP(w, came)
		return
	}
	observe.SetRoute(ctx, observe.RouteSiteHost)
	h.serveVisit(ctx, w, req, ref, visit, err, "", req.URL.Path)
}

// IsSiteHost reports whether a request may be to a published site's own hostname (ByHost serves
// it when one has it): not to the server's own host, an address or localhost, nor for the sites'
// shared assets.
func (h *Handler) IsSiteHost(req *http.Request) bool {
	host := hostOf("//" + req.Host)
	return host != "" && host != h.ownHost && host != "localhost" && net.ParseIP(host) == nil &&
		!strings.HasPrefix(req.URL.Path, assetsPrefix)
}

// originOf is the scheme and host of a site whose URLs start at base: this server's for a site
// under /sites/, the request's host (at this server's scheme) for a site at its own hostname.
func (h *Handler) originOf(req *http.Request, base string) string {
	if base != "" {
		return h.baseURL
	}
	scheme := "https"
	if u, err := url.Parse(h.baseURL); err == nil && u.Scheme != "" {
		scheme = u.Scheme
	}
	return scheme + "://" + req.Host
}

// hostOf is the lower-cased host name of a URL, without its port.
func hostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// serveVisit answers a request to a published site whose URLs start at base (visit and err are
// VisitSite's answer); rest is the path inside the site.
func (h *Handler) serveVisit(ctx context.Context, w http.ResponseWriter, req *http.Request, ref sites.SiteRef, visit *sites.Visit, err error, base, rest string) {
	if e := apperr.As(err); e != nil && e.Kind == apperr.Unauthenticated {
		h.unauthenticated(ctx, w, req, ref, base, e)
		return
	}
	if err != nil {
		h.fail(w, req, err)
		return
	}
	s := &siteView{h: h, ctx: ctx, visit: visit, base: base, origin: h.originOf(req, base), readerQuery: readerQuery(req)}
	rest = strings.Trim(rest, "/")
	if req.Method == http.MethodPost && rest != mcpPath {
		s.servePost(w, req, rest)
		return
	}
	switch rest {
	case "robots.txt":
		s.serveRobots(w)
	case "sitemap.xml":
		s.serveSitemap(w)
	case "llms.txt":
		s.serveLLMs(w)
	case mcpPath:
		s.serveMCP(w, req)
	default:
		if file, ok := strings.CutPrefix(rest, "~files/"); ok {
			s.serveFile(w, req, file)
			return
		}
		s.servePage(w, req, rest)
	}
}

// unauthenticated answers a reader of a visitor-auth site without a valid token: a redirect to
// the provider of the site's sign-in when it has one (startSignIn), else to the site's fallback
// URL (where visitors sign in) when it has one, else a 401 page saying why.
func (h *Handler) unauthenticated(ctx context.Context, w http.ResponseWriter, req *http.Request, ref sites.SiteRef, base string, e *apperr.Error) {
	if isMCP(req) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="visitor token"`)
	}
	if wantsJSON(req) {
		writeJSONError(w, http.StatusUnauthorized, e.Message)
		return
	}
	if req.Method == http.MethodGet && h.startSignIn(ctx, w, req, ref, base) {
		return
	}
	if fallback := h.r.VisitorFallbackURL(ctx, ref); fallback != "" {
		http.Redirect(w, req, fallback, http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusUnauthorized)
	_ = pages.ExecuteTemplate(w, "error.html", errorView{Status: http.StatusUnauthorized, Text: e.Message})
}

// fail answers an error as a page (as JSON to search as you type): 404 for anything not found,
// 500 (logged by the server's middleware) for the unexpected.
func (h *Handler) fail(w http.ResponseWriter, req *http.Request, err error) {
	status := http.StatusInternalServerError
	if e := apperr.As(err); e != nil {
		status = e.Kind.Status()
	}
	if status == http.StatusForbidden || status == http.StatusUnauthorized {
		status = http.StatusNotFound // a reader outside the audience learns nothing of the site
	}
	if wantsJSON(req) {
		writeJSONError(w, status, http.StatusText(status))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.WriteHeader(status)
	_ = pages.ExecuteTemplate(w, "error.html", errorView{Status: status, Text: http.StatusText(status)})
}

// errPageNotFound is a path that names no page of the site.
var errPageNotFound = apperr.NotFoundf("page not found")
