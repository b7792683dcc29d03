package rest_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// contentFixture is a space whose content came in through change request 1, written with the
// content endpoint and merged: pages guides/{getting-started, café} and api, and two files.
type contentFixture struct {
	e                               *testenv.Env
	clock                           *testenv.Clock
	admin, reader, guest, outsider  testenv.Actor
	org, space, initial, crRevision string
	pages                           map[string]string // path → id
	files                           map[string]string // name → id
}

// Files of the fixture: every byte value, and a name that needs quoting and encoding.
var (
	logoBytes = func() []byte {
		b := make([]byte, 512)
		for i := range b {
			b[i] = byte(i * 7)
		}
		return b
	}()
	notesName  = `résumé "final".txt`
	notesBytes = []byte("line one\r\nline two\x00\n")
)

func newContentFixture(t *testing.T, opts ...func(*server.Options)) *contentFixture {
	t.Helper()
	clock := testenv.NewClock(time.Now().UTC())
	e := testenv.New(t, append([]func(*server.Options){func(o *server.Options) { o.Clock = clock.Now }}, opts...)...)
	f := &contentFixture{e: e, clock: clock, pages: map[string]string{}, files: map[string]string{}}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.reader = e.User("rob@example.com", f.org, testenv.Role(viewer.RoleRead))
	f.guest = e.User("gus@example.com", f.org, nil)
	f.outsider, _ = e.Bootstrap("zed@zeta.io", "Zeta")
	s := createSpace(t, e, f.admin, f.org, map[string]any{"title": "Docs"})
	f.space, f.initial = s["id"].(string), s["revision"].(string)
	crWant(t, e.Do(f.admin, "POST", f.spacePath("/change-requests"), map[string]any{"subject": "First pages"}), http.StatusCreated)
	md := func(s string) map[string]any { return map[string]any{"markdown": s} }
	crWant(t, e.Do(f.admin, "POST", f.spacePath("/change-requests/1/content"), map[string]any{"changes": []any{
		map[string]any{"operation": "insert_page", "ref": "guides", "document": md("# Guides\n\nEvery guide.\n")},
		map[string]any{"operation": "insert_page", "into": "guides", "document": md("# Getting started\n\nInstall, then **run**.\n")},
		map[string]any{"operation": "insert_page", "into": "guides", "slug": "café", "document": md("# Café\n\nCrème brûlée.\n")},
		map[string]any{"operation": "insert_page", "emoji": "🚀", "description": "The API.", "document": md("# API\n\nEndpoints.\n")},
		map[string]any{"operation": "insert_files", "files": []any{
			map[string]any{"name": "logo.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(logoBytes)},
			map[string]any{"name": notesName, "contentType": "text/plain; charset=utf-8", "base64": base64.StdEncoding.EncodeToString(notesBytes)},
		}},
	}}), http.StatusOK)
	f.crRevision = e.Do(f.admin, "GET", f.spacePath("/change-requests/1"), nil).Map(t)["revision"].(string)
	crWant(t, e.Do(f.admin, "POST", f.spacePath("/change-requests/1/merge"), nil), http.StatusOK)
	var tr struct{ Pages []wirePage }
	f.get(t, f.admin, "/content/pages").JSON(t, &tr)
	walkPages(tr.Pages, func(p wirePage) { f.pages[p.Path] = p.ID })
	var files struct{ Items []wireFile }
	f.get(t, f.admin, "/content/files").JSON(t, &files)
	for _, file := range files.Items {
		f.files[file.Name] = file.ID
	}
	return f
}

func (f *contentFixture) spacePath(suffix string) string { return "/v1/spaces/" + f.space + suffix }

// get reads a path of the fixture's space as a, which must succeed.
func (f *contentFixture) get(t *testing.T, a testenv.Actor, suffix string) testenv.Response {
	t.Helper()
	r := f.e.Do(a, "GET", f.spacePath(suffix), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", suffix, r.Status, r.Body)
	}
	return r
}

// wirePage is what the tests read of a RevisionPage.
type wirePage struct {
	ID, Title, Kind, Type, Slug, Path, Emoji, Description, DocumentID string
	Markdown                                                          *string
	URLs                                                              *struct{ App string }
	Layout                                                            map[string]any
	Pages                                                             []wirePage
}

type wireFile struct {
	ID, Name, ContentType, DownloadURL string
	Size                               int
}

func walkPages(pages []wirePage, fn func(wirePage)) {
	for _, p := range pages {
		fn(p)
		walkPages(p.Pages, fn)
	}
}

// shape is a page tree as "path(child path, …)" lines, for comparing trees at a glance.
func shape(pages []wirePage) string {
	var parts []string
	for _, p := range pages {
		part := p.Path
		if len(p.Pages) > 0 {
			part += "(" + shape(p.Pages) + ")"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

const fixtureShape = "guides(guides/getting-started, guides/café), api"

func TestContentRevision(t *testing.T) {
	f := newContentFixture(t)
	space := f.get(t, f.admin, "").Map(t)
	t.Run("OKSpace", func(t *testing.T) {
		var rev struct {
			Object, ID, Type string
			Parents          []string
			Pages            []wirePage
			Files            []wireFile
			URLs             struct{ App string }
			MergedFrom       *struct{ Number int }
		}
		f.get(t, f.admin, "/content").JSON(t, &rev)
		if rev.Object != "revision" || rev.ID != space["revision"] || rev.Type != "merge" || len(rev.Parents) != 2 {
			t.Fatalf("revision %+v, want the space's merge revision %v", rev, space["revision"])
		}
		if rev.MergedFrom == nil || rev.MergedFrom.Number != 1 {
			t.Fatalf("mergedFrom = %+v, want change request 1", rev.MergedFrom)
		}
		if got := shape(rev.Pages); got != fixtureShape {
			t.Fatalf("pages %s, want %s", got, fixtureShape)
		}
		if len(rev.Files) != 2 || rev.Files[0].Name != "logo.png" || !strings.HasPrefix(rev.Files[0].DownloadURL, f.e.Server.URL+"/files/") {
			t.Fatalf("files %+v", rev.Files)
		}
		if want := f.e.Server.URL + "/o/" + f.org + "/s/" + f.space; rev.URLs.App != want {
			t.Fatalf("urls.app %s, want %s", rev.URLs.App, want)
		}
	})
	t.Run("OKChangeRequestByNumberAndID", func(t *testing.T) {
		cr := f.get(t, f.admin, "/change-requests/1").Map(t)
		for _, ref := range []string{"1", cr["id"].(string)} {
			rev := f.get(t, f.admin, "/change-requests/"+ref+"/content").Map(t)
			if rev["id"] != f.crRevision || rev["type"] != "edits" || !strings.HasSuffix(rev["urls"].(map[string]any)["app"].(string), "/~/changes/1") {
				t.Fatalf("change request %s content: %v", ref, rev)
			}
		}
	})
	t.Run("OKRevisionByID", func(t *testing.T) {
		initial := f.get(t, f.admin, "/revisions/"+f.initial).Map(t)
		if initial["id"] != f.initial || initial["type"] != "edits" || len(initial["pages"].([]any)) != 0 {
			t.Fatalf("the initial revision: %v", initial)
		}
		var rev struct{ Pages []wirePage }
		f.get(t, f.admin, "/revisions/"+f.crRevision).JSON(t, &rev)
		if got := shape(rev.Pages); got != fixtureShape {
			t.Fatalf("the change request's revision has pages %s", got)
		}
	})
	other := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Other"})
	for name, path := range map[string]string{
		"ErrUnknownRevision":       "/revisions/nope",
		"ErrOtherSpacesRevision":   "/revisions/" + other["revision"].(string),
		"ErrUnknownChangeRequest":  "/change-requests/2/content",
		"ErrChangeRequestAsPageID": "/content/page/1",
	} {
		t.Run(name, func(t *testing.T) {
			testenv.CheckError(t, f.e.Do(f.admin, "GET", f.spacePath(path), nil), http.StatusNotFound)
		})
	}
	t.Run("ErrFlagNotBoolean", func(t *testing.T) {
		msg := testenv.CheckError(t, f.e.Do(f.admin, "GET", f.spacePath("/content?metadata=yes"), nil), http.StatusBadRequest)
		if !strings.Contains(msg, "metadata") {
			t.Fatalf("message %q does not name metadata", msg)
		}
	})
	t.Run("OKFlags", func(t *testing.T) { f.get(t, f.admin, "/content/pages?metadata=false&computed=false") })
}

func TestContentPages(t *testing.T) {
	f := newContentFixture(t)
	var tr struct{ Pages []wirePage }
	f.get(t, f.reader, "/content/pages").JSON(t, &tr)
	if got := shape(tr.Pages); got != fixtureShape {
		t.Fatalf("pages %s, want %s", got, fixtureShape)
	}
	t.Run("OKDocumentFields", func(t *testing.T) {
		api := tr.Pages[1]
		if api.Kind != "sheet" || api.Type != "document" || api.Title != "API" || api.Emoji != "🚀" || api.Description != "The API." ||
			!strings.HasPrefix(api.DocumentID, "sha256:") || api.Markdown != nil || api.Layout["width"] != "default" {
			t.Fatalf("api page %+v", api)
		}
		cafe := tr.Pages[0].Pages[1]
		if want := "/o/" + f.org + "/s/" + f.space + "/guides/caf%C3%A9"; cafe.URLs == nil || !strings.HasSuffix(cafe.URLs.App, want) {
			t.Fatalf("urls of café: %+v, want …%s", cafe.URLs, want)
		}
	})
	t.Run("OKSameInChangeRequestAndRevision", func(t *testing.T) {
		for _, path := range []string{"/change-requests/1/content/pages", "/revisions/" + f.crRevision + "/pages"} {
			var other struct{ Pages []wirePage }
			f.get(t, f.reader, path).JSON(t, &other)
			if got := shape(other.Pages); got != fixtureShape {
				t.Fatalf("%s: pages %s", path, got)
			}
		}
	})
	t.Run("OKEmpty", func(t *testing.T) {
		if got := f.get(t, f.reader, "/revisions/"+f.initial+"/pages").Map(t)["pages"]; len(got.([]any)) != 0 {
			t.Fatalf("pages of the initial revision: %v", got)
		}
	})
}

func TestContentPage(t *testing.T) {
	f := newContentFixture(t)
	start := f.pages["guides/getting-started"]
	const startMarkdown = "# Getting started\n\nInstall, then **run**.\n"
	cases := []struct {
		name, path   string
		wantID       string
		wantMarkdown string // "" for none
	}{
		{"OKByID", "/content/page/" + start, start, ""},
		{"OKFormatDocument", "/content/page/" + start + "?format=document", start, ""},
		{"OKFormatMarkdown", "/content/page/" + start + "?format=markdown", start, startMarkdown},
		{"OKPathNested", "/content/path/guides/getting-started", start, ""},
		{"OKPathEscapedSlash", "/content/path/guides%2Fgetting-started?format=markdown", start, startMarkdown},
		{"OKPathUnicode", "/content/path/guides/" + url.PathEscape("café"), f.pages["guides/café"], ""},
		{"OKPathUnicodeEscapedSlash", "/content/path/" + url.PathEscape("guides/café") + "?format=markdown", f.pages["guides/café"], "# Café\n\nCrème brûlée.\n"},
		{"OKPathOuterSlashes", "/content/path/api/", f.pages["api"], ""},
		{"OKChangeRequest", "/change-requests/1/content/page/" + start + "?format=markdown", start, startMarkdown},
		{"OKChangeRequestPath", "/change-requests/1/content/path/guides%2Fgetting-started", start, ""},
		{"OKRevision", "/revisions/" + f.crRevision + "/page/" + start + "?format=markdown", start, startMarkdown},
		{"OKRevisionPath", "/revisions/" + f.crRevision + "/path/guides/getting-started", start, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p wirePage
			f.get(t, f.reader, c.path).JSON(t, &p)
			if p.ID != c.wantID {
				t.Fatalf("page %s, want %s", p.ID, c.wantID)
			}
			switch {
			case c.wantMarkdown == "" && p.Markdown != nil:
				t.Fatalf("markdown %q without format=markdown", *p.Markdown)
			case c.wantMarkdown != "" && (p.Markdown == nil || *p.Markdown != c.wantMarkdown):
				t.Fatalf("markdown %v, want %q", p.Markdown, c.wantMarkdown)
			}
		})
	}
	t.Run("OKSubpages", func(t *testing.T) {
		var p wirePage
		f.get(t, f.reader, "/content/path/guides").JSON(t, &p)
		if got := shape(p.Pages); got != "guides/getting-started, guides/café" {
			t.Fatalf("subpages of guides: %s", got)
		}
	})
	t.Run("OKFrontMatter", func(t *testing.T) {
		var p wirePage
		f.get(t, f.reader, "/content/page/"+f.pages["api"]+"?format=markdown").JSON(t, &p)
		for _, want := range []string{"description: The API.", "🚀", "# API\n\nEndpoints.\n"} {
			if p.Markdown == nil || !strings.Contains(*p.Markdown, want) {
				t.Fatalf("markdown of api %v lacks %q", p.Markdown, want)
			}
		}
	})
	for name, path := range map[string]string{
		"ErrUnknownPage":     "/content/page/nope",
		"ErrFileAsPage":      "/content/page/" + f.files["logo.png"],
		"ErrUnknownPath":     "/content/path/guides/nope",
		"ErrPathTooDeep":     "/content/path/guides/getting-started/more",
		"ErrPathOfPageID":    "/content/path/" + start,
		"ErrUnknownCRPage":   "/change-requests/1/content/page/nope",
		"ErrUnknownRevPath":  "/revisions/" + f.initial + "/path/guides",
		"ErrOtherSpacesPage": "/revisions/" + f.initial + "/page/" + start,
	} {
		t.Run(name, func(t *testing.T) {
			testenv.CheckError(t, f.e.Do(f.reader, "GET", f.spacePath(path), nil), http.StatusNotFound)
		})
	}
	for name, path := range map[string]string{
		"ErrFormat":     "/content/page/" + start + "?format=html",
		"ErrComputed":   "/content/page/" + start + "?computed=1",
		"ErrFormatPath": "/content/path/api?format=",
	} {
		t.Run(name, func(t *testing.T) {
			testenv.CheckError(t, f.e.Do(f.reader, "GET", f.spacePath(path), nil), http.StatusBadRequest)
		})
	}
}

func TestContentFiles(t *testing.T) {
	f := newContentFixture(t)
	t.Run("OKPages", func(t *testing.T) {
		var first, second struct {
			Items []wireFile
			Count int
			Next  *struct{ Page string }
		}
		f.get(t, f.reader, "/content/files?limit=1").JSON(t, &first)
		if first.Count != 2 || len(first.Items) != 1 || first.Items[0].Name != "logo.png" || first.Next == nil {
			t.Fatalf("first page %+v", first)
		}
		f.get(t, f.reader, "/content/files?limit=1&page="+url.QueryEscape(first.Next.Page)).JSON(t, &second)
		if len(second.Items) != 1 || second.Items[0].Name != notesName || second.Next != nil {
			t.Fatalf("second page %+v", second)
		}
		if it := first.Items[0]; it.ContentType != "image/png" || it.Size != len(logoBytes) {
			t.Fatalf("logo %+v", it)
		}
	})
	t.Run("OKByID", func(t *testing.T) {
		for _, path := range []string{"/content/files/", "/change-requests/1/content/files/", "/revisions/" + f.crRevision + "/files/"} {
			var file wireFile
			f.get(t, f.reader, path+f.files[notesName]).JSON(t, &file)
			if file.Name != notesName || file.Size != len(notesBytes) {
				t.Fatalf("%s: %+v", path, file)
			}
		}
	})
	for name, path := range map[string]string{
		"ErrUnknownFile":      "/content/files/nope",
		"ErrPageAsFile":       "/content/files/" + f.pages["api"],
		"ErrFileNotInInitial": "/revisions/" + f.initial + "/files/" + f.files["logo.png"],
	} {
		t.Run(name, func(t *testing.T) {
			testenv.CheckError(t, f.e.Do(f.reader, "GET", f.spacePath(path), nil), http.StatusNotFound)
		})
	}
	t.Run("ErrPageToken", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.reader, "GET", f.spacePath("/content/files?page=forged"), nil), http.StatusBadRequest)
	})
}

// download fetches a URL without a bearer token.
func download(t *testing.T, e *testenv.Env, u string) (*http.Response, []byte) {
	t.Helper()
	res, err := e.Server.Client().Get(u)
	var body []byte
	if err == nil {
		defer res.Body.Close()
		body, err = io.ReadAll(res.Body)
	}
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func TestContentDownload(t *testing.T) {
	f := newContentFixture(t)
	urlOf := func(t *testing.T, name string) string {
		var file wireFile
		f.get(t, f.reader, "/content/files/"+f.files[name]).JSON(t, &file)
		return file.DownloadURL
	}
	for name, want := range map[string][]byte{"logo.png": logoBytes, notesName: notesBytes} {
		t.Run("OKByteForByte/"+name, func(t *testing.T) {
			res, body := download(t, f.e, urlOf(t, name))
			if res.StatusCode != http.StatusOK || !bytes.Equal(body, want) {
				t.Fatalf("%d, %d bytes, want %d bytes %q", res.StatusCode, len(body), len(want), want)
			}
			if got := res.Header.Get("Content-Length"); got != fmt.Sprint(len(want)) {
				t.Fatalf("Content-Length %s", got)
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(res.Header.Get("Content-Security-Policy"), "sandbox") {
				t.Fatalf("headers %v", res.Header)
			}
		})
	}
	t.Run("OKHeaders", func(t *testing.T) {
		res, _ := download(t, f.e, urlOf(t, notesName))
		if got := res.Header.Get("Content-Type"); got != "text/plain; charset=utf-8" {
			t.Fatalf("Content-Type %s", got)
		}
		// RFC 2231 encoding of a name outside ASCII, which Go's own parser reads back.
		_, params, err := mime.ParseMediaType(res.Header.Get("Content-Disposition"))
		if err != nil || params["filename"] != notesName {
			t.Fatalf("Content-Disposition %q: %v %v", res.Header.Get("Content-Disposition"), params, err)
		}
	})
	t.Run("OKFromGraphQL", func(t *testing.T) {
		var d struct {
			Space struct {
				Revision struct{ File struct{ DownloadURL string } }
			}
		}
		gqlOK(t, f.e.GraphQL(f.reader, `query($s: ID!, $f: ID!) { space(id: $s) { revision { file(id: $f) { downloadURL } } } }`,
			map[string]any{"s": f.space, "f": f.files["logo.png"]}), &d)
		if _, body := download(t, f.e, d.Space.Revision.File.DownloadURL); !bytes.Equal(body, logoBytes) {
			t.Fatalf("GraphQL's download URL served %d other bytes", len(body))
		}
	})
	good := urlOf(t, "logo.png")
	token := good[strings.LastIndex(good, "/")+1:]
	payload, sig, _ := strings.Cut(token, ".")
	forged := func(subject string) string {
		return f.e.Server.URL + "/files/" + base64.RawURLEncoding.EncodeToString([]byte(subject)) + "." + sig
	}
	raw, _ := base64.RawURLEncoding.DecodeString(payload)
	exp, subject, _ := strings.Cut(string(raw), ":")
	for name, u := range map[string]string{
		"ErrTamperedSignature": f.e.Server.URL + "/files/" + payload + "." + strings.ToLower(sig[:8]) + strings.ToUpper(sig[8:]),
		"ErrOtherFile":         forged(exp + ":" + strings.Replace(subject, f.files["logo.png"], f.files[notesName], 1)),
		"ErrLaterExpiry":       forged("9" + exp + ":" + subject),
		"ErrNoSignature":       f.e.Server.URL + "/files/" + payload,
		"ErrGarbage":           f.e.Server.URL + "/files/%21%21.%21%21",
	} {
		t.Run(name, func(t *testing.T) {
			res, body := download(t, f.e, u)
			testenv.CheckError(t, testenv.Response{Status: res.StatusCode, Body: body}, http.StatusNotFound)
		})
	}
	t.Run("ErrExpired", func(t *testing.T) {
		f.clock.Set(f.clock.Now().Add(time.Hour + time.Second))
		res, body := download(t, f.e, good)
		msg := testenv.CheckError(t, testenv.Response{Status: res.StatusCode, Body: body}, http.StatusForbidden)
		if !strings.Contains(msg, "expired") {
			t.Fatalf("message %q", msg)
		}
		if _, body := download(t, f.e, urlOf(t, "logo.png")); !bytes.Equal(body, logoBytes) {
			t.Fatal("a fresh URL does not serve the file")
		}
	})
}

// TestContentAccess reads every content endpoint as each kind of caller.
func TestContentAccess(t *testing.T) {
	f := newContentFixture(t)
	start, logo := f.pages["guides/getting-started"], f.files["logo.png"]
	var paths []string
	for _, base := range []string{"/content", "/change-requests/1/content", "/revisions/" + f.crRevision} {
		paths = append(paths, base, base+"/pages", base+"/page/"+start, base+"/path/guides/getting-started",
			base+"/files", base+"/files/"+logo)
	}
	checkReads(t, f.e, contentReaders(f.admin, f.reader, f.guest, f.outsider), f.spacePath, paths)
	t.Run("OKShareKey", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "PATCH", f.spacePath(""), map[string]any{"visibility": "share-link"}), http.StatusOK)
		published, _ := url.Parse(f.get(t, f.admin, "").Map(t)["urls"].(map[string]any)["published"].(string))
		key := published.Query().Get("shareKey")
		for _, p := range paths {
			f.get(t, f.outsider, p+"?shareKey="+url.QueryEscape(key))
			testenv.CheckError(t, f.e.Do(f.outsider, "GET", f.spacePath(p+"?shareKey=wrong"), nil), http.StatusNotFound)
		}
		var d struct {
			Space struct {
				Revision struct{ Pages []struct{ Path string } }
			}
		}
		gqlOK(t, f.e.GraphQL(f.outsider, `query($s: ID!, $k: String) { space(id: $s, shareKey: $k) { revision { pages { path } } } }`,
			map[string]any{"s": f.space, "k": key}), &d)
		if len(d.Space.Revision.Pages) != 2 {
			t.Fatalf("pages through the share key: %+v", d.Space.Revision.Pages)
		}
	})
	t.Run("OKPublicSpaceToOutsider", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "PATCH", f.spacePath(""), map[string]any{"visibility": "public"}), http.StatusOK)
		f.get(t, f.outsider, "/content/page/"+start+"?format=markdown")
	})
}

// TestContentGroups reads a tree with a group page, written below the API (authoring makes
// documents only).
func TestContentGroups(t *testing.T) {
	f := newContentFixture(t)
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	page := func(id, parent, typ, slug, body string) *tree.Page {
		return &tree.Page{ID: id, Parent: parent, Order: id, Type: typ, Title: strings.ToUpper(slug), Slug: slug,
			Body: body, CreatedAt: at, UpdatedAt: at}
	}
	body := tree.Hash([]byte("Hello.\n"))
	rev := f.e.WriteRevision(f.space, "", testenv.Content{
		Tree: treeOf(page("a", "", "group", "part-one", ""), page("b", "a", "document", "intro", body),
			page("c", "", "document", "hidden", "")),
		Bodies: map[string]string{body: "Hello.\n"},
	})
	t.Run("OKWire", func(t *testing.T) {
		var tr struct{ Pages []wirePage }
		f.get(t, f.reader, "/content/pages").JSON(t, &tr)
		group := tr.Pages[0]
		if group.Kind != "group" || group.Type != "group" || group.URLs != nil || group.Layout != nil || shape(tr.Pages) != "part-one(part-one/intro), hidden" {
			t.Fatalf("tree %+v", tr.Pages)
		}
		if tr.Pages[1].DocumentID != "" {
			t.Fatalf("an empty page has documentId %q", tr.Pages[1].DocumentID)
		}
	})
	t.Run("OKGroupWithFormatMarkdown", func(t *testing.T) {
		var p wirePage
		f.get(t, f.reader, "/content/page/a?format=markdown").JSON(t, &p)
		if p.Markdown != nil || p.Type != "group" {
			t.Fatalf("group %+v", p)
		}
	})
	t.Run("OKEmptyPageMarkdown", func(t *testing.T) {
		var p wirePage
		f.get(t, f.reader, "/revisions/"+rev+"/path/hidden?format=markdown").JSON(t, &p)
		if p.Markdown == nil || *p.Markdown != "# HIDDEN\n\n" {
			t.Fatalf("markdown of an empty page: %v", p.Markdown)
		}
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		var d struct {
			Space struct {
				Revision struct {
					Pages []struct {
						Type     string
						Markdown *string
						Children []struct{ Path, Markdown string }
					}
				}
			}
		}
		gqlOK(t, f.e.GraphQL(f.reader, `query($s: ID!) { space(id: $s) { revision { pages { type markdown children { path markdown } } } } }`,
			map[string]any{"s": f.space}), &d)
		pages := d.Space.Revision.Pages
		if len(pages) != 2 || pages[0].Type != "group" || pages[0].Markdown != nil || pages[0].Children[0].Markdown != "# INTRO\n\nHello.\n" ||
			pages[0].Children[0].Path != "part-one/intro" {
			t.Fatalf("pages %+v", pages)
		}
	})
}

func treeOf(pages ...*tree.Page) *tree.Tree {
	entries := make([]tree.Entry, len(pages))
	for i, p := range pages {
		entries[i] = tree.Entry{Page: p}
	}
	return tree.New(entries)
}

func TestContentGraphQL(t *testing.T) {
	f := newContentFixture(t)
	const q = `query($s: ID!, $page: ID!, $file: ID!, $initial: ID!) { space(id: $s) {
		revision { id type parents createdAt createdBy { id }
			pages { id title slug path type emoji description hidden noIndex markdown children { path markdown } }
			page(id: $page) { title markdown children { id } }
			pageByPath(path: "guides/café") { id markdown }
			missing: page(id: "nope") { id }
			files(first: 1) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id name contentType size createdAt downloadURL } } }
			file(id: $file) { name size }
			noFile: file(id: "nope") { id } }
		initial: revisionById(id: $initial) { type pages { id } }
		unknown: revisionById(id: "nope") { id } } }`
	vars := map[string]any{"s": f.space, "page": f.pages["api"], "file": f.files[notesName], "initial": f.initial}
	type page struct {
		ID, Title, Slug, Path, Type, Emoji, Description string
		Hidden, NoIndex                                 bool
		Markdown                                        *string
		Children                                        []struct{ Path, Markdown string }
	}
	var d struct {
		Space struct {
			Revision struct {
				ID, Type   string
				Parents    []string
				Pages      []page
				Page       page
				PageByPath page
				Missing    *page
				Files      struct {
					TotalCount int
					PageInfo   struct{ HasNextPage bool }
					Edges      []struct{ Node wireFile }
				}
				File   wireFile
				NoFile *wireFile
			}
			Initial struct {
				Type  string
				Pages []page
			}
			Unknown *struct{ ID string }
		}
	}
	t.Run("OKReader", func(t *testing.T) {
		gqlOK(t, f.e.GraphQL(f.reader, q, vars), &d)
		rev := d.Space.Revision
		if rev.Type != "merge" || len(rev.Parents) != 2 || len(rev.Pages) != 2 || rev.Pages[0].Path != "guides" ||
			rev.Pages[0].Children[1].Path != "guides/café" || rev.Pages[0].Children[1].Markdown != "# Café\n\nCrème brûlée.\n" {
			t.Fatalf("revision %+v", rev)
		}
		if p := rev.Page; p.Title != "API" || p.Markdown == nil || !strings.Contains(*p.Markdown, "description: The API.") || len(p.Children) != 0 {
			t.Fatalf("page %+v", p)
		}
		if rev.PageByPath.ID != f.pages["guides/café"] || rev.Missing != nil || rev.NoFile != nil {
			t.Fatalf("lookups %+v %+v %+v", rev.PageByPath, rev.Missing, rev.NoFile)
		}
		if rev.Files.TotalCount != 2 || !rev.Files.PageInfo.HasNextPage || rev.Files.Edges[0].Node.Name != "logo.png" ||
			rev.File.Name != notesName || rev.File.Size != len(notesBytes) {
			t.Fatalf("files %+v, file %+v", rev.Files, rev.File)
		}
		if d.Space.Initial.Type != "initial" || len(d.Space.Initial.Pages) != 0 || d.Space.Unknown != nil {
			t.Fatalf("revisionById: %+v, %+v", d.Space.Initial, d.Space.Unknown)
		}
	})
	t.Run("OKChangeRequestRevision", func(t *testing.T) {
		var cr struct {
			ChangeRequest struct {
				Revision struct {
					ID    string
					Pages []struct{ Path string }
				}
			}
		}
		gqlOK(t, f.e.GraphQL(f.reader, `query($s: ID!) { changeRequest(spaceId: $s, id: "1") { revision { id pages { path } } } }`,
			map[string]any{"s": f.space}), &cr)
		if cr.ChangeRequest.Revision.ID != f.crRevision || len(cr.ChangeRequest.Revision.Pages) != 2 {
			t.Fatalf("change request revision %+v", cr.ChangeRequest.Revision)
		}
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		g := f.e.GraphQL(f.outsider, q, vars)
		if g.Code() != "NOT_FOUND" {
			t.Fatalf("outsider: %+v %s", g.Errors, g.Data)
		}
	})
}

// TestContentMarkdownStatements: the Markdown of every page of a tree level loads in one batch,
// so a tree of 30 pages costs the statements of a tree of 3.
func TestContentMarkdownStatements(t *testing.T) {
	f := newContentFixture(t)
	spaceOf := func(n int) string {
		s := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": fmt.Sprint(n, " pages")})["id"].(string)
		var pages []*tree.Page
		bodies := map[string]string{}
		for i := range n {
			body := fmt.Sprintf("Body %d of %d.\n", i, n)
			bodies[tree.Hash([]byte(body))] = body
			parent := ""
			if i > 0 {
				parent = "p0"
			}
			pages = append(pages, &tree.Page{ID: fmt.Sprint("p", i), Parent: parent, Order: fmt.Sprintf("a%04d", i),
				Type: "document", Title: fmt.Sprint("Page ", i), Slug: fmt.Sprint("page-", i), Body: tree.Hash([]byte(body))})
		}
		f.e.WriteRevision(s, "", testenv.Content{Tree: treeOf(pages...), Bodies: bodies})
		return s
	}
	const q = `query($s: ID!) { space(id: $s) { revision { pages { markdown children { markdown } } } } }`
	count := func(space string, want int) int64 {
		var d struct {
			Space struct {
				Revision struct {
					Pages []struct{ Children []struct{ Markdown string } }
				}
			}
		}
		n := f.e.Statements(func() { gqlOK(t, f.e.GraphQL(f.admin, q, map[string]any{"s": space}), &d) })
		if got := len(d.Space.Revision.Pages[0].Children); got != want-1 {
			t.Fatalf("%d children, want %d", got, want-1)
		}
		return n
	}
	small, large := spaceOf(3), spaceOf(30)
	if a, b := count(small, 3), count(large, 30); a != b {
		t.Fatalf("3 pages cost %d statements, 30 pages %d", a, b)
	}
}

// TestContentBigTree reads a tree big enough for its encoding to be kept: a second read, and a
// copy of the space (same tree, other URLs), answer what a fresh encoding would.
func TestContentBigTree(t *testing.T) {
	f := newContentFixture(t)
	const n = 1200
	pages := make([]*tree.Page, n)
	for i := range pages {
		parent := ""
		if i >= 10 {
			parent = fmt.Sprint("p", i%10)
		}
		pages[i] = &tree.Page{ID: fmt.Sprint("p", i), Parent: parent, Order: fmt.Sprintf("a%05d", i), Type: "document",
			Title: fmt.Sprint("Page ", i), Slug: fmt.Sprint("page-", i)}
	}
	f.e.WriteRevision(f.space, "", testenv.Content{Tree: treeOf(pages...)})
	read := func(space string) []wirePage {
		var tr struct{ Pages []wirePage }
		f.e.Do(f.reader, "GET", "/v1/spaces/"+space+"/content/pages", nil).JSON(t, &tr)
		return tr.Pages
	}
	first := read(f.space)
	count := 0
	walkPages(first, func(wirePage) { count++ })
	if count != n || len(first) != 10 || first[3].Pages[0].Path != "page-3/page-13" {
		t.Fatalf("%d pages, %d at the top, first child of page-3 at %q", count, len(first), first[3].Pages[0].Path)
	}
	if again := read(f.space); shape(again) != shape(first) || again[0].URLs.App != first[0].URLs.App {
		t.Fatal("a second read differs")
	}
	dup := f.e.Do(f.admin, "POST", f.spacePath("/duplicate"), nil).Map(t)["id"].(string)
	if copied := read(dup); shape(copied) != shape(first) || !strings.Contains(copied[0].URLs.App, "/s/"+dup+"/") {
		t.Fatalf("the copy's first page is at %s, want a URL in space %s", copied[0].URLs.App, dup)
	}
}
