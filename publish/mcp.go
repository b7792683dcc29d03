package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/sitecustom"
	"github.com/binderyhq/bindery/internal/sites"
)

// The MCP server of a published site (decisions 440–445): the Model Context Protocol over
// Streamable HTTP at ~gitbook/mcp under the site's URL, for agents. A request is one reader's
// visit, as a page's is: the site and the reader's audience are resolved by VisitSite before
// the server is made, and its tools read through the siteView the pages use, so an agent sees
// exactly what an anonymous reader with the same credentials sees. The server is stateless (no
// session outlives its request), so a revoked share link, an expired token or an unpublished
// site stops it at the next request.

// mcpPath is the path of a site's MCP server inside the site, where GitBook serves its own.
const mcpPath = "~gitbook/mcp"

// mcpMaxBody bounds an MCP request's body: a tool call's arguments are a few words or a URL.
const mcpMaxBody = 64 << 10

// batchRefused is why a JSON-RPC batch is refused: MCP dropped batches (protocol 2025-06-18),
// and a batch would run many tool calls for the price of one request.
const batchRefused = "JSON-RPC batches are not accepted: send one message per request"

// mcpSchemas keeps the JSON schemas of the tools' arguments and results, which a server made per
// request would otherwise infer again at each.
var mcpSchemas = mcp.NewSchemaCache()

// isMCP reports whether a request is to a site's MCP server: /sites/{site}/~gitbook/mcp, or
// /~gitbook/mcp on a site's own hostname.
func isMCP(req *http.Request) bool {
	rest, ok := strings.CutSuffix(strings.TrimSuffix(req.URL.Path, "/"), "/"+mcpPath)
	return ok && (rest == "" || strings.HasPrefix(rest, "/sites/") && strings.Count(rest, "/") == 2)
}

// audience is what a request presents to the site at base, rest being the path inside the
// site: a reader's (readerAudience); at the MCP server, the same read without keeping cookies,
// with the visitor token of an `Authorization: Bearer` header before any other.
func audience(w http.ResponseWriter, req *http.Request, base, rest string) sites.Audience {
	if strings.Trim(rest, "/") != mcpPath {
		return readerAudience(w, req, base)
	}
	a := readerAudience(nil, req, base)
	if scheme, token, ok := strings.Cut(req.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") && token != "" {
		a.Token = strings.TrimSpace(token)
	}
	return a
}

// serveMCP answers a request to the site's MCP server with a server made for this visit. The
// SDK's plain-text refusals (a GET, a wrong content type, a body too large) are answered as
// the API's errors. A JSON-RPC batch is refused (batchRefused).
func (s *siteView) serveMCP(w http.ResponseWriter, req *http.Request) {
	on, tools := sitecustom.MCP(sitecustom.Effective(s.visit.Site.Customization), s.publicAudience())
	if !on {
		writeJSONError(w, http.StatusNotFound, "this site has no MCP server")
		return
	}
	if req.Method == http.MethodPost {
		body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, mcpMaxBody))
		switch {
		case err != nil:
			writeJSONError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", mcpMaxBody))
			return
		case bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")):
			writeJSONError(w, http.StatusBadRequest, batchRefused)
			return
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	server, err := (&mcpSite{s: s}).server(tools)
	if err != nil {
		s.h.fail(w, req, err)
		return
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless: true, JSONResponse: true,
		// The server is a public web server reached at any host its sites have, not a local tool
		// server: the protection against DNS rebinding of local servers does not apply.
		DisableLocalhostProtection: true,
	})
	ew := &jsonRefusals{ResponseWriter: w}
	h.ServeHTTP(ew, req)
	ew.finish()
}

// mcpSite is the MCP server of one visit. Its handlers share the visit's siteView, which is not
// safe for concurrent use: they take turns.
type mcpSite struct {
	s  *siteView
	mu sync.Mutex
}

// readOnlyTool says a tool changes nothing and reads only the site.
var readOnlyTool = &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}

// server makes the MCP server of the visit: the tools named (get_openapi_operation when the
// reader sees an API reference page), and the site's pages as resources.
func (m *mcpSite) server(tools []string) (*mcp.Server, error) {
	title := m.s.visit.Site.Title
	server := mcp.NewServer(&mcp.Implementation{Name: "bindery-site", Title: title, Version: "1",
		WebsiteURL: m.s.origin + m.s.base + "/"}, &mcp.ServerOptions{
		Instructions: "The documentation site \"" + title + "\": its tools search it and read its pages' Markdown and its " +
			"structure; its pages are also resources at their URLs.",
		SchemaCache: mcpSchemas,
		// Who may keep an answer, as for pages (setCacheControl).
		SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
			if !m.s.publicAudience() {
				c.CacheScope = "private"
			}
		},
		// Stateless: nothing is pushed, so no list is announced as changing.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}},
	})
	add := map[string]func() error{
		"search": func() error {
			mcp.AddTool(server, &mcp.Tool{Name: "search", Annotations: readOnlyTool,
				Description: "Search the site's pages. Answers the best matches first, each with its absolute URL, the pages above it, and the sections that match with a snippet."},
				locked(m, m.search))
			return nil
		},
		"get_page": func() error {
			mcp.AddTool(server, &mcp.Tool{Name: "get_page", Annotations: readOnlyTool,
				Description: "Read a page of the site as Markdown, by its URL (absolute, or a path of the site). Its links are absolute URLs of the site."},
				locked(m, m.getPage))
			return nil
		},
		"list_pages": func() error {
			mcp.AddTool(server, &mcp.Tool{Name: "list_pages", Annotations: readOnlyTool,
				Description: "The site's structure: its sections, their variants (site spaces) and their pages, with absolute URLs."},
				locked(m, m.listPages))
			return nil
		},
		"get_openapi_operation": func() error { return m.addOperationTool(server) },
	}
	for _, name := range tools {
		if err := add[name](); err != nil {
			return nil, err
		}
	}
	server.AddResourceTemplate(&mcp.ResourceTemplate{Name: "page", Title: "A page of " + title, MIMEType: markdownType,
		URITemplate: m.s.origin + m.s.base + "/{+path}", Description: "A page's Markdown, by its absolute URL"}, m.readResource)
	server.AddReceivingMiddleware(m.listResources)
	return server, nil
}

// locked runs a tool's handler while holding the visit, and answers its errors as a tool's
// failures: the message of what the reader did wrong or may not see, "Internal error." (logged)
// for the unexpected.
func locked[In, Out any](m *mcpSite, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.s.recordToolCall(req.Params.Name)
		res, out, err := h(ctx, req, in)
		return res, out, toolError(ctx, err)
	}
}

// toolError is what an agent is told of an error: its message when it is the agent's (INVALID,
// NOT_FOUND), else "Internal error.", the error being logged.
func toolError(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if e := apperr.As(err); e != nil && (e.Kind == apperr.Invalid || e.Kind == apperr.NotFound) {
		return errors.New(e.Message)
	}
	slog.ErrorContext(ctx, "mcp: a tool failed", "err", err)
	return errors.New("Internal error.")
}

// jsonRefusals passes an answer through, but for a plain-text error (the SDK's http.Error),
// which it answers as {"error":{"code","message"}}.
type jsonRefusals struct {
	http.ResponseWriter
	status int          // the refusal's status; 0 while the answer is passed through
	text   bytes.Buffer // the refusal's text
}

func (w *jsonRefusals) WriteHeader(code int) {
	if code >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *jsonRefusals) Write(b []byte) (int, error) {
	if w.status != 0 {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Flush passes an answer's parts on as they come (a stream of events).
func (w *jsonRefusals) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && w.status == 0 {
		f.Flush()
	}
}

func (w *jsonRefusals) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the refusal held, if any.
func (w *jsonRefusals) finish() {
	if w.status != 0 {
		writeJSONError(w.ResponseWriter, w.status, strings.TrimSpace(w.text.String()))
	}
}
