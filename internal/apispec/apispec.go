// Package apispec is test support for checking API responses against the
// reference OpenAPI document shipped in the npm package @gitbook/api.
//
// The document is not committed: Load fetches it with npm into a cache
// directory on first use (see Load).
package apispec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Version is the version of the @gitbook/api package the spec comes from.
const Version = "0.202.0"

// docURL is the URL the whole OpenAPI document is registered under in the
// schema compiler; schemas are compiled by JSON pointer below it.
const docURL = "https://spec.bindery.test/openapi.json"

// Spec is a parsed reference OpenAPI document with lazily compiled schemas.
// It is safe for concurrent use.
type Spec struct {
	doc        any
	routes     []route
	superseded map[string]bool // templates whose operations the spec does not describe as served

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	schemas  map[string]*jsonschema.Schema
}

var (
	loadOnce sync.Once
	loaded   *Spec
	loadErr  error
)

// Load returns the reference spec, fetching it into the cache on first use
// and parsing it once per process. It fails the test when the spec cannot
// be obtained.
func Load(tb testing.TB) *Spec {
	tb.Helper()
	loadOnce.Do(func() { loaded, loadErr = load() })
	if loadErr != nil {
		tb.Fatalf("apispec: %v", loadErr)
	}
	return loaded
}

// load locates (or fetches) openapi.json and parses it.
func load() (*Spec, error) {
	doc, err := correctedDocument()
	if err != nil {
		return nil, err
	}
	s, err := compile(doc)
	if err == nil {
		s.superseded = Superseded
	}
	return s, err
}

// correctedDocument reads the reference document (fetching it on first use), its errata corrected.
func correctedDocument() (any, error) {
	file, err := ensureSpecFile()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err == nil {
		err = applyErrata(doc)
	}
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", file, err)
	}
	return doc, nil
}

// Parse builds a Spec from the bytes of an OpenAPI 3.1 JSON document other than the reference,
// such as the one the server serves of itself, to validate responses against it.
func Parse(data []byte) (*Spec, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return compile(doc)
}

// Document returns the reference document with its errata corrected, as JSON: where the server's
// own document takes the reference's operations from (rest/apidoc). It fetches the document into
// the cache on first use.
func Document() ([]byte, error) {
	doc, err := correctedDocument()
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// compile makes a Spec of a parsed document.
func compile(doc any) (*Spec, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(compileECMA)
	if err := c.AddResource(docURL, doc); err != nil {
		return nil, err
	}
	routes, err := buildRoutes(doc)
	if err != nil {
		return nil, err
	}
	return &Spec{doc: doc, routes: routes, compiler: c, schemas: map[string]*jsonschema.Schema{}}, nil
}

// schemaAt compiles (once) the schema at the JSON pointer built from tokens.
func (s *Spec) schemaAt(tokens ...string) (*jsonschema.Schema, error) {
	loc := docURL + "#" + fragment(tokens)
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.schemas[loc]; ok {
		return sch, nil
	}
	sch, err := s.compiler.Compile(loc)
	if err != nil {
		return nil, err
	}
	s.schemas[loc] = sch
	return sch, nil
}
