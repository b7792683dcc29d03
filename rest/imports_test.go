package rest_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/crawl"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// logoPNG is the bytes the test site serves as its logo.
var logoPNG = []byte("\x89PNG\r\n\x1a\n fake image bytes")

// docsSite is a small documentation site: a home page, a guide with a nested page, an API page
// under a path with no page of its own, an image, and a redirect to redirectTo.
func docsSite(redirectTo string) http.Handler {
	return fetchtest.Site{Pages: map[string]string{
		"/": `<html><head><title>Acme docs</title></head><body><nav><a href="/guide/">Guide</a><a href="/api/users">Users</a></nav>
			<main><h1>Welcome</h1><p>Start with the <a href="/guide/">guide</a>. <img src="/img/logo.png" alt="Logo"></p></main></body></html>`,
		"/guide/": `<main><h1>Guide</h1><ol><li><a href="install">Install</a></li><li>Run</li></ol></main>`,
		"/guide/install": `<main><h1>Install</h1><pre><code class="language-sh">go install ./...
</code></pre><table><tr><th>OS</th><th>Status</th></tr><tr><td>Linux</td><td>ok</td></tr></table>
			<p>Back <a href="/">home</a>, see <a href="../api/users#list">listing users</a>. <img src="../img/logo.png"></p></main>`,
		"/api/users": `<main><h1>Users</h1><h2 id="list">List</h2><p>GET /users</p></main>`,
	}, Files: map[string]fetchtest.File{"/img/logo.png": {ContentType: "image/png", Data: logoPNG}},
		Redirects: map[string]string{"/away": redirectTo}}
}

// serveSite serves h on addr (a loopback address) and returns its URL.
func serveSite(t *testing.T, addr string, h http.Handler) string {
	return fetchtest.Serve(t, addr, h).URL
}

// allowFetch is the server option --fetch-allow=list.
func allowFetch(t *testing.T, list string) func(*server.Options) {
	allow, err := fetch.ParseAllow(list)
	if err != nil {
		t.Fatal(err)
	}
	return func(o *server.Options) { o.FetchAllow = allow }
}

// importFixture is an organization with a space, change request 1, a reviewer (who may import into
// the main content), an editor (into change requests) and a reader.
type importFixture struct {
	e                                       *testenv.Env
	admin, reviewer, editor, reader, outsdr testenv.Actor
	org, space                              string
}

func newImportFixture(t *testing.T, opts ...func(*server.Options)) *importFixture {
	t.Helper()
	e := testenv.New(t, opts...)
	f := &importFixture{e: e}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.reviewer = e.User("eve@example.com", f.org, testenv.Role(viewer.RoleReview))
	f.editor = e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
	f.reader = e.User("rob@example.com", f.org, testenv.Role(viewer.RoleRead))
	f.outsdr, _ = e.Bootstrap("zed@zeta.io", "Zeta")
	f.space = createSpace(t, e, f.admin, f.org, map[string]any{"title": "Docs"})["id"].(string)
	crWant(t, e.Do(f.admin, "POST", f.path("/change-requests"), map[string]any{"subject": "Import"}), http.StatusCreated)
	return f
}

func (f *importFixture) path(suffix string) string { return "/v1/spaces/" + f.space + suffix }

// importResultSchema is spec/02's answer of an import (the reference client has no such operation),
// with Bindery's own dialect and report beside it (decision 384).
var importResultSchema = func() *jsonschema.Schema {
	strings := map[string]any{"type": "array", "items": map[string]any{"type": "string"}}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("import.json", map[string]any{
		"type": "object", "required": []any{"revision", "importedResources", "totalResources", "dialect", "report"},
		"additionalProperties": false,
		"properties": map[string]any{"revision": map[string]any{"type": "string", "minLength": 1},
			"importedResources": map[string]any{"type": "number"}, "totalResources": map[string]any{"type": "number"},
			"dialect": map[string]any{"enum": []any{"markdown", "docusaurus", "mkdocs", "gitbook", "website"}},
			"report": map[string]any{"type": "array", "items": map[string]any{
				"type": "object", "required": []any{"path", "result", "converted", "warnings"}, "additionalProperties": false,
				"properties": map[string]any{"path": map[string]any{"type": "string", "minLength": 1},
					"result":    map[string]any{"enum": []any{"page", "file", "layout", "skipped"}},
					"converted": strings, "warnings": strings}}}},
	}); err != nil {
		panic(err)
	}
	return c.MustCompile("import.json")
}()

type importAnswer struct {
	Revision                          string
	ImportedResources, TotalResources int
}

// imports posts an import, expects 201 and a valid answer.
func (f *importFixture) imports(t *testing.T, a testenv.Actor, target string, body any) importAnswer {
	t.Helper()
	var out importAnswer
	f.importResponse(t, a, target, body).JSON(t, &out)
	return out
}

// importResponse posts an import, expects 201 and returns the answer, checked against its schema.
func (f *importFixture) importResponse(t *testing.T, a testenv.Actor, target string, body any) testenv.Response {
	t.Helper()
	r := f.e.Do(a, "POST", f.path(target+"/content/import"), body)
	crWant(t, r, http.StatusCreated)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	if err := importResultSchema.Validate(doc); err != nil {
		t.Fatalf("answer %s: %v", r.Body, err)
	}
	return r
}

// content reads the page tree and the files of the space's content (target "") or a change request's.
func (f *importFixture) content(t *testing.T, target string) ([]wirePage, []wireFile) {
	t.Helper()
	var tr struct{ Pages []wirePage }
	r := f.e.Do(f.admin, "GET", f.path(target+"/content/pages"), nil)
	crWant(t, r, http.StatusOK)
	r.JSON(t, &tr)
	var files struct{ Items []wireFile }
	r = f.e.Do(f.admin, "GET", f.path(target+"/content/files"), nil)
	crWant(t, r, http.StatusOK)
	r.JSON(t, &files)
	return tr.Pages, files.Items
}

// markdownOf reads a page's Markdown.
func (f *importFixture) markdownOf(t *testing.T, target, page string) string {
	t.Helper()
	var p wirePage
	r := f.e.Do(f.admin, "GET", f.path(target+"/content/page/"+page+"?format=markdown"), nil)
	crWant(t, r, http.StatusOK)
	r.JSON(t, &p)
	return *p.Markdown
}

func byPath(pages []wirePage) map[string]string {
	ids := map[string]string{}
	walkPages(pages, func(p wirePage) { ids[p.Path] = p.ID })
	return ids
}

func TestImportWebsite(t *testing.T) {
	site := serveSite(t, "127.0.0.2", docsSite("/"))
	f := newImportFixture(t, allowFetch(t, "127.0.0.2"))
	before := f.e.Do(f.admin, "GET", f.path(""), nil).Map(t)["revision"].(string)
	got := f.imports(t, f.reviewer, "", map[string]any{"source": "website", "url": site + "/"})
	if got.ImportedResources != 5 || got.TotalResources != 5 {
		t.Fatalf("imported %d of %d, want the 4 pages and the image", got.ImportedResources, got.TotalResources)
	}
	space := f.e.Do(f.admin, "GET", f.path(""), nil).Map(t)
	if space["revision"] != got.Revision || got.Revision == before {
		t.Fatalf("the space's revision is %v, the import made %s", space["revision"], got.Revision)
	}
	pages, files := f.content(t, "")
	if s := shape(pages); s != "welcome, guide(guide/install), users" {
		t.Fatalf("pages: %s", s)
	}
	if len(files) != 1 || files[0].Name != "logo.png" || files[0].ContentType != "image/png" || files[0].Size != len(logoPNG) {
		t.Fatalf("files: %+v", files)
	}
	if _, body := download(t, f.e, files[0].DownloadURL); !bytes.Equal(body, logoPNG) {
		t.Fatalf("the image's bytes: %q", body)
	}
	ids, logo := byPath(pages), files[0].ID
	for path, wants := range map[string][]string{
		"welcome": {"# Welcome", "[guide](/pages/" + ids["guide"] + ")", "![Logo](/files/" + logo + ")"},
		"guide":   {"1. [Install](/pages/" + ids["guide/install"] + ")"},
		"guide/install": {"```sh\ngo install ./...\n```", "| OS    | Status |\n|-------|--------|\n| Linux | ok     |", "[home](/pages/" + ids["welcome"] + ")",
			"[listing users](/pages/" + ids["users"] + "#list)", "![](/files/" + logo + ")"},
		"users": {"## List"},
	} {
		md := f.markdownOf(t, "", ids[path])
		for _, w := range wants {
			if !strings.Contains(md, w) {
				t.Errorf("%s lacks %q:\n%s", path, w, md)
			}
		}
	}
	t.Run("OKRevisionTypeImport", func(t *testing.T) {
		var d struct {
			Space struct{ Revision struct{ ID, Type string } }
		}
		gqlOK(t, f.e.GraphQL(f.admin, `query($s: ID!) { space(id: $s) { revision { id type } } }`, map[string]any{"s": f.space}), &d)
		if d.Space.Revision.ID != got.Revision || d.Space.Revision.Type != "import" {
			t.Fatalf("revision %+v", d.Space.Revision)
		}
	})
	// A second import adds its pages after those there; the start page nests under its parent.
	t.Run("OKAgainAddsAfterwards", func(t *testing.T) {
		f.imports(t, f.reviewer, "", map[string]any{"source": "website", "url": site + "/guide/install"})
		pages, _ := f.content(t, "")
		if s := shape(pages); s != "welcome, guide(guide/install), users, welcome-2, users-2, guide-2(guide-2/install)" {
			t.Fatalf("pages: %s", s)
		}
	})
}

func TestImportWebsiteBounds(t *testing.T) {
	site := serveSite(t, "127.0.0.2", docsSite("/"))
	f := newImportFixture(t, allowFetch(t, "127.0.0.2"), func(o *server.Options) {
		o.ImportLimits = crawl.DefaultLimits
		o.ImportLimits.MaxPages, o.ImportLimits.MaxFiles = 2, 0
	})
	got := f.imports(t, f.admin, "", map[string]any{"source": "website", "url": site + "/"})
	if got.ImportedResources != 2 || got.TotalResources != 5 {
		t.Fatalf("imported %d of %d, want 2 of the 4 pages met and the image", got.ImportedResources, got.TotalResources)
	}
	pages, files := f.content(t, "")
	ids := byPath(pages)
	if s := shape(pages); s != "welcome, guide" || len(files) != 0 {
		t.Fatalf("pages %s, %d files", s, len(files))
	}
	// Links to what was left out lead to the site itself.
	if md := f.markdownOf(t, "", ids["welcome"]); !strings.Contains(md, "![Logo]("+site+"/img/logo.png)") {
		t.Errorf("the image's link: %s", md)
	}
	if md := f.markdownOf(t, "", ids["guide"]); !strings.Contains(md, "[Install]("+site+"/guide/install)") {
		t.Errorf("the link to a page left out: %s", md)
	}
}

func TestImportRefusesPrivateAddresses(t *testing.T) {
	loopback := serveSite(t, "127.0.0.1", docsSite("/"))
	allowed := serveSite(t, "127.0.0.2", docsSite(loopback+"/"))
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(loopback, "http://"))
	tests := []struct {
		name, allow, url string
	}{
		{"ErrLoopbackWithoutTheAllowList", "", allowed + "/"},
		{"ErrOtherLoopbackThanTheAllowedOne", "127.0.0.2", loopback + "/"},
		{"ErrNameOfALoopbackAddress", "127.0.0.2", "http://localhost:" + port + "/"},
		{"ErrRedirectToLoopback", "127.0.0.2", allowed + "/away"},
		{"ErrMetadataAddress", "127.0.0.2", "http://169.254.169.254/latest/meta-data/"},
		{"ErrPrivateAddress", "127.0.0.2", "http://10.0.0.1/"},
		{"ErrIPv6MetadataAddress", "127.0.0.2", "http://[fd00:ec2::254]/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newImportFixture(t, allowFetch(t, tt.allow))
			before := f.e.Do(f.admin, "GET", f.path(""), nil).Map(t)["revision"]
			crWantError(t, f.e.Do(f.admin, "POST", f.path("/content/import"), map[string]any{"source": "website", "url": tt.url}),
				http.StatusBadRequest, "url:", "refused", "--fetch-allow")
			if after := f.e.Do(f.admin, "GET", f.path(""), nil).Map(t)["revision"]; after != before {
				t.Fatalf("the revision moved")
			}
		})
	}
}

func TestImportInputErrors(t *testing.T) {
	f := newImportFixture(t)
	md := base64.StdEncoding.EncodeToString([]byte("# A"))
	tests := []struct {
		name  string
		body  any
		words []string
	}{
		{"ErrNoSource", map[string]any{"url": "https://example.com"}, []string{"source: is required"}},
		{"ErrUnknownSource", map[string]any{"source": "git"}, []string{"source:", "website, markdown"}},
		{"ErrNoURL", map[string]any{"source": "website"}, []string{"url: is required"}},
		{"ErrRelativeURL", map[string]any{"source": "website", "url": "/docs"}, []string{"url:", "absolute http or https"}},
		{"ErrFileURL", map[string]any{"source": "website", "url": "file:///etc/passwd"}, []string{"url:", "absolute http or https"}},
		{"ErrCredentials", map[string]any{"source": "website", "url": "https://u:p@example.com/"}, []string{"without credentials"}},
		{"ErrURLTooLong", map[string]any{"source": "website", "url": "https://example.com/" + strings.Repeat("a", 2048)}, []string{"at most 2048"}},
		{"ErrFilesWithWebsite", map[string]any{"source": "website", "url": "https://example.com", "files": []any{}}, []string{"only with source markdown"}},
		{"ErrURLWithMarkdown", map[string]any{"source": "markdown", "url": "https://example.com"}, []string{"url: only with source website"}},
		{"ErrNeitherFilesNorZip", map[string]any{"source": "markdown"}, []string{"files, zip:"}},
		{"ErrBothFilesAndZip", map[string]any{"source": "markdown", "zip": "", "files": []any{}}, []string{"files, zip:"}},
		{"ErrBadBase64", map[string]any{"source": "markdown", "files": []any{map[string]any{"path": "a.md", "base64": "%%"}}}, []string{"files[0].base64:"}},
		{"ErrNotAZip", map[string]any{"source": "markdown", "zip": md}, []string{"zip: not a zip archive"}},
		{"ErrPathOutside", map[string]any{"source": "markdown", "files": []any{map[string]any{"path": "../a.md", "base64": md}}}, []string{"files:", "inside the upload"}},
		{"ErrNoMarkdown", map[string]any{"source": "markdown", "files": []any{map[string]any{"path": "a.png", "base64": md}}}, []string{"no Markdown file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			crWantError(t, f.e.Do(f.admin, "POST", f.path("/content/import"), tt.body), http.StatusBadRequest, tt.words...)
		})
	}
}

// markdownBook is a small book of uploaded Markdown files.
var markdownBook = []map[string]string{
	{"path": "README.md", "text": "# Welcome\n\nRead the [guide](guide/README.md).\n"},
	{"path": "guide/README.md", "text": "# Guide\n\n![diagram](../images/diagram.png)\n\nThen [install](install.md#steps).\n"},
	{"path": "guide/install.md", "text": "# Install\n\n## Steps\n\nBack to [welcome](../README.md).\n"},
	{"path": "images/diagram.png", "text": "PNG bytes"},
}

func bookFiles() []any {
	var out []any
	for _, f := range markdownBook {
		out = append(out, map[string]any{"path": f["path"], "base64": base64.StdEncoding.EncodeToString([]byte(f["text"]))})
	}
	return out
}

func bookZip(t *testing.T) string {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, f := range markdownBook {
		fw, err := w.Create(f["path"])
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(f["text"]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestImportMarkdown(t *testing.T) {
	for _, tt := range []struct {
		name, target string
		body         func(t *testing.T) map[string]any
	}{
		{"OKFilesIntoTheSpace", "", func(*testing.T) map[string]any { return map[string]any{"source": "markdown", "files": bookFiles()} }},
		{"OKZipIntoAChangeRequest", "/change-requests/1", func(t *testing.T) map[string]any {
			return map[string]any{"source": "markdown", "zip": bookZip(t)}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newImportFixture(t)
			mainBefore := f.e.Do(f.admin, "GET", f.path(""), nil).Map(t)["revision"]
			got := f.imports(t, f.reviewer, tt.target, tt.body(t))
			if got.ImportedResources != 4 || got.TotalResources != 4 {
				t.Fatalf("imported %d of %d", got.ImportedResources, got.TotalResources)
			}
			pages, files := f.content(t, tt.target)
			if s := shape(pages); s != "welcome, guide(guide/install)" || len(files) != 1 || files[0].Name != "diagram.png" {
				t.Fatalf("pages %s, files %+v", s, files)
			}
			ids := byPath(pages)
			if md := f.markdownOf(t, tt.target, ids["guide"]); !strings.Contains(md, "![diagram](/files/"+files[0].ID+")") ||
				!strings.Contains(md, "[install](/pages/"+ids["guide/install"]+"#steps)") {
				t.Errorf("guide: %s", md)
			}
			if md := f.markdownOf(t, tt.target, ids["guide/install"]); !strings.Contains(md, "[welcome](/pages/"+ids["welcome"]+")") {
				t.Errorf("install: %s", md)
			}
			mainAfter := f.e.Do(f.admin, "GET", f.path(""), nil).Map(t)["revision"]
			if tt.target != "" {
				cr := f.e.Do(f.admin, "GET", f.path(tt.target), nil).Map(t)
				if cr["revision"] != got.Revision || mainAfter != mainBefore {
					t.Fatalf("change request revision %v, import %s; main moved: %v", cr["revision"], got.Revision, mainAfter != mainBefore)
				}
			}
		})
	}
}

func TestImportRoles(t *testing.T) {
	f := newImportFixture(t)
	body := map[string]any{"source": "markdown", "files": bookFiles()}
	t.Run("EditorIntoChangeRequestOnly", func(t *testing.T) {
		crWantError(t, f.e.Do(f.editor, "POST", f.path("/content/import"), body), http.StatusForbidden, "review role")
		crWant(t, f.e.Do(f.editor, "POST", f.path("/change-requests/1/content/import"), body), http.StatusCreated)
	})
	for _, target := range []string{"", "/change-requests/1"} {
		t.Run("ErrReader"+target, func(t *testing.T) {
			crWantError(t, f.e.Do(f.reader, "POST", f.path(target+"/content/import"), body), http.StatusForbidden, "role", "import")
		})
		t.Run("ErrOutsider"+target, func(t *testing.T) {
			testenv.CheckError(t, f.e.Do(f.outsdr, "POST", f.path(target+"/content/import"), body), http.StatusNotFound)
		})
		t.Run("ErrLocked"+target, func(t *testing.T) {
			crWant(t, f.e.Do(f.admin, "PATCH", f.path(""), map[string]any{"editMode": "locked"}), http.StatusOK)
			defer func() {
				crWant(t, f.e.Do(f.admin, "PATCH", f.path(""), map[string]any{"editMode": "live"}), http.StatusOK)
			}()
			crWantError(t, f.e.Do(f.reviewer, "POST", f.path(target+"/content/import"), body), http.StatusForbidden, "locked")
		})
	}
	t.Run("ErrMergedChangeRequest", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "POST", f.path("/change-requests"), map[string]any{"subject": "Done"}), http.StatusCreated)
		crWant(t, f.e.Do(f.admin, "POST", f.path("/change-requests/2/merge"), nil), http.StatusOK)
		crWantError(t, f.e.Do(f.reviewer, "POST", f.path("/change-requests/2/content/import"), body), http.StatusBadRequest, "merged")
	})
	t.Run("NothingChanged", func(t *testing.T) {
		if pages, _ := f.content(t, ""); len(pages) != 0 {
			t.Fatalf("pages: %s", shape(pages))
		}
	})
}

func TestImportGraphQL(t *testing.T) {
	site := serveSite(t, "127.0.0.2", docsSite("/"))
	f := newImportFixture(t, allowFetch(t, "127.0.0.2"))
	const space = `mutation($s: ID!, $in: ContentImportInput!) {
		importContent(spaceId: $s, input: $in) { revision { id type } importedResources totalResources } }`
	const changeRequest = `mutation($s: ID!, $in: ContentImportInput!) {
		importChangeRequestContent(spaceId: $s, changeRequest: "1", input: $in) { revision { id type } importedResources totalResources } }`
	type answer struct {
		Revision                          struct{ ID, Type string }
		ImportedResources, TotalResources int
	}
	t.Run("OKWebsiteIntoAChangeRequest", func(t *testing.T) {
		var d struct{ ImportChangeRequestContent answer }
		gqlOK(t, f.e.GraphQL(f.reviewer, changeRequest, map[string]any{"s": f.space, "in": map[string]any{"source": "website", "url": site + "/"}}), &d)
		if a := d.ImportChangeRequestContent; a.Revision.Type != "import" || a.ImportedResources != 5 || a.TotalResources != 5 {
			t.Fatalf("answer %+v", a)
		}
		if pages, _ := f.content(t, "/change-requests/1"); shape(pages) != "welcome, guide(guide/install), users" {
			t.Fatalf("pages: %s", shape(pages))
		}
	})
	t.Run("OKMarkdownIntoTheSpace", func(t *testing.T) {
		var d struct{ ImportContent answer }
		gqlOK(t, f.e.GraphQL(f.reviewer, space, map[string]any{"s": f.space, "in": map[string]any{"source": "markdown", "files": bookFiles()}}), &d)
		if a := d.ImportContent; a.Revision.Type != "import" || a.ImportedResources != 4 {
			t.Fatalf("answer %+v", a)
		}
	})
	for name, tt := range map[string]struct {
		actor testenv.Actor
		in    map[string]any
		code  string
	}{
		"ErrRefusedAddress": {f.reviewer, map[string]any{"source": "website", "url": "http://127.0.0.1:1/"}, "BAD_REQUEST"},
		"ErrReader":         {f.reader, map[string]any{"source": "markdown", "files": bookFiles()}, "FORBIDDEN"},
		"ErrOutsider":       {f.outsdr, map[string]any{"source": "markdown", "files": bookFiles()}, "NOT_FOUND"},
	} {
		t.Run(name, func(t *testing.T) {
			g := f.e.GraphQL(tt.actor, space, map[string]any{"s": f.space, "in": tt.in})
			if g.Code() != tt.code {
				data, _ := json.Marshal(g.Errors)
				t.Fatalf("code %q, want %s: %s", g.Code(), tt.code, data)
			}
		})
	}
}

// TestImportUnreachableSaysOnlyThat: an import from a closed port or a name that does not resolve
// answers "could not connect to HOST", nothing of ports, addresses or DNS servers.
func TestImportUnreachableSaysOnlyThat(t *testing.T) {
	closed := closedPort(t)
	f := newImportFixture(t, allowFetch(t, "127.0.0.2,no-such-host.invalid"))
	for _, host := range []string{closed, "no-such-host.invalid"} {
		r := f.e.Do(f.admin, "POST", f.path("/content/import"), map[string]any{"source": "website", "url": "http://" + host + "/"})
		if msg := testenv.CheckError(t, r, http.StatusBadRequest); msg != "url: could not be imported: could not connect to "+host {
			t.Errorf("message %q", msg)
		}
	}
}
