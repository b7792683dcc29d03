// Package links says what the links of a stored page body point to and whether they work: a page
// of the revision (with an anchor or not), a file, a space, or a URL. Data in, data out: the caller
// says what exists.
//
// Stored bodies link pages as "/pages/<id>" and files as "/files/<id>" (authoring resolves every
// link to those forms), and spaces as "/spaces/<id>". Any other destination is a URL: an absolute
// one ("https://…", "mailto:…", "//host/…"), a path on this server ("/o/…"), or a relative path,
// which a stored body keeps only when it named nothing.
package links

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/binderyhq/bindery/internal/content/markdown"
)

// Kind is what a link points to.
type Kind string

// The kinds of link targets.
const (
	Page  Kind = "page"
	File  Kind = "file"
	Space Kind = "space"
	URL   Kind = "url"
)

// MaxRefLen is the longest id a page, file or space link may name (ids are 20 characters); a
// longer "/pages/…" is not an id and is kept as a URL, so stored refs stay short enough to index.
const MaxRefLen = 100

// Target is what a link points to: a page (and an anchor in it), a file or a space by id, or a URL
// as written in the Markdown.
type Target struct {
	Kind   Kind
	Ref    string // the page, file or space id, or the URL
	Anchor string // the anchor of a page link, without "#"; "" for none
}

// ID is the target's identity among targets of its kind: its ref, and "#anchor" for a page anchor.
func (t Target) ID() string {
	if t.Anchor != "" {
		return t.Ref + "#" + t.Anchor
	}
	return t.Ref
}

// Extract returns the distinct targets of a stored page body's links and images, in order of
// first appearance. Links inside code are not links; a link to a place on the same page ("#x")
// or with an empty destination points nowhere else and is left out, and so are link reference
// definitions (the links that use them are counted).
func Extract(body string) []Target {
	var out []Target
	seen := map[Target]bool{}
	for _, l := range markdown.Links(body) {
		if l.Kind == markdown.Definition {
			continue
		}
		t, ok := parse(l)
		if ok && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// emailAutolink matches the address of an email autolink ("<a@b.co>"), written without a scheme.
var emailAutolink = regexp.MustCompile(`^[^:/]+@[^/]+$`)

// parse returns the target of one link; ok is false when it points nowhere else.
func parse(l markdown.Link) (Target, bool) {
	if l.Kind == markdown.Autolink && emailAutolink.MatchString(l.Dest) {
		return Target{Kind: URL, Ref: "mailto:" + l.Dest}, true
	}
	return Parse(l.Dest)
}

// Parse returns the target of a link destination as written in a stored body; ok is false for
// "" and "#anchor", which point nowhere else.
func Parse(dest string) (Target, bool) {
	if dest == "" || dest[0] == '#' {
		return Target{}, false
	}
	for _, k := range []Kind{Page, File, Space} {
		if rest, ok := strings.CutPrefix(dest, "/"+string(k)+"s/"); ok {
			if t, ok := idTarget(k, rest); ok {
				return t, true
			}
		}
	}
	return Target{Kind: URL, Ref: clean(dest)}, true
}

// clean makes text storable in any database: valid UTF-8 without NUL (PostgreSQL text holds
// neither invalid sequences nor NUL; a body may, being bytes).
func clean(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// idTarget is the target of "/<kind>s/<rest>": the id up to "/", "?" or "#", unescaped, and the
// anchor of a page. ok is false when the id is empty, too long or not text (not an id).
func idTarget(k Kind, rest string) (Target, bool) {
	id, tail := rest, ""
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		id, tail = rest[:i], rest[i:]
	}
	if u, err := url.PathUnescape(id); err == nil {
		id = u
	}
	if id == "" || len(id) > MaxRefLen || clean(id) != id {
		return Target{}, false
	}
	t := Target{Kind: k, Ref: id}
	if _, anchor, ok := strings.Cut(tail, "#"); ok && k == Page {
		t.Anchor = clean(anchor)
	}
	return t, true
}
