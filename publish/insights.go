package publish

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/readcache"
)

// feedbackSegment ends the URL a page's feedback form posts to, clickSegment the one its script
// reports clicks on its outbound links to.
const (
	feedbackSegment = "~feedback"
	clickSegment    = "~click"
)

// maxFeedbackForm bounds the body of a feedback form: a rating and a comment of 512 characters;
// maxClickForm a click's: a link of 2,048 bytes and its position.
const (
	maxFeedbackForm = 8 << 10
	maxClickForm    = 8 << 10
)

// record records an event of the reader on the site, without waiting for the database (the
// recorder batches it), and has the read cache record it again for every reader it hands this
// answer to.
func (s *siteView) record(req *http.Request, e insights.Event) {
	rec := s.h.r.Insights
	if rec == nil {
		return
	}
	e.SiteID = s.visit.Site.ID
	again := func(ctx context.Context) { _ = rec.Record(insights.ReaderFrom(ctx), e) }
	again(req.Context())
	readcache.Repeat(req.Context(), again)
}

// recordView records a reader's view of a page, or of its Markdown.
func (s *siteView) recordView(req *http.Request, path string, loc location, p *tree.Page, markdown bool) {
	e := insights.Event{Type: insights.PageView, URLPath: "/" + strings.TrimSuffix(path, ".md"), SpaceID: loc.SiteSpace.SpaceID,
		PageID: p.ID, ReferrerDomain: insights.ReferrerDomain(req.Referer(), req.Host)}
	if markdown {
		e.Type = "page_markdown_request"
	}
	s.record(req, e)
}

// recordSearch records a search of the results page, with how many pages it found.
func (s *siteView) recordSearch(req *http.Request, query string, v *searchView) {
	if v.Problem != "" {
		return
	}
	n := len(v.Results)
	s.record(req, insights.Event{Type: insights.SearchQuery, URLPath: req.URL.Path, SearchQuery: query, SearchResults: &n})
}

// recordToolCall records a call of a tool of the site's MCP server.
func (s *siteView) recordToolCall(tool string) {
	rec := s.h.r.Insights
	if rec == nil {
		return
	}
	_ = rec.Record(insights.ReaderFrom(s.ctx), insights.Event{SiteID: s.visit.Site.ID, Type: insights.MCPRequest,
		DisplayContext: "mcp", URLPath: "/" + mcpPath, Tool: tool})
}

// servePost answers what a page posts: a click on one of its links, or its feedback form.
func (s *siteView) servePost(w http.ResponseWriter, req *http.Request, path string) {
	if page, ok := strings.CutSuffix(path, clickSegment); ok {
		s.serveClick(w, req, strings.TrimSuffix(page, "/"))
		return
	}
	s.serveFeedback(w, req, path)
}

// serveFeedback answers the feedback form of a page (POST <page URL>/~feedback): rating is bad,
// ok or good, comment optional, at most 512 characters. The form is a reader's, without cookies:
// it is taken only from a page of the site itself (Origin, else Referer), so that another site
// cannot post in readers' names. The answer is a page thanking the reader, with a link back.
func (s *siteView) serveFeedback(w http.ResponseWriter, req *http.Request, path string) {
	page, ok := strings.CutSuffix(path, feedbackSegment)
	if !ok {
		w.Header().Set("Allow", "GET, HEAD")
		s.feedbackAnswer(w, http.StatusMethodNotAllowed, "Method not allowed", "Only a page's feedback form may be sent here.", "")
		return
	}
	page = strings.TrimSuffix(page, "/")
	back := s.base + "/" + page
	if !s.sameOrigin(req) {
		s.feedbackAnswer(w, http.StatusForbidden, "Forbidden", "Feedback is taken only from the site's own pages.", back)
		return
	}
	e, err := s.postedPage(page)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	problem := feedbackOf(w, req, &e)
	if problem != "" {
		s.feedbackAnswer(w, http.StatusBadRequest, "Bad request", problem, back)
		return
	}
	if err := s.h.r.Insights.Record(insights.ReaderFrom(req.Context()), e.Event); errors.Is(err, insights.ErrTooMany) {
		s.feedbackAnswer(w, http.StatusTooManyRequests, "Too many requests", "Too much feedback came from your address: try again in a minute.", back)
		return
	}
	s.feedbackAnswer(w, 0, "Thank you", "Your feedback on “"+e.Title+"” was received.", back)
}

// serveClick records a reader's click on a link of a page leading out of the site (POST <page
// URL>/~click, which the page's script sends with navigator.sendBeacon): a form of href, the
// absolute http(s) URL the link leads to, and position, where it sits (content, header, sidebar,
// footer or announcement). Taken only from the site's own pages, as feedback. The answer is 204,
// or an error in JSON naming what is wrong.
func (s *siteView) serveClick(w http.ResponseWriter, req *http.Request, page string) {
	if !s.sameOrigin(req) {
		writeJSONError(w, http.StatusForbidden, "Clicks are taken only from the site's own pages.")
		return
	}
	e, err := s.postedPage(page)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	if problem := clickOf(w, req, &e); problem != "" {
		writeJSONError(w, http.StatusBadRequest, problem)
		return
	}
	if err := s.h.r.Insights.Record(insights.ReaderFrom(req.Context()), e.Event); errors.Is(err, insights.ErrTooMany) {
		writeJSONError(w, http.StatusTooManyRequests, err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// pageEvent is an event on a page of the site, with the page's title.
type pageEvent struct {
	insights.Event
	Title string
}

// postedPage is an event on the page at path, which a form or a click was posted from: its
// site, path, space and page; errPageNotFound when there is no such page.
func (s *siteView) postedPage(path string) (pageEvent, error) {
	loc, ok := s.locate(path)
	if !ok {
		return pageEvent{}, errPageNotFound
	}
	content, err := s.content(s.ctx, loc.SiteSpace.SpaceID)
	if err != nil {
		return pageEvent{}, err
	}
	p := s.findPage(loc, content.Tree)
	if p == nil {
		return pageEvent{}, errPageNotFound
	}
	return pageEvent{Event: insights.Event{SiteID: s.visit.Site.ID, URLPath: "/" + path, SpaceID: loc.SiteSpace.SpaceID, PageID: p.ID},
		Title: p.Title}, nil
}

// clickOf reads the click's form into e, or says what is wrong with it.
func clickOf(w http.ResponseWriter, req *http.Request, e *pageEvent) string {
	req.Body = http.MaxBytesReader(w, req.Body, maxClickForm)
	if err := req.ParseForm(); err != nil {
		return "The form could not be read: it must be URL-encoded and at most 8 KiB."
	}
	href, position := req.PostForm.Get("href"), req.PostForm.Get("position")
	u, err := url.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(href) > insights.MaxLink || !utf8.ValidString(href) {
		return "href: not an absolute http(s) URL of at most 2048 bytes."
	}
	if !slices.Contains(insights.LinkPositions, position) {
		return "position: not one of " + strings.Join(insights.LinkPositions, ", ") + "."
	}
	e.Type, e.Link, e.LinkPosition = insights.LinkClick, href, position
	return ""
}

// feedbackOf reads the feedback form into e, or says what is wrong with it.
func feedbackOf(w http.ResponseWriter, req *http.Request, e *pageEvent) string {
	req.Body = http.MaxBytesReader(w, req.Body, maxFeedbackForm)
	if err := req.ParseForm(); err != nil {
		return "The form could not be read: it must be at most 8 KiB."
	}
	e.Type, e.Rating = insights.Feedback, req.PostForm.Get("rating")
	if !slices.Contains(insights.Ratings, e.Rating) {
		return "Choose a rating: bad, ok or good."
	}
	comment := strings.TrimSpace(req.PostForm.Get("comment"))
	if !utf8.ValidString(comment) || utf8.RuneCountInString(comment) > insights.MaxComment {
		return "The comment must be text of at most 512 characters."
	}
	if comment != "" {
		e.Type, e.Comment = insights.FeedbackComment, comment
	}
	return ""
}

// sameOrigin reports whether a form was sent from a page of the site's origin: its Origin
// header, or, without one, its Referer.
func (s *siteView) sameOrigin(req *http.Request) bool {
	if origin := req.Header.Get("Origin"); origin != "" {
		return origin == s.origin
	}
	ref := req.Referer()
	return ref != "" && strings.HasPrefix(ref, s.origin+"/")
}

// feedbackAnswer answers the form with a page saying what happened, linking back to the page.
func (s *siteView) feedbackAnswer(w http.ResponseWriter, status int, title, detail, back string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(max(status, http.StatusOK))
	_ = pages.ExecuteTemplate(w, "error.html", errorView{Status: status, Text: title, Detail: detail, Back: back})
}
