package publish

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/readcache"
)

// feedbackSegment ends the URL a page's feedback form posts to.
const feedbackSegment = "~feedback"

// maxFeedbackForm bounds the body of a feedback form: a rating and a comment of 512 characters.
const maxFeedbackForm = 8 << 10

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
	loc, ok := s.locate(page)
	var p *tree.Page
	if ok {
		content, err := s.content(s.ctx, loc.SiteSpace.SpaceID)
		if err != nil {
			s.h.fail(w, req, err)
			return
		}
		p = s.findPage(loc, content.Tree)
	}
	if p == nil {
		s.h.fail(w, req, errPageNotFound)
		return
	}
	e, problem := feedbackEvent(w, req)
	if problem != "" {
		s.feedbackAnswer(w, http.StatusBadRequest, "Bad request", problem, back)
		return
	}
	e.SiteID, e.URLPath, e.SpaceID, e.PageID = s.visit.Site.ID, "/"+page, loc.SiteSpace.SpaceID, p.ID
	if err := s.h.r.Insights.Record(insights.ReaderFrom(req.Context()), e); errors.Is(err, insights.ErrTooMany) {
		s.feedbackAnswer(w, http.StatusTooManyRequests, "Too many requests", "Too much feedback came from your address: try again in a minute.", back)
		return
	}
	s.feedbackAnswer(w, 0, "Thank you", "Your feedback on “"+p.Title+"” was received.", back)
}

// feedbackEvent reads the form, or says what is wrong with it.
func feedbackEvent(w http.ResponseWriter, req *http.Request) (insights.Event, string) {
	req.Body = http.MaxBytesReader(w, req.Body, maxFeedbackForm)
	if err := req.ParseForm(); err != nil {
		return insights.Event{}, "The form could not be read: it must be at most 8 KiB."
	}
	e := insights.Event{Type: insights.Feedback, Rating: req.PostForm.Get("rating")}
	switch e.Rating {
	case "bad", "ok", "good":
	default:
		return e, "Choose a rating: bad, ok or good."
	}
	comment := strings.TrimSpace(req.PostForm.Get("comment"))
	if !utf8.ValidString(comment) || utf8.RuneCountInString(comment) > insights.MaxComment {
		return e, "The comment must be text of at most 512 characters."
	}
	if comment != "" {
		e.Type, e.Comment = insights.FeedbackComment, comment
	}
	return e, ""
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
