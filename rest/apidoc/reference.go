package apidoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// reference is the part of the reference document the server's routes use: their operations by
// path template and method, the components those reach, and the tags.
type reference struct {
	Paths      map[string]map[string]map[string]any `json:"paths"`
	Components map[string]map[string]any            `json:"components"`
	Tags       []map[string]any                     `json:"tags"`
}

func loadReference(data []byte) (*reference, error) {
	var ref reference
	if err := json.Unmarshal(data, &ref); err != nil {
		return nil, fmt.Errorf("apidoc: the reference document: %w", err)
	}
	return &ref, nil
}

// operation is the reference's operation of r and its path template: the template whose
// segments match the pattern's (a parameter for a parameter, the same literal for a literal).
func (ref *reference) operation(r Route) (string, map[string]any, bool) {
	segs := strings.Split(r.Pattern, "/")
	for tmpl, item := range ref.Paths {
		op, ok := item[strings.ToLower(r.Method)]
		if ok && sameShape(segs, strings.Split(tmpl, "/")) {
			return tmpl, op, true
		}
	}
	return "", nil, false
}

func sameShape(pattern, tmpl []string) bool {
	return slices.EqualFunc(pattern, tmpl, func(a, b string) bool {
		return a == b || isParam(a) && isParam(b)
	})
}

// tagList is the reference's tag objects of the tags used, in its order, then the others by name.
func (ref *reference) tagList(used map[string]bool) []any {
	var list []any
	known := map[string]bool{}
	for _, t := range ref.Tags {
		name, _ := t["name"].(string)
		known[name] = true
		if used[name] {
			list = append(list, t)
		}
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range used {
			if !known[n] && !yield(n) {
				return
			}
		}
	}) {
		list = append(list, map[string]any{"name": name})
	}
	return list
}

// Extract is the reference document (doc, the reference client's openapi.json) reduced to what
// routes use: their operations, every component those reach through $refs, and the tags; as
// indented JSON, keys sorted, so that generating it again gives the same bytes.
func Extract(doc []byte, routes []Route) ([]byte, error) {
	var full reference
	if err := json.Unmarshal(doc, &full); err != nil {
		return nil, fmt.Errorf("apidoc: the reference document: %w", err)
	}
	out := reference{Paths: map[string]map[string]map[string]any{}, Components: map[string]map[string]any{}, Tags: full.Tags}
	for _, r := range routes {
		if tmpl, op, ok := full.operation(r); ok {
			if out.Paths[tmpl] == nil {
				out.Paths[tmpl] = map[string]map[string]any{}
			}
			out.Paths[tmpl][strings.ToLower(r.Method)] = op
		}
	}
	if err := out.copyReached(&full, out.Paths); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	err := enc.Encode(out)
	return buf.Bytes(), err
}

// copyReached copies into ref.Components every component of full that v reaches through $refs,
// and those they reach.
func (ref *reference) copyReached(full *reference, v any) error {
	for _, target := range refsIn(v) {
		kind, name, ok := componentOf(target)
		if !ok {
			return fmt.Errorf("apidoc: the reference has a $ref this extract cannot follow: %q", target)
		}
		if _, done := ref.Components[kind][name]; done {
			continue
		}
		c, ok := full.Components[kind][name]
		if !ok {
			return fmt.Errorf("apidoc: the reference's $ref %q names nothing", target)
		}
		if ref.Components[kind] == nil {
			ref.Components[kind] = map[string]any{}
		}
		ref.Components[kind][name] = c
		if err := ref.copyReached(full, c); err != nil {
			return err
		}
	}
	return nil
}

// componentOf splits "#/components/schemas/Space" into its kind and name.
func componentOf(ref string) (kind, name string, ok bool) {
	rest, ok := strings.CutPrefix(ref, "#/components/")
	if !ok {
		return "", "", false
	}
	kind, name, ok = strings.Cut(rest, "/")
	return kind, name, ok && !strings.Contains(name, "/")
}

// refsIn lists the $ref values found anywhere in v.
func refsIn(v any) []string {
	var refs []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if r, ok := v["$ref"].(string); ok {
				refs = append(refs, r)
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]map[string]map[string]any:
			for _, x := range v {
				for _, op := range x {
					walk(op)
				}
			}
		}
	}
	walk(v)
	return refs
}
