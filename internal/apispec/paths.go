package apispec

import (
	"fmt"
	"sort"
	"strings"
)

// route is one path template of the spec, split into segments.
type route struct {
	template string
	segs     []string
	literals int
}

// buildRoutes collects the path templates of doc, sorted for stable matching.
func buildRoutes(doc any) ([]route, error) {
	paths, ok := lookup(doc, "paths")
	if !ok {
		return nil, fmt.Errorf("document has no paths object")
	}
	routes := make([]route, 0, len(paths))
	for tmpl := range paths {
		segs := splitPath(tmpl)
		n := 0
		for _, seg := range segs {
			if !isParam(seg) {
				n++
			}
		}
		routes = append(routes, route{template: tmpl, segs: segs, literals: n})
	}
	sort.Slice(routes, func(i, j int) bool { return routes[i].template < routes[j].template })
	return routes, nil
}

// splitPath splits a slash-separated path into its non-empty segments.
func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
}

// isParam reports whether a template segment is a whole "{name}" parameter.
func isParam(seg string) bool {
	return len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}'
}

// specPath converts a concrete request path to the spec's /v1-relative form,
// dropping any query string or fragment.
func specPath(p string) string {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if p == "/v1" || strings.HasPrefix(p, "/v1/") {
		p = p[len("/v1"):]
	}
	return p
}

// matches reports whether the concrete path segments fit the template,
// one segment per parameter.
func (r route) matches(segs []string) bool {
	if len(segs) != len(r.segs) {
		return false
	}
	for i, seg := range r.segs {
		if !isParam(seg) && seg != segs[i] {
			return false
		}
	}
	return true
}

// moreSpecific reports whether r should win over o: more literal segments,
// then a literal at the first position where the two differ in kind.
func (r route) moreSpecific(o route) bool {
	if r.literals != o.literals {
		return r.literals > o.literals
	}
	for i := range r.segs {
		if a, b := isParam(r.segs[i]), isParam(o.segs[i]); a != b {
			return b
		}
	}
	return false
}

// Match returns the spec path template (relative to /v1) that a concrete
// request path such as "/v1/orgs/o1/members/u1" resolves to.
func (s *Spec) Match(path string) (string, bool) {
	segs := splitPath(specPath(path))
	var best *route
	for i := range s.routes {
		r := &s.routes[i]
		if r.matches(segs) && (best == nil || r.moreSpecific(*best)) {
			best = r
		}
	}
	if best == nil {
		return "", false
	}
	return best.template, true
}
