package publish

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/binderyhq/bindery/ent"
)

// cachedPages is how many rendered pages a process keeps.
const cachedPages = 2048

// newPageCache returns the cache of rendered pages, by ETag.
func newPageCache() *lru.Cache[string, []byte] {
	c, _ := lru.New[string, []byte](cachedPages)
	return c
}

// etag names what a response shows: the site and where its URLs start, the structure the reader
// sees (rows change their updated time when they change), the revision read and the pages the
// reader's claims hide in it, the customization's version and the path.
// A merge makes a new revision and a customization change a new version, so the next request
// gets a new tag.
func (s *siteView) etag(revisionID, path string, l *look) string {
	h := sha256.New()
	site := s.visit.Site
	fmt.Fprintf(h, "%s %d %s %s\n", site.ID, site.UpdatedAt.UnixMicro(), s.origin, s.base)
	for _, sec := range s.visit.Sections {
		fmt.Fprintf(h, "%s %d\n", sec.ID, sec.UpdatedAt.UnixMicro())
	}
	for _, ss := range s.visit.SiteSpaces {
		fmt.Fprintf(h, "%s %d %s\n", ss.ID, ss.UpdatedAt.UnixMicro(), spaceTitle(ss.Edges.Space))
	}
	fmt.Fprintf(h, "%s %s %s %s", revisionID, s.hidden[revisionID].key, l.version, path)
	return `"` + base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:18]) + `"`
}

func spaceTitle(sp *ent.Space) string {
	if sp == nil {
		return ""
	}
	return sp.Title
}

// notModified sets the caching headers of a response with this tag, and answers 304 when the
// reader already holds it.
func (s *siteView) notModified(w http.ResponseWriter, req *http.Request, tag string) bool {
	w.Header().Set("ETag", tag)
	s.setCacheControl(w)
	for _, t := range strings.Split(req.Header.Get("If-None-Match"), ",") {
		if strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "W/")) == tag {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
	}
	return false
}

// setCacheControl says who may keep an answer: anyone for a site anyone reads, the reader only
// for the others.
func (s *siteView) setCacheControl(w http.ResponseWriter) {
	if s.publicAudience() {
		w.Header().Set("Cache-Control", "public, max-age=60")
	} else {
		w.Header().Set("Cache-Control", "private, no-cache")
	}
}

// rendered returns the page cached under tag, or renders it with render and keeps it. Pages are
// bytes: the response writes bytes it is given at once, and copies a string through its buffer.
func (h *Handler) rendered(tag string, render func(*bytes.Buffer) error) ([]byte, error) {
	if page, ok := h.pages.Get(tag); ok {
		return page, nil
	}
	var b bytes.Buffer
	if err := render(&b); err != nil {
		return nil, err
	}
	h.pages.Add(tag, b.Bytes())
	return b.Bytes(), nil
}
