// Package sitecustom validates and combines the customization settings of docs sites (the
// reference's SiteCustomizationSettings): what a site sets (a PUT replaces it whole), what a site
// space overrides (a PATCH sets or clears single fields), and what a reader is answered: defaults,
// then the site's settings, then the site space's override. Stored settings are sparse: the
// fields given, as given (fields this package does not know are dropped).
package sitecustom

import (
	"slices"
	"strconv"
)

// node is a field of the settings: a group, whose fields are set and overridden one by one, or a
// leaf, whose value is set and overridden whole.
type node struct {
	fields   map[string]*node // a group's fields
	check    check            // a leaf's check
	def      any              // a leaf's default; nil for none (the field is then absent)
	override bool             // whether a site space may override the leaf
	nullable bool             // whether the site's settings may set the leaf to null (unset)
}

func group(fields map[string]*node) *node { return &node{fields: fields} }
func leaf(c check) *node                  { return &node{check: c} }

// or sets a leaf's default.
func (n *node) or(def any) *node { n.def = def; return n }

// over lets site spaces override a leaf.
func (n *node) over() *node { n.override = true; return n }

// overridable reports whether a site space may override the field, or one of a group's fields.
func (n *node) overridable() bool {
	if n.fields == nil {
		return n.override
	}
	for _, f := range n.fields {
		if f.overridable() {
			return true
		}
	}
	return false
}

// Parse validates a site's settings and returns what they set. A field that is absent (or, for
// headingFont, null) takes its default when read. Returns an *Error naming the JSON path.
func Parse(raw map[string]any) (map[string]any, error) { return settings.parse("", raw, false) }

// ParseOverride validates a site space's override of its site's settings: only the fields a site
// space may override are kept (the reference's overrideSiteSpaceCustomizationById body); null
// clears a field's override. Returns an *Error naming the JSON path.
func ParseOverride(raw map[string]any) (map[string]any, error) { return settings.parse("", raw, true) }

func (n *node) parse(p string, m map[string]any, override bool) (map[string]any, error) {
	out := map[string]any{}
	for _, name := range sortedKeys(n.fields) {
		f := n.fields[name]
		v, given := m[name]
		if !given || override && !f.overridable() {
			continue
		}
		if f.fields != nil {
			sub, ok := v.(map[string]any)
			if !ok {
				return nil, errorf(at(p, name), "must be an object (got %s)", kind(v))
			}
			got, err := f.parse(at(p, name), sub, override)
			if err != nil {
				return nil, err
			}
			if len(got) > 0 {
				out[name] = got
			}
			continue
		}
		if v == nil && override {
			out[name] = nil
			continue
		}
		if v == nil && f.nullable {
			continue
		}
		got, err := f.check(at(p, name), v)
		if err != nil {
			return nil, err
		}
		out[name] = got
	}
	return out, nil
}

// ApplyOverride returns a site space's override after a patch from ParseOverride: fields given
// are set, null ones cleared.
func ApplyOverride(current, patch map[string]any) map[string]any {
	cur, _ := clone(current).(map[string]any)
	return settings.merge(cur, patch)
}

// merge sets src's fields on dst, group by group; a null leaf of src removes dst's, and a group
// left empty goes too.
func (n *node) merge(dst, src map[string]any) map[string]any {
	if dst == nil {
		dst = map[string]any{}
	}
	for name, v := range src {
		f := n.fields[name]
		switch {
		case f == nil:
		case f.fields != nil:
			sub, _ := v.(map[string]any)
			merged, _ := dst[name].(map[string]any)
			if merged = f.merge(merged, sub); len(merged) == 0 {
				delete(dst, name)
			} else {
				dst[name] = merged
			}
		case v == nil:
			delete(dst, name)
		default:
			dst[name] = clone(v)
		}
	}
	return dst
}

// Effective returns the settings a reader is answered: the defaults, with each layer's fields set
// over them in turn (the site's settings, then a site space's override).
func Effective(layers ...map[string]any) map[string]any {
	out := settings.defaults()
	for _, l := range layers {
		settings.fill(out, l)
	}
	return out
}

// fill sets src's fields on dst, which holds every group (defaults).
func (n *node) fill(dst, src map[string]any) {
	for name, v := range src {
		f := n.fields[name]
		switch {
		case f == nil || v == nil:
		case f.fields != nil:
			sub, _ := v.(map[string]any)
			f.fill(dst[name].(map[string]any), sub)
		default:
			dst[name] = clone(v)
		}
	}
}

// defaults returns the settings of a site that set nothing: every group, every leaf's default.
func (n *node) defaults() map[string]any {
	out := make(map[string]any, len(n.fields))
	for name, f := range n.fields {
		switch {
		case f.fields != nil:
			out[name] = f.defaults()
		case f.def != nil:
			out[name] = clone(f.def)
		}
	}
	return out
}

// Public returns settings without what only a site's managers may read (the AI assistant's
// instructions: the reference never shows them on the published site).
func Public(s map[string]any) map[string]any {
	s = clone(s).(map[string]any)
	if ai, ok := s["ai"].(map[string]any); ok {
		delete(ai, "instructions")
	}
	return s
}

// Condition is a visitor condition written in settings: where, and the expression.
type Condition struct {
	Path string
	Expr string
}

// Conditions lists the conditions of settings (those of header links), so they can be checked
// against the site's adaptive schema.
func Conditions(s map[string]any) []Condition {
	header, _ := s["header"].(map[string]any)
	links, _ := header["links"].([]any)
	var out []Condition
	for i, l := range links {
		item, _ := l.(map[string]any)
		if expr, ok := item["condition"].(string); ok && expr != "" {
			out = append(out, Condition{Path: "header.links[" + strconv.Itoa(i) + "].condition", Expr: expr})
		}
	}
	return out
}

// clone deep-copies a JSON value, so stored defaults and layers are never shared.
func clone(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = clone(e)
		}
		return out
	case []any:
		out := slices.Clone(t)
		for i, e := range out {
			out[i] = clone(e)
		}
		return out
	}
	return v
}
