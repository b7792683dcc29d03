package document

import (
	"net/url"

	"github.com/binderyhq/bindery/internal/content/links"
)

// A reference (the reference's ContentRef) is written in Markdown as Bindery stores links: a page
// as "/pages/<id>", with "#anchor" for an anchor in it, an anchor of the same page as "#anchor", a
// file as "/files/<id>", a space as "/spaces/<id>", anything else as the URL.

// refFromDest returns the reference of a link destination as written in a stored body.
func refFromDest(dest string) map[string]any {
	if anchor, ok := cutAnchor(dest); ok {
		return map[string]any{"kind": "anchor", "anchor": anchor}
	}
	t, ok := links.Parse(dest)
	switch {
	case !ok || t.Kind == links.URL:
		return map[string]any{"kind": "url", "url": dest}
	case t.Kind == links.Page && t.Anchor != "":
		return map[string]any{"kind": "anchor", "anchor": t.Anchor, "page": t.Ref}
	case t.Kind == links.Page:
		return map[string]any{"kind": "page", "page": t.Ref} // constant keys and kinds: no copies to make
	case t.Kind == links.File:
		return map[string]any{"kind": "file", "file": t.Ref}
	default:
		return map[string]any{"kind": string(t.Kind), string(t.Kind): t.Ref}
	}
}

func cutAnchor(dest string) (string, bool) {
	if len(dest) > 1 && dest[0] == '#' {
		return dest[1:], true
	}
	return "", false
}

// refKind is the kind of data's ref, "" when it has none.
func refKind(data map[string]any) string {
	ref, _ := data["ref"].(map[string]any)
	return str(ref, "kind")
}

// refDest returns the link destination of data's ref; ok is false when it has none Markdown can
// write.
func refDest(data map[string]any) (dest string, ok bool) { return RefOf(data).Dest() }

// Ref is what a node's data.ref points at, as a comparable value: a key for what its destination
// leads to, read without writing the destination.
type Ref struct {
	Kind   string // "url", "anchor", "page", "file", "space" (or another kind, which has no destination)
	Target string // the URL, the anchor, or the page's, file's or space's id
	Page   string // an anchor's page, "" for one of the same page
	given  bool   // the ref has its target (a URL may be empty)
}

// RefOf is data's ref.
func RefOf(data map[string]any) Ref {
	ref, _ := data["ref"].(map[string]any)
	r := Ref{Kind: str(ref, "kind")}
	switch r.Kind {
	case "url", "anchor", "page", "file", "space":
		r.Target, r.given = ref[r.Kind].(string)
	}
	if r.Kind == "anchor" {
		r.Page = str(ref, "page")
	}
	return r
}

// Dest is the link destination of the ref, written as a stored body writes it; ok is false when
// it has none Markdown can write.
func (r Ref) Dest() (dest string, ok bool) {
	switch r.Kind {
	case "url":
		return r.Target, r.given
	case "anchor":
		dest = "#" + r.Target
		if r.Page != "" {
			dest = "/pages/" + url.PathEscape(r.Page) + dest
		}
		return dest, r.Target != ""
	case "page", "file", "space":
		return "/" + r.Kind + "s/" + url.PathEscape(r.Target), r.Target != ""
	}
	return "", false
}
