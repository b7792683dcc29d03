package publish

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph"
)

// Redirects. A path of a site that names no page (a page there always wins) is looked up, after
// the reader was admitted, among the site's live redirects, then among the paths that pages of
// the site space's content left when a merge or an import moved them. A reader outside the
// audience never gets this far: they get the site's 404 (or 401) for every path, so nothing tells
// them a redirect exists. Permanent redirects and moved pages answer 308 on public and unlisted
// sites, 307 elsewhere (the reference: "308 for public live traffic and 307 in non-public
// contexts"), where what a reader sees depends on who they are.

// credentialParams are the query parameters that carry a reader's credentials: kept on the site,
// never sent to an address outside it.
var credentialParams = map[string]bool{"shareKey": true, "share": true, "jwt_token": true}

// missingPage answers a path (inside the site, as requested) that names no page: a redirect when
// one applies, else 404. at is where the path led in the site (nil when it led to no site space),
// with the content read there.
func (s *siteView) missingPage(w http.ResponseWriter, req *http.Request, path string, at *pageAt) {
	target, permanent, err := s.redirectTarget(path, at)
	if err != nil || target == "" || sameTarget(target, req) {
		s.h.fail(w, req, firstErr(err, errPageNotFound))
		return
	}
	status := http.StatusTemporaryRedirect
	if permanent && s.publicAudience() {
		status = http.StatusPermanentRedirect
	}
	s.setCacheControl(w)
	w.Header().Set("Location", withQuery(target, req))
	w.WriteHeader(status)
}

// pageAt is a site space's content and the path of a page inside it.
type pageAt struct {
	loc     location
	content *graph.Content
}

// redirectTarget is where a missing path leads, and whether for good: the site's redirect that
// matches it, else the page that left it (graph.Resolver.SiteMissingPath); "" when neither.
func (s *siteView) redirectTarget(path string, at *pageAt) (string, bool, error) {
	var spaceID, pagePath string
	if at != nil {
		spaceID, pagePath = at.loc.SiteSpace.SpaceID, at.loc.PagePath
	}
	m, err := s.h.r.SiteMissingPath(s.ctx, s.visit.Site.ID, path, spaceID, pagePath, visitURLs{s})
	if err != nil || m.URL != "" {
		return m.URL, m.Permanent, err
	}
	if m.MovedPage == "" {
		return "", false, nil
	}
	p := at.content.Tree.Page(m.MovedPage)
	if p == nil {
		return "", false, nil
	}
	if strings.HasSuffix(path, ".md") {
		return s.markdownURL(at.loc, at.content.Tree, p), true, nil
	}
	return s.pageURL(at.loc, at.content.Tree, p), true, nil
}

func firstErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// publicAudience reports whether anyone may read the site (public and unlisted sites).
func (s *siteView) publicAudience() bool {
	v := s.visit.Site.Visibility
	return v == "public" || v == "unlisted"
}

// sameTarget reports whether a target on the site is the request's own path: a redirect there
// would loop (a section redirected to itself while its first page is missing).
func sameTarget(target string, req *http.Request) bool {
	u, err := url.Parse(target)
	return err == nil && u.Host == "" && strings.TrimRight(u.Path, "/") == strings.TrimRight(req.URL.Path, "/")
}

// withQuery is target followed by the request's query parameters (after the target's own), in
// their order; an address outside the site does not receive the reader's credentials.
func withQuery(target string, req *http.Request) string {
	u, err := url.Parse(target)
	if err != nil || req.URL.RawQuery == "" {
		return target
	}
	params := strings.Split(req.URL.RawQuery, "&")
	if u.Host != "" {
		params = withoutCredentials(params)
	}
	if u.RawQuery != "" {
		params = append([]string{u.RawQuery}, params...)
	}
	u.RawQuery = strings.Join(params, "&")
	return u.String()
}

func withoutCredentials(params []string) []string {
	return paramsNamed(params, func(name string) bool { return !credentialParams[name] })
}

// paramsNamed keeps the query parameters (as written, "name=value") whose decoded name keep
// accepts, in their order.
func paramsNamed(params []string, keep func(name string) bool) []string {
	var kept []string
	for _, p := range params {
		name, _, _ := strings.Cut(p, "=")
		if name, err := url.QueryUnescape(name); err == nil && p != "" && keep(name) {
			kept = append(kept, p)
		}
	}
	return kept
}

// visitURLs are the URLs of redirects' destinations for the reader of a site: only what they see.
type visitURLs struct{ s *siteView }

func (u visitURLs) Section(_ context.Context, id string) (string, error) {
	for _, sec := range u.s.visit.Sections {
		if sec.ID == id {
			return u.s.sectionURL(sec), nil
		}
	}
	return "", nil
}

func (u visitURLs) SiteSpace(_ context.Context, id string) (string, error) {
	ss := u.s.siteSpaceByID(id)
	if ss == nil {
		return "", nil
	}
	return u.s.siteSpaceURL(u.s.sectionOf(ss), ss), nil
}

func (u visitURLs) Page(ctx context.Context, siteSpaceID, pageID string) (string, error) {
	ss := u.s.siteSpaceByID(siteSpaceID)
	if ss == nil {
		return "", nil
	}
	content, err := u.s.content(ctx, ss.SpaceID)
	if err != nil {
		return "", err
	}
	p := content.Tree.Page(pageID)
	if p == nil {
		return "", nil
	}
	return u.s.pageURL(location{Section: u.s.sectionOf(ss), SiteSpace: ss}, content.Tree, p), nil
}

// siteSpaceByID is the site space of the site the reader sees with this id, nil when they see none.
func (s *siteView) siteSpaceByID(id string) *ent.SiteSpace {
	for _, ss := range s.visit.SiteSpaces {
		if ss.ID == id {
			return ss
		}
	}
	return nil
}
