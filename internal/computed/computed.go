// Package computed computes the documents of the reference's getComputedDocument: a document made
// from a computed content source (ComputedContentSourceDocument) rather than stored. Bindery
// computes the sources that map onto its own objects and refuses the others naming them:
//
//   - builtin:openapi with props.doc "operation": the document of one operation of one of the
//     organization's OpenAPI specifications (dependencies.spec.ref, a ContentRefOpenAPI), an
//     openapi-operation block pointing at props.page (the operation's path) and props.method;
//     its rendering reads the spec's latest processed version.
//   - builtin:openapi with props.doc "models", "operations", "info" or "tag": refused (Bindery
//     has no block for a spec's models, tags or summary);
//   - builtin:translation: refused (Bindery's translations are spaces, not computed documents);
//   - integration:<app>:<name>: refused (Bindery runs no integrations).
//
// The seed makes the nodes' keys: the same source and seed compute the same document.
package computed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/document"
)

// Source is a computed content source as the request sends it.
type Source struct {
	Type         string                     `json:"type"`
	Props        map[string]any             `json:"props"`
	Dependencies map[string]json.RawMessage `json:"dependencies"`
}

// Specs finds an organization's OpenAPI specification by slug (openapispecs.Service).
type Specs interface {
	Spec(ctx context.Context, orgID, slug string) (*ent.OpenAPISpec, error)
}

// methods are the operation methods of props.method that an openapi-operation block points at.
var methods = []string{"get", "post", "put", "delete", "patch", "options", "head", "trace"}

// Document computes the document of source for a space of the organization orgID, the viewer's
// (whom specs answers for). Returns INVALID naming the part of the source Bindery cannot compute
// (source.type, source.props.doc…) or a specification the organization does not have.
func Document(ctx context.Context, specs Specs, orgID string, raw json.RawMessage, seed string) (*document.Document, error) {
	var src Source
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&src); err != nil {
		return nil, apperr.Invalidf("source: must be a computed content source: %v", err)
	}
	switch {
	case src.Type == "builtin:openapi":
		return openAPI(ctx, specs, orgID, src, seed)
	case src.Type == "builtin:translation", strings.HasPrefix(src.Type, "integration:"):
		return nil, apperr.Invalidf("source.type: %q is not supported: Bindery computes builtin:openapi documents only", src.Type)
	}
	return nil, apperr.Invalidf("source.type: must be builtin:openapi, builtin:translation or integration:<app>:<name>, not %q", truncate(src.Type))
}

// openAPI computes the document of one operation of a spec.
func openAPI(ctx context.Context, specs Specs, orgID string, src Source, seed string) (*document.Document, error) {
	doc, _ := src.Props["doc"].(string)
	if doc != "operation" {
		return nil, apperr.Invalidf("source.props.doc: %q is not supported: Bindery computes the document of one operation (\"operation\")", truncate(doc))
	}
	path, _ := src.Props["page"].(string)
	if path == "" {
		return nil, apperr.Invalidf("source.props.page: the operation's path is required")
	}
	method, _ := src.Props["method"].(string)
	if !slices.Contains(methods, method) {
		return nil, apperr.Invalidf("source.props.method: must be one of %s, not %q", strings.Join(methods, ", "), truncate(method))
	}
	slug, err := specSlug(src.Dependencies["spec"])
	if err != nil {
		return nil, err
	}
	if _, err := specs.Spec(ctx, orgID, slug); apperr.IsNotFound(err) {
		return nil, apperr.Invalidf("source.dependencies.spec: the organization has no OpenAPI specification %q", truncate(slug))
	} else if err != nil {
		return nil, err
	}
	block := document.Block("openapi-operation", map[string]any{
		"ref": map[string]any{"kind": "openapi", "spec": slug}, "path": path, "method": method})
	block.IsVoid, block.Key = true, key(seed, 0)
	return document.New(block), nil
}

// specSlug reads dependencies.spec: {"ref": {"kind": "openapi", "spec": slug}}, with or without
// its resolved value.
func specSlug(raw json.RawMessage) (string, error) {
	var dep struct {
		Ref struct{ Kind, Spec string }
	}
	if err := json.Unmarshal(raw, &dep); err != nil || dep.Ref.Kind != "openapi" || dep.Ref.Spec == "" {
		return "", apperr.Invalidf(`source.dependencies.spec: must be {"ref": {"kind": "openapi", "spec": "<slug>"}}`)
	}
	return dep.Ref.Spec, nil
}

// key is the key of the i-th node computed from seed.
func key(seed string, i int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", seed, i))
	return hex.EncodeToString(sum[:8])
}

// truncate shortens what a request sent for an error message.
func truncate(s string) string {
	if r := []rune(s); len(r) > 64 {
		return string(r[:64]) + "…"
	}
	return s
}
