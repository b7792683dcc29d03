// Package openapi turns an OpenAPI document — at a URL or given as text — into what a spec
// version keeps: the entry document as it came, and a filesystem of it and every file its $refs
// reach, parsed. Documents are fetched through an SSRF-guarded client (internal/fetch), bounded in
// bytes, files and time, parsed as JSON or YAML and validated as OpenAPI 3.0, 3.1 or 3.2, or
// Swagger 2.0, by github.com/getkin/kin-openapi.
//
// Every failure is an *Error with the reference's processing error code: FETCH_TIMEOUT,
// FETCH_ERROR (unreachable, refused, too large, not a success), PARSE_ERROR (not JSON or YAML,
// not an OpenAPI document, fields of the wrong types, a $ref that cannot be resolved). What
// validation finds in a document that can be read is kept with it as warnings.
package openapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v4"

	"github.com/binderyhq/bindery/internal/fetch"
)

// Code is a processing error code of the reference (OpenAPISpecProcessingErrorCode).
type Code string

// The codes of the reference.
const (
	FetchTimeout Code = "FETCH_TIMEOUT"
	FetchError   Code = "FETCH_ERROR"
	ParseError   Code = "PARSE_ERROR"
)

// Error is why a document could not be processed.
type Error struct {
	Code    Code
	Message string   // what went wrong, naming the first problem (at most 500 characters)
	Errors  []string // each problem found, at most MaxErrors of them, each at most 500 characters
	Count   int      // how many problems were found, Errors holding the first ones
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// MaxErrors is how many problems of an invalid document an Error lists.
const MaxErrors = 50

// maxMessage is the length, in characters, of a message past which it is cut.
const maxMessage = 500

func failf(code Code, format string, args ...any) *Error {
	msg := clip(fmt.Sprintf(format, args...))
	return &Error{Code: code, Message: msg, Errors: []string{msg}, Count: 1}
}

// clip cuts a message longer than maxMessage characters.
func clip(msg string) string {
	if r := []rune(msg); len(r) > maxMessage {
		return string(r[:maxMessage]) + "…"
	}
	return msg
}

// Getter fetches a URL, reading at most max bytes (fetch.Client).
type Getter interface {
	Get(ctx context.Context, u *url.URL, max int64) (*fetch.Response, error)
}

// Limits bound the processing of one document.
type Limits struct {
	MaxBytes int64         // the entry document and its referenced files together
	MaxFiles int           // referenced files besides the entry document
	Timeout  time.Duration // the whole processing: fetches, parsing and validation
	Gate     *Gate         // shared by the processings it bounds in bytes held at once; nil: none
}

// DefaultLimits are the bounds when none are configured.
var DefaultLimits = Limits{MaxBytes: 32 << 20, MaxFiles: 100, Timeout: 30 * time.Second}

// Document is a processed document.
type Document struct {
	URL        string                     // where the entry document was found (after redirects); "" for text
	Raw        []byte                     // the entry document as fetched or given
	Format     string                     // json or yaml: the entry document's
	Filesystem map[string]json.RawMessage // path → file as JSON: the entry document and every file its $refs reach
	Digest     string                     // of every file's bytes: equal digests, equal content
	Version    string                     // the document's openapi (or swagger) version
	// Warnings are the problems validation found (at most MaxErrors, each at most 500
	// characters), of WarningCount: the document is kept, as readers and renderers accept such
	// documents (two paths differing only by a parameter's name, say).
	Warnings     []string
	WarningCount int
}

// FromURL fetches the document at rawURL through g and processes it.
func FromURL(ctx context.Context, g Getter, rawURL string, l Limits) (*Document, error) {
	ctx, cancel := context.WithTimeout(ctx, l.Timeout)
	defer cancel()
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, failf(FetchError, "the source URL cannot be parsed: %v", err)
	}
	p := newProcessor(ctx, g, l)
	defer p.hold.release()
	raw, final, err := p.get(u)
	if err != nil {
		return nil, err
	}
	return p.process(raw, final)
}

// FromText processes a document given as text. Its $refs may name only places within it.
func FromText(ctx context.Context, text []byte, l Limits) (*Document, error) {
	ctx, cancel := context.WithTimeout(ctx, l.Timeout)
	defer cancel()
	if int64(len(text)) > l.MaxBytes {
		return nil, failf(FetchError, "the document is %d bytes, more than %d", len(text), l.MaxBytes)
	}
	p := newProcessor(ctx, nil, l)
	defer p.hold.release()
	if err := p.hold.take(ctx, int64(len(text))); err != nil {
		return nil, err
	}
	return p.process(text, nil)
}

// processor holds the state of one processing: the files fetched so far, the bytes left and
// those it holds in the gate.
type processor struct {
	ctx    context.Context
	g      Getter // nil for text
	limits Limits
	budget int64
	hold   *holding
	entry  string           // the entry document's URL ("" for text), which a file may refer back to
	raw    []byte           // the entry document
	files  map[string]*file // URL → each referenced file
	nodes  nodeBuilder      // counts the key checks of every file the processing decodes
	refErr error            // the first failure to fetch or read a referenced file (an *Error, or the gate's)
}

// file is a referenced file.
type file struct {
	raw    []byte          // as fetched
	asJSON json.RawMessage // in the filesystem
	text   []byte          // what kin-openapi's loader reads (see readRef)
}

func newProcessor(ctx context.Context, g Getter, l Limits) *processor {
	return &processor{ctx: ctx, g: g, limits: l, budget: l.MaxBytes, hold: l.Gate.holding(l.MaxBytes),
		files: map[string]*file{}}
}

// get fetches u within the byte budget and takes its bytes in the gate before they are parsed.
// Returns the body and where it was found.
func (p *processor) get(u *url.URL) ([]byte, *url.URL, error) {
	if p.budget <= 0 {
		return nil, nil, failf(FetchError, "the document and its files are more than %d bytes", p.limits.MaxBytes)
	}
	res, err := p.g.Get(p.ctx, u, p.budget)
	if err != nil {
		return nil, nil, fetchFailure(u, err, p.limits.MaxBytes)
	}
	if res.Status < 200 || res.Status > 299 {
		return nil, nil, failf(FetchError, "%s answered HTTP %d", u.Redacted(), res.Status)
	}
	p.budget -= int64(len(res.Body))
	if err := p.hold.take(p.ctx, int64(len(res.Body))); err != nil {
		return nil, nil, err
	}
	return res.Body, res.URL, nil
}

// fetchFailure classifies an error of fetching u.
func fetchFailure(u *url.URL, err error, max int64) *Error {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return failf(FetchTimeout, "fetching %s took too long", u.Redacted())
	case errors.Is(err, fetch.ErrTooLarge):
		return failf(FetchError, "%s: the document and its files are more than %d bytes", u.Redacted(), max)
	case errors.Is(err, fetch.ErrRefused):
		return failf(FetchError, "%s was not fetched: %v", u.Redacted(), err)
	}
	return failf(FetchError, "%s could not be fetched: %v", u.Redacted(), err)
}

// process parses, resolves and validates the entry document raw found at base (nil for text).
func (p *processor) process(raw []byte, base *url.URL) (doc *Document, err error) {
	defer func() {
		if r := recover(); r != nil { // a library bug on a hostile document must not stop the server
			doc, err = nil, failf(ParseError, "the document could not be processed: %v", r)
		}
	}()
	value, format, err := decodeValue(raw)
	if err != nil {
		return nil, failf(ParseError, "the document is neither JSON nor YAML: %v", err)
	}
	version, err := versionOf(value)
	if err != nil {
		return nil, err
	}
	root, err := jsonOf(raw, format, value)
	if err != nil {
		return nil, failf(ParseError, "the document is neither JSON nor YAML: %v", err)
	}
	p.raw = raw
	if base != nil {
		p.entry = base.String()
	}
	problems, err := p.load(root, value, version, base)
	if err != nil {
		return nil, err
	}
	doc = p.document(raw, root, format, version, base)
	doc.Warnings, doc.WarningCount = problems.Errors, problems.Count
	return doc, nil
}

// versionOf reads the openapi or swagger field of a decoded document.
func versionOf(doc any) (string, error) {
	head, ok := doc.(map[string]any)
	if !ok {
		return "", failf(ParseError, "the document is not an OpenAPI document: it is not an object")
	}
	if v, ok := head["openapi"].(string); ok && strings.HasPrefix(v, "3.") {
		return v, nil
	}
	if v, ok := head["swagger"].(string); ok && v == "2.0" {
		return v, nil
	}
	if head["openapi"] != nil || head["swagger"] != nil {
		return "", failf(ParseError, "the document's version is not supported: openapi 3.x and swagger 2.0 are")
	}
	return "", failf(ParseError, "the document is not an OpenAPI document: it has neither an openapi nor a swagger field")
}

// load decodes the document, resolves its $refs (fetching the files they name) and validates it,
// returning the problems validation found. A Swagger 2.0 document is decoded from its JSON, an
// OpenAPI 3 one from its value.
func (p *processor) load(root json.RawMessage, value any, version string, base *url.URL) (problems, error) {
	loader := openapi3.NewLoader()
	loader.Context = p.ctx
	loader.ReadFromURIFunc = p.readRef
	var doc *openapi3.T
	var err error
	if version == "2.0" {
		doc, err = fromSwagger(loader, root, base)
	} else {
		doc, err = fromOpenAPI3(loader, &p.nodes, value.(map[string]any), base)
	}
	var shape *Error
	switch {
	case p.refErr != nil:
		return problems{}, p.refErr
	case errors.As(err, &shape):
		return problems{}, shape
	case err != nil:
		return problems{}, failf(ParseError, "the document's references cannot be resolved: %v", err)
	case p.ctx.Err() != nil:
		return problems{}, failf(FetchTimeout, "processing the document took longer than %s", p.limits.Timeout)
	}
	return validate(p.ctx, doc, version)
}

// notShaped is the failure of a document whose fields do not have the types OpenAPI gives them.
func notShaped(version string, err error) *Error {
	return failf(ParseError, "the document is not OpenAPI %s: %v", version, err)
}

// fromOpenAPI3 decodes a decoded OpenAPI 3 document into kin-openapi's model (decodeModel)
// and resolves its $refs. The loader must know the document as the one at base, so that a file
// referring back to it finds it rather than fetching and parsing it again: an empty document is
// loaded at base and the decoded one written over it.
func fromOpenAPI3(loader *openapi3.Loader, nodes *nodeBuilder, value map[string]any, base *url.URL) (*openapi3.T, error) {
	doc := &openapi3.T{}
	if base != nil {
		var err error
		if doc, err = loader.LoadFromDataWithPath([]byte("{}"), base); err != nil {
			return nil, err
		}
	}
	if err := nodes.decodeModel(value, doc); err != nil {
		return nil, notShaped("3", err)
	}
	return doc, loader.ResolveRefsIn(doc, base)
}

// fromSwagger reads a Swagger 2.0 document as OpenAPI 3.0 (kin-openapi's conversion), resolving
// its $refs, those to other files too, with loader.
func fromSwagger(loader *openapi3.Loader, root json.RawMessage, base *url.URL) (*openapi3.T, error) {
	var doc2 openapi2.T
	if err := json.Unmarshal(root, &doc2); err != nil {
		return nil, notShaped("2.0", err)
	}
	doc, err := openapi2conv.ToV3WithLoader(&doc2, loader, base)
	if err == nil && doc.Paths == nil { // paths: {} converts to none, which 3.0 requires
		doc.Paths = openapi3.NewPaths()
	}
	return doc, err
}

// problems are what validation found: the first MaxErrors, each clipped, of Count.
type problems struct {
	Errors []string
	Count  int
}

// validate checks the document, listing every problem found (up to MaxErrors). A document whose
// references all resolve can be read and rendered whatever else validation says, so those
// problems are warnings; a reference that resolves to nothing (a loop of references, say) leaves
// a part without content, and fails the document.
func validate(ctx context.Context, doc *openapi3.T, version string) (problems, error) {
	errs := validationErrors(ctx, doc)
	var unresolved []error
	for _, err := range errs {
		var ref *openapi3.UnresolvedRefError
		if errors.As(err, &ref) {
			unresolved = append(unresolved, err)
		}
	}
	if len(unresolved) > 0 {
		return problems{}, failure(listed(unresolved), "the document's references cannot be resolved in OpenAPI %s", version)
	}
	return listed(errs), nil
}

// listed is the first MaxErrors problems, each clipped, of all of errs.
func listed(errs []error) problems {
	found := problems{Count: len(errs)}
	for _, err := range errs[:min(len(errs), MaxErrors)] {
		found.Errors = append(found.Errors, clip(err.Error()))
	}
	return found
}

// failure is the PARSE_ERROR of problems, its message the summary and the first problem.
func failure(p problems, format string, args ...any) *Error {
	summary := fmt.Sprintf(format, args...) + ": " + p.Errors[0]
	if p.Count > 1 {
		summary = fmt.Sprintf(format, args...) + fmt.Sprintf(": %d problems, the first: %s", p.Count, p.Errors[0])
	}
	return &Error{Code: ParseError, Message: clip(summary), Errors: p.Errors, Count: p.Count}
}

// validationErrors validates the document and returns each problem found. kin-openapi's
// multi-error mode goes on past a problem, and warns that some validators can then dereference
// nil: when it panics, the fail-fast mode's single problem is what is known.
func validationErrors(ctx context.Context, doc *openapi3.T) (errs []error) {
	opts := []openapi3.ValidationOption{openapi3.DisableExamplesValidation(),
		openapi3.DisableSchemaDefaultsValidation(), openapi3.DisableSchemaPatternValidation()}
	defer func() {
		if recover() != nil {
			errs = flatten(doc.Validate(ctx, opts...))
		}
	}()
	return flatten(doc.Validate(ctx, append(opts, openapi3.EnableMultiError())...))
}

// flatten lists the errors inside nested multi-errors.
func flatten(err error) []error {
	var multi openapi3.MultiError
	if !errors.As(err, &multi) {
		if err == nil {
			return nil
		}
		return []error{err}
	}
	var all []error
	for _, e := range multi {
		all = append(all, flatten(e)...)
	}
	return all
}

// readRef is the loader's reader of referenced files: through the guarded client, within the
// budgets of bytes and files. It records the first failure, which names the file. The loader parses
// what it reads with yaml/v4, slow on JSON (decision 190) and on mappings of many keys; so a file
// is read by us and handed to it as block YAML written from its checked tree (decision 282).
func (p *processor) readRef(_ *openapi3.Loader, u *url.URL) ([]byte, error) {
	if u.String() == p.entry { // the loader reads it before it finds the document it already has
		return p.raw, nil
	}
	if f, ok := p.files[u.String()]; ok {
		return f.text, nil
	}
	if err := p.refAllowed(u); err != nil {
		if p.refErr == nil && err.Code != ParseError {
			p.refErr = err
		}
		return nil, err
	}
	body, _, err := p.get(u)
	if err == nil {
		var f *file
		if f, err = p.read(u, body); err == nil {
			p.files[u.String()] = f
			return f.text, nil
		}
	}
	if p.refErr == nil {
		p.refErr = err
	}
	return nil, err
}

// read parses a referenced file fetched from u.
func (p *processor) read(u *url.URL, raw []byte) (*file, error) {
	value, format, err := decodeValue(raw)
	if err != nil {
		return nil, failf(ParseError, "%s is neither JSON nor YAML: %v", u.Redacted(), err)
	}
	asJSON, err := jsonOf(raw, format, value)
	if err != nil {
		return nil, failf(ParseError, "%s is neither JSON nor YAML: %v", u.Redacted(), err)
	}
	node, err := p.nodes.nodeOf(value, 1)
	if err != nil {
		return nil, failf(ParseError, "%s is refused: %v", u.Redacted(), err)
	}
	text, err := yaml.Dump(node)
	if err != nil {
		return nil, failf(ParseError, "%s cannot be read: %v", u.Redacted(), err)
	}
	return &file{raw: raw, asJSON: asJSON, text: text}, nil
}

// refAllowed refuses a referenced file the source cannot reach: any for text, one past the
// file budget, one that is not http or https.
func (p *processor) refAllowed(u *url.URL) *Error {
	switch {
	case p.g == nil:
		return failf(ParseError, "$ref %q names another file: a document given as text must be self-contained", u.String())
	case len(p.files) >= p.limits.MaxFiles:
		return failf(FetchError, "the document references more than %d files", p.limits.MaxFiles)
	case fetch.CheckURL(u) != nil:
		return failf(FetchError, "$ref %q names a file that is not fetched: %v", u.Redacted(), fetch.CheckURL(u))
	}
	return nil
}

// document assembles the processed document: the filesystem keyed by path and the digest.
func (p *processor) document(raw []byte, root json.RawMessage, format, version string, base *url.URL) *Document {
	d := &Document{Raw: raw, Format: format, Version: version, Filesystem: map[string]json.RawMessage{}}
	h := sha256.New()
	h.Write(raw)
	if base != nil {
		d.URL = base.String()
	}
	d.Filesystem[EntryName(d.URL, format)] = root
	urls := make([]string, 0, len(p.files))
	for u := range p.files {
		urls = append(urls, u)
	}
	sort.Strings(urls)
	for _, u := range urls {
		d.Filesystem[fileKey(base, u)] = p.files[u].asJSON
		fmt.Fprintf(h, "\x00%s\x00", u)
		h.Write(p.files[u].raw)
	}
	d.Digest = hex.EncodeToString(h.Sum(nil))
	return d
}

// EntryName is the name of the entry document in a filesystem: the last segment of the URL it
// was found at, or "openapi.<format>" for a text or a URL without one.
func EntryName(docURL, format string) string {
	if u, err := url.Parse(docURL); err == nil && docURL != "" {
		if name := path.Base(u.Path); name != "." && name != "/" {
			return name
		}
	}
	return "openapi." + format
}

// fileKey is a referenced file's path in the filesystem: relative to the entry document's
// directory when it is below it on the same host, else its URL.
func fileKey(base *url.URL, raw string) string {
	u, err := url.Parse(raw)
	if err != nil || base == nil || u.Scheme != base.Scheme || u.Host != base.Host || u.RawQuery != "" {
		return raw
	}
	dir := path.Dir(base.Path) + "/"
	if dir == "//" {
		dir = "/"
	}
	if rel, ok := strings.CutPrefix(u.Path, dir); ok && rel != "" {
		return rel
	}
	return raw
}

// looksJSON says whether a document starts as JSON does.
func looksJSON(raw []byte) bool {
	trimmed := bytes.TrimLeft(raw, " \t\r\n\ufeff")
	return len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
}

// jsonOf is a file as JSON: as it came if it is JSON, else its decoded value written as JSON.
// YAML mapping keys that are not strings (response codes such as 200) are their text.
func jsonOf(raw []byte, format string, value any) (json.RawMessage, error) {
	if format == "json" {
		return bytes.Clone(raw), nil
	}
	return json.Marshal(value)
}
