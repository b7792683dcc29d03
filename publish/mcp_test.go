package publish_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// agent is how a test's MCP client reaches the server: a Host header for a site's own
// hostname, and headers (a visitor token) on every request.
type agent struct {
	host   string
	header http.Header
	base   http.RoundTripper
}

func (a agent) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if a.host != "" {
		req.Host = a.host
	}
	for k, v := range a.header {
		req.Header[k] = v
	}
	return a.base.RoundTrip(req)
}

// connect initializes an MCP session with the server at path as the SDK's client does.
func (f *siteFixture) connect(t *testing.T, path string, a agent) (*mcp.ClientSession, error) {
	t.Helper()
	a.base = f.e.Server.Client().Transport
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: f.e.Server.URL + path,
		HTTPClient: &http.Client{Transport: a}, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, err
}

func (f *siteFixture) mustConnect(t *testing.T, path string, a agent) *mcp.ClientSession {
	t.Helper()
	cs, err := f.connect(t, path, a)
	if err != nil {
		t.Fatalf("connect to %s: %v", path, err)
	}
	return cs
}

// call calls a tool and answers its text, and whether it failed; a protocol error fails the test.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), res.IsError
}

// publishAcme publishes the fixture's site at /sites/acme with the given visibility.
func (f *siteFixture) publishAcme(t *testing.T, visibility site.Visibility) {
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme").SetVisibility(visibility) })
}

const mcpAt = "/sites/acme/~gitbook/mcp"

// setMCP sets the site's mcp settings through the API.
func (f *siteFixture) setMCP(t *testing.T, mcpSettings map[string]any) {
	t.Helper()
	if r := f.e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/sites/"+f.site+"/customization", map[string]any{"mcp": mcpSettings}); r.Status != 200 {
		t.Fatalf("set mcp: %d %s", r.Status, r.Body)
	}
}

func TestMCPServerTools(t *testing.T) {
	f := newSiteFixture(t)
	f.publishAcme(t, site.VisibilityPublic)
	cs := f.mustConnect(t, mcpAt, agent{})
	if init := cs.InitializeResult(); init == nil || init.ServerInfo.Title != "Acme Docs" {
		t.Fatalf("initialize: %+v", init)
	}
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if slices.Sort(names); !slices.Equal(names, []string{"get_page", "list_pages", "search"}) {
		t.Fatalf("tools: %v", names)
	}
	root := f.e.Server.URL + "/sites/acme/"

	t.Run("search", func(t *testing.T) {
		text, failed := call(t, cs, "search", map[string]any{"query": "readers"})
		var out struct {
			Results []struct {
				Title, URL string
				Sections   []struct{ Body string }
			}
		}
		if err := json.Unmarshal([]byte(text), &out); failed || err != nil || len(out.Results) != 1 ||
			out.Results[0].URL != root || out.Results[0].Title != "Welcome" {
			t.Fatalf("search: %v %s", failed, text)
		}
		if text, failed := call(t, cs, "search", map[string]any{"query": "hidden"}); failed || strings.Contains(text, "secret") {
			t.Errorf("search finds a page hidden from readers: %s", text)
		}
	})
	t.Run("get_page", func(t *testing.T) {
		for _, u := range []string{root + "guides/install", "/sites/acme/guides/install.md", "guides/install", "/guides/install/"} {
			if text, failed := call(t, cs, "get_page", map[string]any{"url": u}); failed || !strings.HasPrefix(text, "# Install\n") {
				t.Errorf("get_page %s: %v %s", u, failed, text)
			}
		}
		text, failed := call(t, cs, "get_page", map[string]any{"url": root})
		if failed || !strings.Contains(text, "[Install]("+root+"guides/install.md)") {
			t.Errorf("the landing page's links are not absolute: %s", text)
		}
		for _, u := range []string{root + "nope", "http://elsewhere.test/sites/acme/guides/install", "/sites/other/guides/install",
			"javascript:alert(1)", root + "~search", strings.Repeat("a/", 10_000)} {
			if text, failed := call(t, cs, "get_page", map[string]any{"url": u}); !failed || text != "page not found" {
				t.Errorf("get_page %.40s: %v %s", u, failed, text)
			}
		}
	})
	t.Run("list_pages", func(t *testing.T) {
		text, failed := call(t, cs, "list_pages", map[string]any{})
		for _, want := range []string{`"title":"Acme Docs"`, `"url":"` + root + `guides"`, `"url":"` + root + `guides/install"`} {
			if failed || !strings.Contains(text, want) {
				t.Errorf("list_pages lacks %s: %s", want, text)
			}
		}
		if strings.Contains(text, "Secret") {
			t.Errorf("list_pages lists a hidden page: %s", text)
		}
	})
	t.Run("resources", func(t *testing.T) {
		list, err := cs.ListResources(t.Context(), nil)
		if err != nil || len(list.Resources) != 3 || list.Resources[0].URI != root {
			t.Fatalf("resources: %v %+v", err, list)
		}
		read, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: root + "guides/install"})
		if err != nil || len(read.Contents) != 1 || !strings.HasPrefix(read.Contents[0].Text, "# Install") || read.Contents[0].MIMEType != "text/markdown" {
			t.Fatalf("read resource: %v %+v", err, read)
		}
		if _, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "http://elsewhere.test/x"}); err == nil {
			t.Error("a resource of another host is read")
		}
	})
}

func TestMCPServerOnItsHostname(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetHostname("docs.acme.test") })
	cs := f.mustConnect(t, "/~gitbook/mcp", agent{host: "docs.acme.test"})
	text, failed := call(t, cs, "get_page", map[string]any{"url": "http://docs.acme.test/welcome"})
	if failed || !strings.Contains(text, "[Install](http://docs.acme.test/guides/install.md)") {
		t.Fatalf("get_page on the site's hostname: %s", text)
	}
	if text, _ := call(t, cs, "search", map[string]any{"query": "readers"}); !strings.Contains(text, `"url":"http://docs.acme.test/"`) {
		t.Fatalf("search on the site's hostname: %s", text)
	}
}

func TestMCPServerShareLinkSite(t *testing.T) {
	f := newSiteFixture(t)
	f.publishAcme(t, site.VisibilityShareLink)
	f.setMCP(t, map[string]any{"enabled": true})
	links := "/v1/orgs/" + f.org + "/sites/" + f.site + "/share-links"
	created := f.e.Do(f.admin, "POST", links, map[string]any{"name": "Agents"}).Map(t)
	published, _ := url.Parse(created["urls"].(map[string]any)["published"].(string))
	key := published.Query().Get("shareKey")
	for _, path := range []string{mcpAt, mcpAt + "?shareKey=wrong"} {
		if _, err := f.connect(t, path, agent{}); err == nil || !strings.Contains(err.Error(), "Not Found") {
			t.Fatalf("%s: %v", path, err)
		}
	}
	cs := f.mustConnect(t, mcpAt+"?shareKey="+key, agent{})
	text, failed := call(t, cs, "get_page", map[string]any{"url": "/"})
	if failed || !strings.Contains(text, "guides/install.md?shareKey="+key+")") {
		t.Fatalf("the page's links do not carry the key: %s", text)
	}
	f.e.Do(f.admin, "DELETE", links+"/"+created["id"].(string), nil)
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_pages", Arguments: map[string]any{}}); err == nil {
		t.Fatal("a revoked link still reads the site")
	}
}

func TestMCPServerVisitorAuthSite(t *testing.T) {
	f := newSiteFixture(t)
	f.publishAcme(t, site.VisibilityVisitorAuth)
	f.setMCP(t, map[string]any{"enabled": true})
	key := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/sites/"+f.site+"/publishing/auth", nil).Map(t)["privateKey"].(string)
	bearer := func(secret string, exp time.Time) agent {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": exp.Unix()}).SignedString([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		return agent{header: http.Header{"Authorization": {"Bearer " + tok}}}
	}
	for name, a := range map[string]agent{"none": {}, "forged": bearer("not the key", time.Now().Add(time.Hour)),
		"expired": bearer(key, time.Now().Add(-time.Minute))} {
		if _, err := f.connect(t, mcpAt, a); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
			t.Errorf("%s token: %v", name, err)
		}
	}
	res := f.postMCP(t, mcpAt, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil)
	if res.Status != 401 || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") || !strings.Contains(string(res.Body), `"code":401`) {
		t.Errorf("without a token: %d %v %s", res.Status, res.Header, res.Body)
	}
	cs := f.mustConnect(t, mcpAt, bearer(key, time.Now().Add(time.Hour)))
	if text, failed := call(t, cs, "get_page", map[string]any{"url": "/guides"}); failed || !strings.HasPrefix(text, "# Guides") {
		t.Fatalf("a valid token: %s", text)
	}
}

func TestMCPServerUnpublishedSite(t *testing.T) {
	f := newSiteFixture(t)
	f.publishAcme(t, site.VisibilityPublic)
	cs := f.mustConnect(t, mcpAt, agent{})
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(false) })
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_pages", Arguments: map[string]any{}}); err == nil {
		t.Fatal("an unpublished site still answers")
	}
	if _, err := f.connect(t, mcpAt, agent{}); err == nil {
		t.Fatal("an unpublished site accepts a new session")
	}
}

// postMCP sends a raw JSON-RPC body to an MCP server, as a client of the protocol would.
func (f *siteFixture) postMCP(t *testing.T, path, body string, header http.Header) testenv.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), "POST", f.e.Server.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header[k] = v
	}
	return f.e.Send(req)
}

func TestMCPServerHostileInputs(t *testing.T) {
	f := newSiteFixture(t)
	f.publishAcme(t, site.VisibilityPublic)
	cs := f.mustConnect(t, mcpAt, agent{})
	for name, query := range map[string]string{"long": strings.Repeat("word ", 2000), "blank": "  ", "operators": `"" OR * NEAR(-) ^`} {
		if text, failed := call(t, cs, "search", map[string]any{"query": query}); name != "operators" && !failed {
			t.Errorf("%s query: %s", name, text)
		}
	}
	call := func(params string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`
	}
	for name, body := range map[string]string{
		"invalid UTF-8":  call(`{"name":"search","arguments":{"query":"` + "\xff\xfe\xfd" + `"}}`),
		"huge query":     call(`{"name":"search","arguments":{"query":"` + strings.Repeat("a", 100_000) + `"}}`),
		"batch":          "  [" + strings.Repeat(call(`{"name":"list_pages","arguments":{}}`)+",", 99) + call(`{"name":"list_pages","arguments":{}}`) + "]",
		"huge batch":     "[" + strings.Repeat(call(`{"name":"list_pages","arguments":{}}`)+",", 999) + call(`{"name":"list_pages","arguments":{}}`) + "]",
		"nested":         strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000),
		"not JSON":       "{",
		"unknown tool":   call(`{"name":"delete_site","arguments":{}}`),
		"wrong argument": call(`{"name":"get_page","arguments":{"url":42}}`),
	} {
		res := f.postMCP(t, mcpAt, body, nil)
		if strings.Contains(name, "batch") && res.Status < 400 {
			t.Errorf("%s is run: %d", name, res.Status)
		}
		if res.Status >= 500 || res.Status == 200 && !strings.Contains(string(res.Body), `"error"`) && !strings.Contains(string(res.Body), `"isError":true`) {
			t.Errorf("%s: %d %.300s", name, res.Status, res.Body)
		}
		if res.Status >= 400 && res.Header.Get("Content-Type") != "application/json" && !strings.Contains(string(res.Body), `"code":`) {
			t.Errorf("%s: an error not as JSON: %d %.300s", name, res.Status, res.Body)
		}
	}
	if res := f.postMCP(t, mcpAt, "[]", nil); res.Status != 400 || !strings.Contains(string(res.Body), "batches are not accepted") {
		t.Errorf("a batch: %d %s", res.Status, res.Body)
	}
	res := f.e.Do(testenv.Actor{}, "GET", mcpAt, nil)
	if res.Status != http.StatusMethodNotAllowed || !strings.Contains(string(res.Body), `"code":405`) {
		t.Errorf("GET: %d %s", res.Status, res.Body)
	}
}

func TestMCPServerNoCrossSiteReads(t *testing.T) {
	f := newSiteFixture(t)
	f.publishAcme(t, site.VisibilityPublic)
	other := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "Other"}))
	f.writeTo(t, other, page("Confidential", "Zanzibar plans."))
	otherSite := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites", map[string]any{"title": "Other", "spaces": []string{other}}))
	f.e.Store.Client.Site.UpdateOneID(otherSite).SetPublished(true).SetBasename("other").
		SetVisibility(site.VisibilityShareLink).ExecX(accounts.System(context.Background()))
	cs := f.mustConnect(t, mcpAt, agent{})
	if text, _ := call(t, cs, "search", map[string]any{"query": "Zanzibar"}); strings.Contains(text, "Confidential") {
		t.Errorf("search reads another site: %s", text)
	}
	for _, u := range []string{"/sites/other/confidential", f.e.Server.URL + "/sites/other/confidential", "../other/confidential"} {
		if text, failed := call(t, cs, "get_page", map[string]any{"url": u}); !failed || strings.Contains(text, "Zanzibar") {
			t.Errorf("get_page %s reads another site: %s", u, text)
		}
	}
	f.e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/sites/"+otherSite+"/customization", map[string]any{"mcp": map[string]any{"enabled": true}})
	if _, err := f.connect(t, "/sites/other/~gitbook/mcp", agent{}); err == nil {
		t.Error("a share-link site's MCP server opens without its key")
	}
}

func TestMCPServerRateLimited(t *testing.T) {
	f := newSiteFixture(t, func(o *server.Options) {
		o.RateLimits = ratelimit.Limits{Sites: 40, Window: time.Hour}
	})
	f.publishAcme(t, site.VisibilityPublic)
	status := 0
	for range 20 {
		if status = f.postMCP(t, mcpAt, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil).Status; status == http.StatusTooManyRequests {
			break
		}
	}
	if status != http.StatusTooManyRequests {
		t.Fatalf("the MCP server is not rate-limited: %d", status)
	}
	if res := f.e.Do(testenv.Actor{}, "GET", "/sites/acme/", nil); res.Status != http.StatusTooManyRequests {
		t.Errorf("the MCP server draws on another budget than the site's pages: %d", res.Status)
	}
}

func TestMCPServerSettings(t *testing.T) {
	f := newSiteFixture(t)
	f.publishAcme(t, site.VisibilityShareLink)
	created := f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites/"+f.site+"/share-links", map[string]any{"name": "Agents"}).Map(t)
	published, _ := url.Parse(created["urls"].(map[string]any)["published"].(string))
	withKey := mcpAt + "?" + published.RawQuery
	if res := f.postMCP(t, withKey, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil); res.Status != 404 ||
		!strings.Contains(string(res.Body), "this site has no MCP server") {
		t.Fatalf("a share-link site has an MCP server by default: %d %s", res.Status, res.Body)
	}
	f.setMCP(t, map[string]any{"enabled": true, "tools": []string{"list_pages", "search"}})
	tools, err := f.mustConnect(t, withKey, agent{}).ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) != 2 || tools.Tools[0].Name != "list_pages" || tools.Tools[1].Name != "search" || tools.CacheScope != "private" {
		t.Fatalf("the tools the settings name: %v %+v", err, tools)
	}
	if r := f.e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/sites/"+f.site+"/customization", map[string]any{"mcp": map[string]any{"tools": []string{"delete_site"}}}); r.Status != 400 ||
		!strings.Contains(string(r.Body), "mcp.tools[0]") {
		t.Errorf("an unknown tool: %d %s", r.Status, r.Body)
	}

	f.publishAcme(t, site.VisibilityPublic)
	cs := f.mustConnect(t, mcpAt, agent{}) // the settings set no mcp.enabled again: a public site's default
	gql := f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $v: JSON!) { updateSiteCustomization(organizationId: $o, siteId: $s, settings: $v) }`,
		map[string]any{"o": f.org, "s": f.site, "v": map[string]any{"mcp": map[string]any{"enabled": false}}})
	if len(gql.Errors) > 0 {
		t.Fatalf("GraphQL: %+v", gql.Errors)
	}
	if _, err := cs.ListTools(t.Context(), nil); err == nil {
		t.Fatal("a site whose MCP server was turned off still answers")
	}
	if custom := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/sites/"+f.site+"/customization", nil).Map(t); custom["mcp"].(map[string]any)["enabled"] != false {
		t.Errorf("the customization read back: %v", custom["mcp"])
	}
}

func TestMCPServerOpenAPIOperation(t *testing.T) {
	f := newSiteFixture(t)
	f.publishAcme(t, site.VisibilityPublic)
	specs := "/v1/orgs/" + f.org + "/openapi"
	if r := f.e.Do(f.admin, "POST", specs, map[string]any{"slug": "petstore", "source": map[string]any{"text": petstoreSpec("Update a pet")}}); r.Status != http.StatusCreated {
		t.Fatalf("create spec: %d %s", r.Status, r.Body)
	}
	f.e.RunDueJobs()
	f.write(t, map[string]any{"operation": "insert_page", "title": "Pets", "document": operationDoc("petstore", "/pets/{petId}", "put")})
	cs := f.mustConnect(t, mcpAt, agent{})
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) != 4 || tools.Tools[0].Name != "get_openapi_operation" || !strings.Contains(tools.Tools[0].Description, "PUT /pets/{petId}") {
		t.Fatalf("tools: %v %+v", err, tools)
	}
	text, failed := call(t, cs, "get_openapi_operation", map[string]any{"method": "put", "path": "/pets/{petId}"})
	for _, want := range []string{"### `PUT /pets/{petId}`", "| `petId` | path | integer | yes |", "curl -X PUT",
		"Documented at " + f.e.Server.URL + "/sites/acme/pets"} {
		if failed || !strings.Contains(text, want) {
			t.Errorf("the operation lacks %s:\n%s", want, text)
		}
	}
	if text, failed := call(t, cs, "get_openapi_operation", map[string]any{"method": "GET", "path": "/pets/{petId}"}); !failed ||
		text != "the site documents no operation GET /pets/{petId}" {
		t.Errorf("an operation no page documents: %s", text)
	}
}

func TestMCPServerAdaptiveContent(t *testing.T) {
	f := newSiteFixture(t)
	beta := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "Beta"}))
	f.writeTo(t, beta, page("Beta features", "Try the zeppelins."))
	f.addSiteSpace(t, beta)
	setBetaCondition(t, f, beta)
	without := f.mustConnect(t, mcpAt, agent{})
	if text, _ := call(t, without, "list_pages", map[string]any{}); strings.Contains(text, "Beta") {
		t.Errorf("an agent without the claim sees the beta variant: %s", text)
	}
	if text, _ := call(t, without, "search", map[string]any{"query": "zeppelins"}); strings.Contains(text, "Beta features") {
		t.Errorf("an agent without the claim finds the beta variant: %s", text)
	}
	if _, failed := call(t, without, "get_page", map[string]any{"url": "/sites/acme/api/"}); !failed {
		t.Error("an agent without the claim reads the beta variant")
	}
	with := f.mustConnect(t, mcpAt+"?visitor.beta=true", agent{})
	if text, failed := call(t, with, "get_page", map[string]any{"url": "/sites/acme/api/"}); failed || !strings.HasPrefix(text, "# Beta features") {
		t.Errorf("an agent with the claim: %s", text)
	}
	if text, _ := call(t, with, "search", map[string]any{"query": "zeppelins"}); !strings.Contains(text, f.e.Server.URL+"/sites/acme/api/") {
		t.Errorf("an agent with the claim does not find the beta variant: %s", text)
	}
}
