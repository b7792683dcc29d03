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
func refDest(data map[string]any) (dest string, ok bool) {
	ref, _ := data["ref"].(map[string]any)
	kind := str(ref, "kind")
	switch kind {
	case "url":
		_, ok := ref["url"].(string)
		return str(ref, "url"), ok
	case "anchor":
		dest = "#" + str(ref, "anchor")
		if page := str(ref, "page"); page != "" {
			dest = "/pages/" + url.PathEscape(page) + dest
		}
		return dest, str(ref, "anchor") != ""
	case "page", "file", "space":
		id := str(ref, kind)
		return "/" + kind + "s/" + url.PathEscape(id), id != ""
	}
	return "", false
}
