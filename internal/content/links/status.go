package links

import (
	"net/url"
	"strings"
)

// Status says whether a link works.
type Status string

// The statuses of a link (the reference's spelling).
const (
	OK     Status = "ok"     // the page, file or space exists, or the URL is elsewhere
	Broken Status = "broken" // the page, file or space does not exist (or cannot be read), or a relative path names nothing
	InApp  Status = "in-app" // a URL pointing into this server's app instead of at content by id
)

// Checker decides the statuses of links where they are read.
type Checker struct {
	// Exists reports whether the page, file or space a target names exists for the reader.
	Exists func(Target) bool
	// App is this server's base URL ("https://docs.example.com"): URLs under it point into the app.
	App string
}

// Status returns the status of a link to t.
func (c Checker) Status(t Target) Status {
	if t.Kind != URL {
		if c.Exists(t) {
			return OK
		}
		return Broken
	}
	return c.urlStatus(t.Ref)
}

// urlStatus: a path on this server or a URL on its host is in the app; another absolute URL is
// elsewhere, and a relative path left in a stored body is one authoring could not resolve.
func (c Checker) urlStatus(ref string) Status {
	if strings.HasPrefix(ref, "/") && !strings.HasPrefix(ref, "//") {
		return InApp
	}
	u, err := url.Parse(ref)
	if err != nil || (u.Scheme == "" && u.Host == "") {
		if hasScheme(ref) { // an absolute URL Go cannot parse is still elsewhere
			return OK
		}
		return Broken
	}
	if app, err := url.Parse(c.App); err == nil && app.Host != "" &&
		strings.EqualFold(u.Host, app.Host) && (u.Scheme == "" || strings.EqualFold(u.Scheme, app.Scheme)) {
		return InApp
	}
	return OK
}

// hasScheme reports whether ref starts with a URL scheme ("https:", "mailto:"), as RFC 3986 spells it.
func hasScheme(ref string) bool {
	i := strings.IndexByte(ref, ':')
	if i <= 0 {
		return false
	}
	for j, c := range ref[:i] {
		letter := 'a' <= c|0x20 && c|0x20 <= 'z'
		if !letter && (j == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// Checked is a link target with its status.
type Checked struct {
	Target
	Status Status
}

// Check returns the statuses of targets, in their order.
func (c Checker) Check(targets []Target) []Checked {
	out := make([]Checked, len(targets))
	for i, t := range targets {
		out[i] = Checked{t, c.Status(t)}
	}
	return out
}

// Stats counts the links of a list.
type Stats struct {
	Total  int
	Broken int
	// BrokenIntroduced counts the broken links a change request introduced (see Introduced).
	BrokenIntroduced int
}

// Count returns the total and broken counts of links; BrokenIntroduced is left to Introduced.
func Count(links []Checked) Stats {
	s := Stats{Total: len(links)}
	for _, l := range links {
		if l.Status == Broken {
			s.Broken++
		}
	}
	return s
}

// Introduced counts the links broken now that were absent or not broken before: the broken links
// a change introduced, before being the same place's links in the change's base.
func Introduced(now, before []Checked) int {
	brokenBefore := make(map[Target]bool, len(before))
	for _, l := range before {
		brokenBefore[l.Target] = l.Status == Broken
	}
	n := 0
	for _, l := range now {
		if l.Status == Broken && !brokenBefore[l.Target] {
			n++
		}
	}
	return n
}
