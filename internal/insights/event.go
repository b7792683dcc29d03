// Package insights records what readers do on published sites (page views, searches with their
// result counts, link clicks, page feedback, MCP tool calls) and answers aggregations of it, as
// the reference's site-insights operations do. Events are kept without personal data: no
// address, no user agent, only a visitor hash salted with a secret that changes every UTC day
// (visitors.go). Recording never writes in a reader's request: events wait in memory and a
// flusher writes them in batches, one insert per batch, with the daily counts aggregations read
// (recorder.go, aggregate.go).
package insights

import (
	"net"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The event types of the reference (SiteInsightsEventType).
var Types = []string{"page_view", "page_markdown_request", "search_open", "search_type_query", "search_open_result",
	"page_post_feedback", "page_post_feedback_comment", "agent_feedback", "ask_question", "ask_view", "ask_rate_response",
	"link_click", "api_client_open", "api_client_request", "ad_click", "ad_display", "trademark_click", "llms_request",
	"mcp_request", "rss_request"}

// The types Bindery's own pages and MCP server record.
const (
	PageView        = "page_view"
	SearchQuery     = "search_type_query"
	Feedback        = "page_post_feedback"
	FeedbackComment = "page_post_feedback_comment"
	LinkClick       = "link_click"
	MCPRequest      = "mcp_request"
)

// The display contexts of the reference (SiteInsightsDisplayContext).
var DisplayContexts = []string{"site", "server", "embed", "mcp"}

// Ratings are the page feedback ratings.
var Ratings = []string{"bad", "ok", "good"}

// LinkPositions are where a clicked link sits (the reference's SiteInsightsLinkPosition).
var LinkPositions = []string{"announcement", "header", "footer", "sidebar", "content"}

// Bounds of what one event keeps: longer values are cut (MaxComment is the reference's).
const (
	MaxComment = 512
	MaxLink    = 2048 // a clicked link's target
	maxQuery   = 512
	maxPath    = 2048
	maxValue   = 512 // a value of a daily count (SiteInsightRollup.value)
)

// Event is one reader's event on a site. The empty strings are details the event does not have.
type Event struct {
	SiteID         string
	Time           time.Time
	Type           string
	DisplayContext string // site when empty
	URLPath        string // the path inside the site, "/" for its root
	SpaceID        string
	PageID         string
	ReferrerDomain string
	SearchQuery    string
	SearchResults  *int // how many results the search found
	Rating         string
	Comment        string
	Link           string // where a clicked link leads
	LinkPosition   string
	Tool           string // the MCP tool called
	visitor        string // the day's visitor hash, made when the event is written
}

// Reader is who sent an event, as much as the visitor hash needs: their address and user agent
// are hashed with the day's salt and never kept; Untracked (DNT or Sec-GPC) makes no hash.
type Reader struct {
	Address   string
	UserAgent string
	Untracked bool
}

// ValidType reports whether t is one of the reference's event types.
func ValidType(t string) bool { return slices.Contains(Types, t) }

// normalized is e with its strings cut to what the tables keep and valid UTF-8.
func (e Event) normalized() Event {
	if e.DisplayContext == "" {
		e.DisplayContext = "site"
	}
	e.URLPath = cut(e.URLPath, maxPath)
	e.ReferrerDomain = cut(strings.ToLower(e.ReferrerDomain), 255)
	e.SearchQuery = cut(e.SearchQuery, maxQuery)
	e.Comment = cut(e.Comment, MaxComment)
	e.Link = cut(e.Link, MaxLink)
	return e
}

// cut is s made valid UTF-8 and cut to at most n bytes, on a rune boundary.
func cut(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// ReferrerDomain is the host of a referring URL, or "" when it is none or is host itself (a
// reader moving between the site's own pages).
func ReferrerDomain(referrer, host string) string {
	u, err := url.Parse(referrer)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	domain := strings.ToLower(u.Hostname())
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if strings.EqualFold(domain, host) {
		return ""
	}
	return domain
}

// NormalizeQuery is a search query as top searches count it: lower-cased, its spaces collapsed.
func NormalizeQuery(q string) string {
	return cut(strings.Join(strings.Fields(strings.ToLower(q)), " "), maxValue)
}

// Day is t's UTC day, in days since 1970-01-01.
func Day(t time.Time) int { return int(t.UTC().Unix() / 86400) }

// dayTime is the start of a Day.
func dayTime(day int) time.Time { return time.Unix(int64(day)*86400, 0).UTC() }
