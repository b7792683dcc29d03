package sites

import (
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Location is where a path of a published site leads: a section (nil for a site without
// sections), one of its site spaces, and the rest of the path inside that space.
type Location struct {
	Section   *ent.SiteSection
	SiteSpace *ent.SiteSpace
	PagePath  string
}

// Locate splits a path of the site into section, site space and page path: a segment naming a
// section or a site space that is not the default picks it; otherwise the default one is meant.
// It reports false when the section reached shows the reader no site space.
func (v *Visit) Locate(path string) (Location, bool) {
	var loc Location
	head, rest := firstSegment(path)
	if len(v.Sections) > 0 {
		loc.Section = pick(v.Sections, head, func(x *ent.SiteSection) (string, bool) { return x.Path, x.IsDefault })
		if loc.Section.Path == head && !loc.Section.IsDefault {
			head, rest = firstSegment(rest)
		}
	}
	siteSpaces := v.SiteSpacesOf(SectionID(loc.Section))
	if len(siteSpaces) == 0 {
		return loc, false
	}
	loc.SiteSpace = pick(siteSpaces, head, func(x *ent.SiteSpace) (string, bool) { return x.Path, x.IsDefault })
	if loc.SiteSpace.Path == head && !loc.SiteSpace.IsDefault {
		head, rest = firstSegment(rest)
	}
	loc.PagePath = strings.Trim(head+"/"+rest, "/")
	return loc, true
}

// BasePath is the path of the location's site space below the site's root, ending in "/": ""
// for the default section's default site space.
func (l Location) BasePath() string {
	base := SectionBasePath(l.Section)
	if !l.SiteSpace.IsDefault {
		base += l.SiteSpace.Path + "/"
	}
	return base
}

// SectionBasePath is the path of a section below the site's root, ending in "/": "" for the
// default section, or none.
func SectionBasePath(sec *ent.SiteSection) string {
	if sec == nil || sec.IsDefault {
		return ""
	}
	return sec.Path + "/"
}

// LocationOf is the location of the root of a site space the reader sees; the zero Location
// (nil SiteSpace) when they see none of that id.
func (v *Visit) LocationOf(siteSpaceID string) Location {
	for _, ss := range v.SiteSpaces {
		if ss.ID != siteSpaceID {
			continue
		}
		loc := Location{SiteSpace: ss}
		for _, sec := range v.Sections {
			if ss.SectionID != nil && *ss.SectionID == sec.ID {
				loc.Section = sec
			}
		}
		return loc
	}
	return Location{}
}

// PageIn returns the page at the location's page path in t, the first page of a group at it;
// landing gives the page of an empty path (the site space's landing page). Nil for none.
func (l Location) PageIn(t *tree.Tree, landing func() *tree.Page) *tree.Page {
	if l.PagePath == "" {
		return landing()
	}
	p := t.ByPath(l.PagePath)
	for p != nil && p.Type == tree.TypeGroup {
		kids := t.Children(p.ID)
		if len(kids) == 0 {
			return nil
		}
		p = kids[0]
	}
	return p
}

// Landing is the page readers land on in site space ss showing t: its home page when that is a
// document of t (decision 178), else first (the space's first document, FirstDocument).
func Landing(ss *ent.SiteSpace, t *tree.Tree, first func() *tree.Page) *tree.Page {
	if ss.PageID != nil {
		if p := t.Page(*ss.PageID); p != nil && p.Type == tree.TypeDocument {
			return p
		}
	}
	return first()
}

// FirstDocument is the first page with content in tree order: the space's landing page.
func FirstDocument(t *tree.Tree) *tree.Page { return FirstDocumentUnder(t, "") }

// FirstDocumentUnder is the first page with content below parent in tree order (a page, then the
// pages under it). It stops there: a redirect's URL is made per request, and walking a whole
// 10,000-page tree to find the landing page cost five times the page itself.
func FirstDocumentUnder(t *tree.Tree, parent string) *tree.Page {
	for _, p := range t.Children(parent) {
		if p.Type == tree.TypeDocument && !p.Hidden {
			return p
		}
		if first := FirstDocumentUnder(t, p.ID); first != nil {
			return first
		}
	}
	return nil
}

// pick returns the item whose path is segment, else the default item, else the first.
func pick[T any](items []T, segment string, pathOf func(T) (string, bool)) T {
	for _, it := range items {
		if p, _ := pathOf(it); p == segment {
			return it
		}
	}
	for _, it := range items {
		if _, isDefault := pathOf(it); isDefault {
			return it
		}
	}
	return items[0]
}

func firstSegment(path string) (head, rest string) {
	head, rest, _ = strings.Cut(strings.Trim(path, "/"), "/")
	return head, rest
}

// SectionID is a section's id, "" for none.
func SectionID(sec *ent.SiteSection) string {
	if sec == nil {
		return ""
	}
	return sec.ID
}
