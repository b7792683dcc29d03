package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v4"
)

// How a document is read into kin-openapi's model (decision 280). kin-openapi decodes a document
// in one of two ways: from JSON, where the UnmarshalJSON of each level of its types decodes all the
// bytes below it twice, into the struct and into a map of extensions (a 5 MB document: 10 times
// the cost of reading it once), or from a YAML node tree, where each level reads only its own
// node (3 times cheaper). It builds that tree with yaml/v4's parser, which is quadratic on a large
// flow collection (every JSON document). So the document is read once by our parser (JSON with
// encoding/json, YAML with yaml/v4) into a generic value, and each path and each component is
// written as a node tree that kin-openapi decodes, one after another: the value shrinks as the
// model grows, and no tree of the whole document is ever held.
//
// Two shapes cost the decode more than their bytes and are refused first: nesting deeper than
// maxDepth, and mappings so large that yaml's check of repeated keys, which compares every pair
// of keys of a mapping it decodes, would take seconds (maxKeyChecks). The paths and the sections
// of the components, the only mappings of thousands of keys a real document has, are decoded
// entry by entry, which needs no such check.

// maxDepth is how deeply the objects and arrays of a document may nest. Real documents stay
// within a few dozen levels.
const maxDepth = 100

// maxKeyChecks bounds the work of yaml's check of repeated keys over a processing: one for every
// pair of keys of a mapping, plus the length of the keys of a pair as long as each other (their
// bytes are then compared). Well under a second.
const maxKeyChecks = 200_000_000

// maxFlowYAML is the size past which a document that starts as JSON does (a YAML flow
// collection) is read only as JSON: yaml/v4 is quadratic on a large flow collection.
const maxFlowYAML = 256 << 10

// decodeValue reads a JSON or YAML document into a generic value, and says which it was.
func decodeValue(raw []byte) (value any, format string, err error) {
	if looksJSON(raw) {
		value, err := decodeJSON(raw)
		if err == nil || len(raw) > maxFlowYAML {
			return value, "json", err
		}
	}
	value, err = decodeYAML(raw)
	return value, "yaml", err
}

// decodeJSON reads a JSON document: objects as map[string]any, numbers as json.Number (as
// written: an integer stays one, however large).
func decodeJSON(raw []byte) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// decodeYAML reads a YAML document, mapping keys that are not strings (response codes such as
// 200) as their text. Of keys repeated in a mapping the last counts, as in JSON (yaml's check of
// unique keys compares every pair: seconds on a mapping of thousands).
func decodeYAML(raw []byte) (any, error) {
	var v any
	if err := yaml.Load(raw, &v, yaml.WithV3Defaults(), yaml.WithUniqueKeys(false)); err != nil {
		return nil, err
	}
	if v == nil {
		return nil, errors.New("the file is empty")
	}
	return stringKeys(v), nil
}

// nodeBuilder writes parts of a decoded document as node trees, counting the key checks their
// decode will cost.
type nodeBuilder struct {
	keyChecks int64
}

// nodeOf writes v, found depth levels deep in the document, as a node tree. It refuses v when it
// nests too deep or when the key checks of the trees written so far pass maxKeyChecks.
func (b *nodeBuilder) nodeOf(v any, depth int) (*yaml.Node, error) {
	n, err := b.node(v, depth)
	if err == nil && b.keyChecks > maxKeyChecks {
		err = fmt.Errorf("its mappings have too many keys to check (more than %d checks)", maxKeyChecks)
	}
	return n, err
}

func (b *nodeBuilder) node(v any, depth int) (*yaml.Node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("it nests more than %d levels deep", maxDepth)
	}
	switch t := v.(type) {
	case map[string]any:
		return b.mapping(t, depth)
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: make([]*yaml.Node, len(t))}
		for i, e := range t {
			var err error
			if n.Content[i], err = b.node(e, depth+1); err != nil {
				return nil, err
			}
		}
		return n, nil
	}
	return scalar(v)
}

func (b *nodeBuilder) mapping(m map[string]any, depth int) (*yaml.Node, error) {
	keys := slices.Sorted(maps.Keys(m)) // a decoding error names the first problem: the same every time
	b.keyChecks += keyChecks(keys)
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: make([]*yaml.Node, 0, 2*len(keys))}
	for _, k := range keys {
		value, err := b.node(m[k], depth+1)
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, value)
	}
	return n, nil
}

// keyChecks is the work of yaml's check of repeated keys on a mapping with these keys: every
// pair is compared, and the bytes of the pairs of keys as long as each other.
func keyChecks(keys []string) int64 {
	n := int64(len(keys))
	if n < 2 {
		return 0
	}
	checks := n * (n - 1) / 2
	sameLength := map[int]int64{}
	for _, k := range keys {
		sameLength[len(k)]++
	}
	for length, count := range sameLength {
		checks += count * (count - 1) / 2 * int64(length)
	}
	return checks
}

// scalar writes a scalar of a decoded document as a node tagged with its type, so that its
// decode does not guess it from its text.
func scalar(v any) (*yaml.Node, error) {
	tagged := func(tag, value string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
	}
	switch t := v.(type) {
	case nil:
		return tagged("!!null", "null"), nil
	case string:
		return tagged("!!str", t), nil
	case bool:
		return tagged("!!bool", strconv.FormatBool(t)), nil
	case json.Number:
		if _, err := t.Int64(); err == nil {
			return tagged("!!int", t.String()), nil
		}
		return tagged("!!float", t.String()), nil
	case int:
		return tagged("!!int", strconv.Itoa(t)), nil
	case int64:
		return tagged("!!int", strconv.FormatInt(t, 10)), nil
	case uint64:
		return tagged("!!int", strconv.FormatUint(t, 10)), nil
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return nil, fmt.Errorf("it holds a number JSON cannot: %v", t)
		}
		return tagged("!!float", strconv.FormatFloat(t, 'g', -1, 64)), nil
	}
	return tagged("!!str", fmt.Sprint(v)), nil // a YAML timestamp or binary: its text
}

// decodeModel decodes a decoded OpenAPI 3 document into kin-openapi's model, in place in doc:
// the paths and each section of the components entry by entry, the rest as one tree. A part that
// is not a mapping is left in the rest, for kin-openapi to say what is wrong with it.
func (b *nodeBuilder) decodeModel(v map[string]any, doc *openapi3.T) error {
	paths := takeMapping(v, "paths")
	components := takeMapping(v, "components")
	sections := map[string]map[string]any{}
	for name := range componentSections {
		if section := takeMapping(components, name); section != nil {
			sections[name] = section
		}
	}
	if err := b.decode(v, 1, doc); err != nil {
		return err
	}
	if paths != nil {
		if err := b.decodePaths(paths, doc); err != nil {
			return err
		}
	}
	if components == nil {
		return nil
	}
	doc.Components = &openapi3.Components{}
	if err := b.decode(components, 2, doc.Components); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(sections)) {
		if err := componentSections[name](b, sections[name], doc.Components); err != nil {
			return fmt.Errorf("components.%s.%w", name, err)
		}
	}
	return nil
}

// takeMapping removes the entry of key from m and returns it, if it is a mapping.
func takeMapping(m map[string]any, key string) map[string]any {
	entry, ok := m[key].(map[string]any)
	if ok {
		delete(m, key)
	}
	return entry
}

// decode writes v, found depth levels deep, as a node tree and decodes it into out.
func (b *nodeBuilder) decode(v any, depth int, out any) error {
	n, err := b.nodeOf(v, depth)
	if err != nil {
		return err
	}
	if err := n.Decode(out); err != nil {
		return shapeError(v, out, err)
	}
	return nil
}

// shapeError is why v does not decode into out. The node decoder's errors name neither the field
// nor a position (our trees have none); kin-openapi's JSON decoding of the same value names the
// field, so on a failure, and only then, v is decoded that way too.
func shapeError(v any, out any, nodeErr error) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return nodeErr
	}
	if err := json.Unmarshal(raw, reflect.New(reflect.TypeOf(out).Elem()).Interface()); err != nil {
		return err
	}
	return nodeErr
}

// decodePaths decodes the paths entry by entry: its extensions (x- keys) as kin-openapi does,
// then each path item.
func (b *nodeBuilder) decodePaths(m map[string]any, doc *openapi3.T) error {
	items := map[string]any{}
	for k, item := range m {
		if !strings.HasPrefix(k, "x-") {
			items[k] = item
			delete(m, k)
		}
	}
	doc.Paths = openapi3.NewPathsWithCapacity(len(items))
	if err := b.decode(m, 2, doc.Paths); err != nil {
		return fmt.Errorf("paths: %w", err)
	}
	if err := entries(b, items, 3, doc.Paths.Set); err != nil {
		return fmt.Errorf("paths.%w", err)
	}
	return nil
}

// componentSections decodes each section of the components, entry by entry.
var componentSections = map[string]func(b *nodeBuilder, m map[string]any, c *openapi3.Components) error{
	"schemas":         section(func(c *openapi3.Components) *openapi3.Schemas { return &c.Schemas }),
	"parameters":      section(func(c *openapi3.Components) *openapi3.ParametersMap { return &c.Parameters }),
	"headers":         section(func(c *openapi3.Components) *openapi3.Headers { return &c.Headers }),
	"requestBodies":   section(func(c *openapi3.Components) *openapi3.RequestBodies { return &c.RequestBodies }),
	"responses":       section(func(c *openapi3.Components) *openapi3.ResponseBodies { return &c.Responses }),
	"securitySchemes": section(func(c *openapi3.Components) *openapi3.SecuritySchemes { return &c.SecuritySchemes }),
	"examples":        section(func(c *openapi3.Components) *openapi3.Examples { return &c.Examples }),
	"links":           section(func(c *openapi3.Components) *openapi3.Links { return &c.Links }),
	"callbacks":       section(func(c *openapi3.Components) *openapi3.Callbacks { return &c.Callbacks }),
}

// section decodes a section of the components into the map field returns.
func section[M ~map[string]*V, V any](field func(*openapi3.Components) *M) func(*nodeBuilder, map[string]any, *openapi3.Components) error {
	return func(b *nodeBuilder, m map[string]any, c *openapi3.Components) error {
		decoded := make(M, len(m))
		*field(c) = decoded
		return entries(b, m, 4, func(k string, v *V) { decoded[k] = v })
	}
}

// entries decodes each value of m, found depth levels deep, as a V and hands it to set. Each is
// written as a tree, decoded and dropped before the next, so that the document's value shrinks
// as its model grows.
func entries[V any](b *nodeBuilder, m map[string]any, depth int, set func(string, *V)) error {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var v V
		if err := b.decode(m[k], depth, &v); err != nil {
			return fmt.Errorf("%q: %w", k, err)
		}
		delete(m, k)
		set(k, &v)
	}
	return nil
}

// stringKeys converts the maps of a decoded YAML value to maps with string keys, as JSON has.
func stringKeys(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = stringKeys(e)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[fmt.Sprint(k)] = stringKeys(e)
		}
		return m
	case []any:
		for i, e := range t {
			t[i] = stringKeys(e)
		}
	}
	return v
}
