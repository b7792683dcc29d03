// Package importer turns content from outside — a crawled website, uploaded Markdown files — into
// pages and files of a revision: pages nested by their URL or file path, links between imported
// pages rewritten to "/pages/<id>", links to imported files (images) to "/files/<id>". It is
// pure: the fetching is done by its callers.
package importer

import (
	"net/url"
	"path"
	"strings"
)

// Site is content to import.
type Site struct {
	// Pages in order: siblings keep this order, and a page's parent is the nearest page whose
	// path is a proper prefix of its own (the root path "/" is never a parent: a site's home
	// page is a sibling of its sections).
	Pages []Page
	Files []File
}

// Page is a document to import.
type Page struct {
	// Location is where links name the page: its URL, or "file:///dir/name.md" for an upload.
	// Relative links of its Markdown resolve against it.
	Location *url.URL
	Title    string // used when the Markdown has no title of its own
	Markdown string
}

// File is a file to import (an image a page shows).
type File struct {
	Location    *url.URL // where links name it
	Name        string
	ContentType string
	Data        []byte
}

// PageKey is how links find a page: host and path, without query and fragment, and without
// what only spells the same page differently — a trailing "/", "index.html", "README.md", a ".md"
// or ".html" extension. http and https name the same page.
func PageKey(u *url.URL) string {
	p := strings.TrimSuffix(path.Clean("/"+u.Path), "/")
	base := path.Base(p)
	switch strings.ToLower(base) {
	case "index.html", "index.htm", "readme.md", "index.md":
		p = strings.TrimSuffix(path.Dir(p), "/")
	default:
		for _, ext := range []string{".md", ".markdown", ".html", ".htm"} {
			if strings.HasSuffix(strings.ToLower(base), ext) {
				p = p[:len(p)-len(ext)]
				break
			}
		}
	}
	return strings.ToLower(u.Host) + p
}

// FileKey is how links find a file: its URL without the fragment (a query may choose another
// image), http and https alike.
func FileKey(u *url.URL) string {
	c := *u
	c.Scheme, c.Fragment, c.RawFragment, c.Host = "", "", "", strings.ToLower(u.Host)
	return c.String()
}

// segments splits a page key's path into its parts ("guide", "install"); none for the root.
func segments(key string) []string {
	_, p, _ := strings.Cut(key, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}
