package publish

import (
	"context"
	"fmt"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/htmlpage"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
)

// The get_openapi_operation tool: an operation of the site's API reference pages (their
// openapi-operation blocks), as the pages' Markdown shows it. The server offers it when the
// site shows such a page.

// apiRef is an operation block of a page of a revision.
type apiRef struct {
	pageID, method, path string
}

// apiRefs keeps the operation blocks of revisions, by revision id (a revision never changes):
// finding them reads every page's document once.
var apiRefs, _ = lru.New[string, []apiRef](256)

// maxListedOperations bounds the operations the tool's description names.
const maxListedOperations = 50

// apiOperation is an operation block of a page the reader sees.
type apiOperation struct {
	apiRef
	siteSpace *ent.SiteSpace
}

// apiOperations are the operation blocks of the pages the reader sees, site space by site space.
func (s *siteView) apiOperations() ([]apiOperation, error) {
	var out []apiOperation
	for _, ss := range listed(s.visit.SiteSpaces) {
		content, err := s.content(s.ctx, ss.SpaceID)
		if apperr.IsNotFound(err) {
			continue // a space without content yet has no pages
		}
		if err != nil {
			return nil, err
		}
		refs, err := s.apiRefsOf(content)
		if err != nil {
			return nil, err
		}
		for _, r := range refs {
			if content.Tree.Page(r.pageID) != nil {
				out = append(out, apiOperation{apiRef: r, siteSpace: ss})
			}
		}
	}
	return out, nil
}

// apiRefsOf returns the operation blocks of every document of content's revision (its whole
// tree, also the pages the reader's claims hide), found once per revision.
func (s *siteView) apiRefsOf(content *graph.Content) ([]apiRef, error) {
	if refs, ok := apiRefs.Get(content.Revision.ID); ok {
		return refs, nil
	}
	t := content.Tree
	if h, ok := s.hidden[content.Revision.ID]; ok {
		t = h.full
	}
	refs := []apiRef{}
	var err error
	t.Walk(func(p *tree.Page, _ string) {
		if err != nil || p.Type != tree.TypeDocument {
			return
		}
		var doc *document.Document
		if doc, err = s.h.r.DereferencedPageDocument(s.ctx, t, p); err != nil {
			return
		}
		for _, ref := range document.OpenAPIRefs(doc) {
			if isOperation(ref) {
				refs = append(refs, apiRef{pageID: p.ID, method: strings.ToUpper(ref.Method), path: ref.Path})
			}
		}
	})
	if err != nil {
		return nil, err
	}
	apiRefs.Add(content.Revision.ID, refs)
	return refs, nil
}

// isOperation reports whether an OpenAPI block shows an operation (not a webhook or schemas).
func isOperation(ref document.OpenAPIRef) bool {
	return ref.Path != "" && ref.Method != "" && ref.Name == "" && ref.Schemas == nil
}

// operationInput is the get_openapi_operation tool's arguments.
type operationInput struct {
	Method string `json:"method" jsonschema:"the operation's HTTP method, such as GET"`
	Path   string `json:"path" jsonschema:"the operation's path as the API reference writes it, such as /pets/{petId}"`
}

// addOperationTool offers get_openapi_operation when the reader sees an API reference page,
// naming in its description the first operations the site documents.
func (m *mcpSite) addOperationTool(server *mcp.Server) error {
	ops, err := m.s.apiOperations()
	if err != nil || len(ops) == 0 {
		return err
	}
	var names []string
	for i, op := range ops {
		if i == maxListedOperations {
			names = append(names, "…")
			break
		}
		names = append(names, op.method+" "+op.path)
	}
	mcp.AddTool(server, &mcp.Tool{Name: "get_openapi_operation", Annotations: readOnlyTool,
		Description: "Read an operation of the site's API reference as Markdown (parameters, bodies, responses, a curl sample) " +
			"by its method and path. The site documents: " + strings.Join(names, ", ")},
		locked(m, m.getOperation))
	return nil
}

// getOperation answers the operation the arguments name as its page's Markdown shows it, and
// the page's URL. Fails with NOT_FOUND's message when no page the reader sees documents it.
func (m *mcpSite) getOperation(_ context.Context, _ *mcp.CallToolRequest, in operationInput) (*mcp.CallToolResult, any, error) {
	s := m.s
	method, path := strings.ToUpper(strings.TrimSpace(in.Method)), strings.TrimSpace(in.Path)
	ops, err := s.apiOperations()
	if err != nil {
		return nil, nil, err
	}
	for _, op := range ops {
		if op.method != method || op.path != path {
			continue
		}
		md, err := s.operationMarkdown(op)
		if err != nil || md != "" {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: md}}}, nil, err
		}
	}
	return nil, nil, apperr.NotFoundf("the site documents no operation %.10s %.200s", method, path)
}

// operationMarkdown is an operation block of a page as the page's Markdown shows it to the
// reader, then where it is documented; "" when the reader's claims leave it out of the page.
func (s *siteView) operationMarkdown(op apiOperation) (string, error) {
	loc := location{Section: s.sectionOf(op.siteSpace), SiteSpace: op.siteSpace}
	content, err := s.content(s.ctx, op.siteSpace.SpaceID)
	if err != nil {
		return "", err
	}
	p := content.Tree.Page(op.pageID)
	doc, specs, _, err := s.readerDocument(content, p)
	if err != nil {
		return "", err
	}
	for _, n := range doc.Nodes {
		if ref, ok := document.OpenAPIRefOf(n); ok && isOperation(ref) && strings.ToUpper(ref.Method) == op.method && ref.Path == op.path {
			block := document.Markdown(&document.Document{Object: "document", Nodes: []*document.Node{n}})
			return fmt.Sprintf("%s\nDocumented at %s\n", htmlpage.MarkdownWith(block, s.markdownLinks(loc, content.Tree), specs),
				s.origin+s.pageURL(loc, content.Tree, p)), nil
		}
	}
	return "", nil
}
