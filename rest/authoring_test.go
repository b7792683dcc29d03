package rest_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ledongthuc/pdf"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// insert is an insert_page change.
func insert(title, markdown string, extra ...any) map[string]any {
	c := map[string]any{"operation": "insert_page", "title": title, "document": map[string]any{"markdown": markdown}}
	for i := 0; i+1 < len(extra); i += 2 {
		c[extra[i].(string)] = extra[i+1]
	}
	return c
}

// updateBody is an update_page change of a page's Markdown.
func updateBody(page, markdown string) map[string]any {
	return map[string]any{"operation": "update_page", "page": page, "document": map[string]any{"markdown": markdown}}
}

// edit posts a content batch as a to change request ref and returns the compat=false answer.
func (f *crFixture) edit(t *testing.T, a testenv.Actor, ref string, changes ...map[string]any) map[string]any {
	t.Helper()
	r := f.e.Do(a, "POST", f.path("/"+ref+"/content?compat=false"), map[string]any{"changes": changes})
	crWant(t, r, http.StatusOK)
	return r.Map(t)
}

// pages returns the slug paths of a content's page tree, in order ("" for the space's content).
func (f *crFixture) pages(t *testing.T, crRef string) []string {
	t.Helper()
	base := "/v1/spaces/" + f.space
	if crRef != "" {
		base = f.path("/" + crRef)
	}
	r := f.e.Do(f.admin, "GET", base+"/content/pages", nil)
	crWant(t, r, http.StatusOK)
	var out []string
	var walk func(pages []any)
	walk = func(pages []any) {
		for _, p := range pages {
			page := p.(map[string]any)
			out = append(out, page["path"].(string))
			walk(page["pages"].([]any))
		}
	}
	walk(r.Map(t)["pages"].([]any))
	return out
}

// markdown returns a page's Markdown in the space's content ("") or a change request's.
func (f *crFixture) markdown(t *testing.T, crRef, page string) string {
	t.Helper()
	base := "/v1/spaces/" + f.space
	if crRef != "" {
		base = f.path("/" + crRef)
	}
	r := f.e.Do(f.admin, "GET", base+"/content/page/"+page+"?format=markdown", nil)
	crWant(t, r, http.StatusOK)
	return r.Map(t)["markdown"].(string)
}

// createdID is the id of the i-th change of a compat=false answer.
func createdID(t *testing.T, answer map[string]any, i int) string {
	t.Helper()
	return answer["changes"].([]any)[i].(map[string]any)["page"].(map[string]any)["id"].(string)
}

func (f *crFixture) merge(t *testing.T, a testenv.Actor, ref string) testenv.Response {
	t.Helper()
	return f.e.Do(a, "POST", f.path("/"+ref+"/merge"), nil)
}

func TestAuthoringBatch(t *testing.T) {
	f := newCRFixture(t)
	cr := f.create(t, f.admin, "Write the guide")
	png := []byte("\x89PNG\r\n\x1a\n\x00binary\xff")
	answer := f.edit(t, f.admin, "1",
		insert("Guides", "Start [here](./intro.md).", "ref", "guides"),
		insert("Intro", "# Introduction\n\nSee the ![diagram](./diagram) and [guides](../README.md).\n", "into", "guides"),
		map[string]any{"operation": "insert_files", "files": []any{map[string]any{"ref": "diagram", "name": "d.png",
			"contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(png)}}},
	)
	if got := f.pages(t, "1"); strings.Join(got, ",") != "guides,guides/intro" {
		t.Errorf("change request pages = %v", got)
	}
	if got := f.pages(t, ""); len(got) != 0 {
		t.Errorf("the space's content changed before any merge: %v", got)
	}
	guides, intro := createdID(t, answer, 0), createdID(t, answer, 1)
	md := f.markdown(t, "1", intro)
	file := answer["insertedFiles"].([]any)[0].(map[string]any)
	for _, want := range []string{"# Introduction", "(/files/" + file["id"].(string) + ")", "(/pages/" + guides + ")"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown %q lacks %q", md, want)
		}
	}
	if answer["changeRequest"].(map[string]any)["revision"] == cr["revision"] {
		t.Error("the change request's revision did not move")
	}

	res, err := http.Get(file["downloadURL"].(string)) // a presigned URL: no bearer token
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || string(got) != string(png) {
		t.Errorf("download: %d, %d bytes; want the %d bytes uploaded", res.StatusCode, len(got), len(png))
	}
}

func TestAuthoringInvalidBatchWritesNothing(t *testing.T) {
	f := newCRFixture(t)
	before := f.create(t, f.admin, "")["revision"]
	cases := []struct {
		name    string
		changes []any
		words   []string
	}{
		{"UnknownPage", []any{insert("A", "a"), map[string]any{"operation": "delete_page", "page": "nope"}}, []string{"changes[1].page", "nope"}},
		{"NoDocument", []any{map[string]any{"operation": "insert_page", "title": "A"}}, []string{"changes[0].document"}},
		{"BadBase64", []any{map[string]any{"operation": "insert_files", "files": []any{map[string]any{"name": "a", "contentType": "x/y", "base64": "!!"}}}}, []string{"changes[0].files[0].base64"}},
		{"URLFile", []any{map[string]any{"operation": "insert_files", "files": []any{map[string]any{"name": "a", "url": "http://10.0.0.1/x"}}}}, []string{"files[0].url"}},
		{"UnsupportedJSONDocument", []any{insert("A", "a"), map[string]any{"operation": "insert_page", "document": map[string]any{"document": map[string]any{
			"object": "document", "nodes": []any{map[string]any{"object": "block", "type": "drawing", "isVoid": true}}}}}},
			[]string{"changes[1].document", "nodes[0]", `"drawing" is not supported`}},
		{"MarkdownAndJSONDocument", []any{map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": "a",
			"document": map[string]any{"object": "document", "nodes": []any{}}}}}, []string{"changes[0].document", "not both"}},
		{"BadOperation", []any{map[string]any{"operation": "explode"}}, []string{"changes[0].operation", "explode"}},
		{"TooMany", func() []any {
			var out []any
			for range 51 {
				out = append(out, insert("A", "a"))
			}
			return out
		}(), []string{"changes:", "50"}},
		{"Empty", []any{}, []string{"changes:", "1 to 50"}},
		{"AtPastEnd", []any{insert("A", "a", "at", 3)}, []string{"changes[0].at"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := f.e.Do(f.admin, "POST", f.path("/1/content"), map[string]any{"changes": c.changes})
			crWantError(t, r, http.StatusBadRequest, c.words...)
			if now := f.e.Do(f.admin, "GET", f.path("/1"), nil).Map(t)["revision"]; now != before {
				t.Errorf("a rejected batch moved the change request to revision %v", now)
			}
		})
	}
}

func TestMergeAndUpdate(t *testing.T) {
	f := newCRFixture(t)
	f.create(t, f.admin, "Seed")
	seed := f.edit(t, f.admin, "1", insert("Page", "one\ntwo\nthree\nfour\nfive\n"), insert("Other", "x\n"))
	page, other := createdID(t, seed, 0), createdID(t, seed, 1)
	crWant(t, f.merge(t, f.admin, "1"), http.StatusOK)
	f.wantCounters(t, 1, 0, 0)

	f.create(t, f.admin, "Edits the start")             // #2
	f.create(t, f.admin, "Edits the start differently") // #3
	f.create(t, f.admin, "Edits the end")               // #4
	f.edit(t, f.admin, "2", updateBody(page, "ONE\ntwo\nthree\nfour\nfive\n"))
	f.edit(t, f.admin, "3", updateBody(page, "uno\ntwo\nthree\nfour\nfive\n"))
	f.edit(t, f.admin, "4", updateBody(page, "one\ntwo\nthree\nfour\nFIVE\n"), map[string]any{"operation": "delete_page", "page": other})

	merged := f.merge(t, f.admin, "2")
	crWant(t, merged, http.StatusOK)
	if m := merged.Map(t); m["result"] != "merge" || m["revision"] == "" {
		t.Errorf("merge answered %v", m)
	}
	if f.e.Do(f.admin, "GET", f.path("/3"), nil).Map(t)["outdated"] != true {
		t.Error("#3 is not outdated after #2 merged")
	}

	// #4 changed other lines: it merges cleanly atop #2.
	crWant(t, f.merge(t, f.admin, "4"), http.StatusOK)
	if md := f.markdown(t, "", page); !strings.Contains(md, "ONE\ntwo\nthree\nfour\nFIVE") {
		t.Errorf("after merging #2 and #4: %q", md)
	}
	if got := f.pages(t, ""); strings.Join(got, ",") != "page" {
		t.Errorf("pages after #4 deleted one: %v", got)
	}

	// #3 changed the same line as #2: merge is refused and nothing changes.
	space := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space, nil).Map(t)
	crWantError(t, f.merge(t, f.admin, "3"), http.StatusConflict, "Page", "content")
	if now := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space, nil).Map(t); now["revision"] != space["revision"] {
		t.Error("a refused merge moved the space's revision")
	}
	if status := f.e.Do(f.admin, "GET", f.path("/3"), nil).Map(t)["status"]; status != "open" {
		t.Errorf("a refused merge left #3 %v", status)
	}

	// Updating #3 writes both versions between markers and says so.
	up := f.e.Do(f.admin, "POST", f.path("/3/update"), nil)
	crWant(t, up, http.StatusOK)
	if m := up.Map(t); m["result"] != "conflicts" || len(m["conflicts"].([]any)) != 1 {
		t.Errorf("update answered %v", m)
	}
	md := f.markdown(t, "3", page)
	for _, want := range []string{"<<<<<<< change request\nuno\n=======\nONE\n>>>>>>> main content\n", "FIVE"} {
		if !strings.Contains(md, want) {
			t.Errorf("updated #3 page %q lacks %q", md, want)
		}
	}
	if f.e.Do(f.admin, "GET", f.path("/3"), nil).Map(t)["outdated"] != false {
		t.Error("#3 is still outdated after its update")
	}
	// Resolved by a batch, it merges.
	f.edit(t, f.admin, "3", updateBody(page, "Uno\ntwo\nthree\nfour\nFIVE\n"))
	crWant(t, f.merge(t, f.admin, "3"), http.StatusOK)
	if md := f.markdown(t, "", page); !strings.HasSuffix(md, "Uno\ntwo\nthree\nfour\nFIVE\n") {
		t.Errorf("after resolving: %q", md)
	}
	crWantError(t, f.merge(t, f.admin, "3"), http.StatusBadRequest, "merged")
	f.wantCounters(t, 4, 0, 0)
}

// TestRacingMerges: merges of change requests on one space serialize, so none loses another's change.
func TestRacingMerges(t *testing.T) {
	f := newCRFixture(t)
	const n = 6
	for i := range n {
		f.create(t, f.admin, fmt.Sprint("Page ", i))
		f.edit(t, f.admin, fmt.Sprint(i+1), insert(fmt.Sprint("Page ", i), fmt.Sprint("body ", i)))
	}
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.merge(t, f.admin, fmt.Sprint(i+1)).Status
		}()
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Errorf("merge of #%d answered %d", i+1, s)
		}
	}
	if got := f.pages(t, ""); len(got) != n {
		t.Errorf("after %d racing merges the space has pages %v", n, got)
	}
}

func TestAuthoringRoles(t *testing.T) {
	f := newCRFixture(t)
	f.create(t, f.admin, "")
	seed := f.edit(t, f.admin, "1", insert("Page", "text\n"))
	page := createdID(t, seed, 0)
	crWant(t, f.merge(t, f.admin, "1"), http.StatusOK)
	batch := map[string]any{"changes": []any{updateBody(page, "mine\n")}}
	for _, c := range []struct {
		role              viewer.Role
		edit, merge, read int
	}{
		{viewer.RoleRead, 403, 403, 200},
		{viewer.RoleComment, 403, 403, 200},
		{viewer.RoleEdit, 200, 403, 200},
		{viewer.RoleReview, 200, 200, 200},
	} {
		t.Run(string(c.role), func(t *testing.T) {
			a := f.e.User(string(c.role)+"@example.com", f.org, testenv.Role(c.role))
			n := fmt.Sprint(f.create(t, f.admin, string(c.role))["number"])
			if r := f.e.Do(a, "POST", f.path("/"+n+"/content"), batch); r.Status != c.edit {
				t.Errorf("content batch: %d %s", r.Status, r.Body)
			}
			if r := f.e.Do(a, "POST", f.path("/"+n+"/merge"), nil); r.Status != c.merge {
				t.Errorf("merge: %d %s", r.Status, r.Body)
			}
			if r := f.e.Do(a, "GET", f.path("/"+n+"/content/pages"), nil); r.Status != c.read {
				t.Errorf("read: %d %s", r.Status, r.Body)
			}
		})
	}
	outsider, _ := f.e.Bootstrap("eve@example.com", "Evil")
	crWantError(t, f.e.Do(outsider, "POST", f.path("/1/content"), batch), http.StatusNotFound)
	crWantError(t, f.merge(t, outsider, "1"), http.StatusNotFound)
}

func TestLockedSpaceRefusesContentWrites(t *testing.T) {
	f := newCRFixture(t)
	f.create(t, f.admin, "")
	crWant(t, f.e.Do(f.admin, "PATCH", "/v1/spaces/"+f.space, map[string]any{"editMode": "locked"}), http.StatusOK)
	crWantError(t, f.e.Do(f.admin, "POST", f.path("/1/content"), map[string]any{"changes": []any{insert("A", "a")}}),
		http.StatusForbidden, "locked")
	crWantError(t, f.merge(t, f.admin, "1"), http.StatusForbidden, "locked")
	crWantError(t, f.e.Do(f.admin, "POST", f.path("/1/update"), nil), http.StatusForbidden, "locked")
	crWant(t, f.e.Do(f.admin, "PATCH", "/v1/spaces/"+f.space, map[string]any{"editMode": "live"}), http.StatusOK)
	f.edit(t, f.admin, "1", insert("A", "a"))
}

func TestAuthoringGraphQL(t *testing.T) {
	f := newCRFixture(t)
	f.create(t, f.admin, "")
	r := f.e.GraphQL(f.admin, `mutation($s: ID!, $c: [ContentChangeInput!]!) {
		editChangeRequestContent(spaceId: $s, changeRequest: "1", changes: $c) {
			changeRequest { number } changes { kind pageId ref } insertedFiles { id name size }
		}
	}`, map[string]any{"s": f.space, "c": []any{
		map[string]any{"operation": "insert_page", "title": "Hello", "markdown": "Hi [there](./there.md)", "ref": "hello"},
		map[string]any{"operation": "insert_page", "title": "There", "ref": "there", "into": nil},
		map[string]any{"operation": "insert_files", "files": []any{map[string]any{"name": "a.txt", "contentType": "text/plain", "base64": "aGk="}}},
	}})
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %v", r.Errors)
	}
	var data map[string]map[string]any
	if err := json.Unmarshal(r.Data, &data); err != nil {
		t.Fatal(err)
	}
	m := data["editChangeRequestContent"]
	if len(m["changes"].([]any)) != 2 || m["insertedFiles"].([]any)[0].(map[string]any)["size"] != float64(2) {
		t.Errorf("answer %v", m)
	}
	r = f.e.GraphQL(f.admin, `mutation($s: ID!) { mergeChangeRequest(spaceId: $s, changeRequest: "1") { result revision } }`,
		map[string]any{"s": f.space})
	if len(r.Errors) > 0 || !strings.Contains(string(r.Data), `"result":"merge"`) {
		t.Fatalf("merge: %s %v", r.Data, r.Errors)
	}
	if got := f.pages(t, ""); strings.Join(got, ",") != "hello,there" {
		t.Errorf("merged pages %v", got)
	}
	r = f.e.GraphQL(f.admin, `mutation($s: ID!) { mergeChangeRequest(spaceId: $s, changeRequest: "1") { result } }`,
		map[string]any{"s": f.space})
	if r.Code() != "BAD_REQUEST" {
		t.Errorf("merging twice: code %q", r.Code())
	}
}

// TestAuthoringTitleAndHeading: the title a change gives names the page over a leading heading of
// its Markdown, through REST and GraphQL alike; without one the heading names it (decision 290).
func TestAuthoringTitleAndHeading(t *testing.T) {
	f := newCRFixture(t)
	f.create(t, f.admin, "")
	answer := f.edit(t, f.admin, "1",
		insert("Install", "# Installation guide\n\nRun it.\n"),
		map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": "# Usage\n\nUse it.\n"}})
	r := f.e.GraphQL(f.admin, `mutation($s: ID!) {
		editChangeRequestContent(spaceId: $s, changeRequest: "1", changes: [
			{operation: insert_page, title: "FAQ", markdown: "# Questions\n\nAsk."}]) { changes { pageId } }
	}`, map[string]any{"s": f.space})
	if len(r.Errors) > 0 {
		t.Fatalf("errors: %v", r.Errors)
	}
	var gql struct {
		Edit struct{ Changes []struct{ PageID string } } `json:"editChangeRequestContent"`
	}
	if err := json.Unmarshal(r.Data, &gql); err != nil || len(gql.Edit.Changes) != 1 {
		t.Fatalf("answer %s: %v", r.Data, err)
	}
	if got := f.pages(t, "1"); strings.Join(got, ",") != "install,usage,faq" {
		t.Errorf("pages %v: slugs follow the titles", got)
	}
	want := map[string]string{
		createdID(t, answer, 0):    "# Install\n\n# Installation guide\n\nRun it.\n",
		createdID(t, answer, 1):    "# Usage\n\nUse it.\n",
		gql.Edit.Changes[0].PageID: "# FAQ\n\n# Questions\n\nAsk.",
	}
	for page, md := range want {
		if got := f.markdown(t, "1", page); got != md {
			t.Errorf("page %s as Markdown = %q, want %q", page, got, md)
		}
	}
}

func TestChangeRequestPDF(t *testing.T) {
	f := newCRFixture(t)
	f.create(t, f.admin, "Print me")
	answer := f.edit(t, f.admin, "1", insert("Guide", "Some **bold** text.\n\n- a list\n", "ref", "guide"),
		insert("Child", "Nested page.", "into", "guide"), insert("Other", "Other page."))
	guide := createdID(t, answer, 0)
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))

	r := f.e.Do(reader, "GET", f.path("/1/pdf"), nil)
	crWant(t, r, http.StatusOK)
	doc := fetchPDF(t, r.Map(t)["url"].(string))
	if doc.NumPage() < 3 {
		t.Errorf("the PDF of three pages has %d PDF pages", doc.NumPage())
	}

	r = f.e.Do(reader, "GET", f.path("/1/pdf?page="+guide+"&only=true"), nil)
	crWant(t, r, http.StatusOK)
	if n := fetchPDF(t, r.Map(t)["url"].(string)).NumPage(); n != 1 {
		t.Errorf("the PDF of one page has %d PDF pages", n)
	}

	g := f.e.GraphQL(reader, `query($s: ID!, $p: ID!) { changeRequest(spaceId: $s, id: "1") { pdf(page: $p, only: true) } }`,
		map[string]any{"s": f.space, "p": guide})
	var d struct{ ChangeRequest struct{ PDF string } }
	if len(g.Errors) > 0 || json.Unmarshal(g.Data, &d) != nil {
		t.Fatalf("GraphQL pdf: %s %v", g.Data, g.Errors)
	}
	if n := fetchPDF(t, d.ChangeRequest.PDF).NumPage(); n != 1 {
		t.Errorf("the GraphQL link's PDF of one page has %d PDF pages", n)
	}

	crWantError(t, f.e.Do(reader, "GET", f.path("/1/pdf?page=nope"), nil), http.StatusNotFound, "nope")
	crWantError(t, f.e.Do(reader, "GET", f.path("/1/pdf?only=true"), nil), http.StatusBadRequest, "page")
	crWantError(t, f.e.Do(reader, "GET", f.path("/1/pdf?only=maybe"), nil), http.StatusBadRequest, "only")
	url := r.Map(t)["url"].(string)
	res, err := http.Get(url[:len(url)-3] + "xyz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("a tampered link answered %d", res.StatusCode)
	}
}

// fetchPDF downloads a PDF link without credentials and opens it.
func fetchPDF(t *testing.T, url string) *pdf.Reader {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(body, []byte("%PDF-")) {
		t.Fatalf("PDF link: %d %s %.100q", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	doc, err := pdf.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("the PDF does not open: %v", err)
	}
	return doc
}

// TestDuplicateCopiesContent: a duplicate has the same pages and files under new ids, and its
// pages link to each other's copies.
func TestDuplicateCopiesContent(t *testing.T) {
	f := newCRFixture(t)
	f.create(t, f.admin, "")
	answer := f.edit(t, f.admin, "1", insert("Home", "Go [next](./next.md) and see ![f](./f)", "ref", "home"),
		insert("Next", "Back [home](./home.md)", "ref", "next"),
		map[string]any{"operation": "insert_files", "files": []any{map[string]any{"ref": "f", "name": "f.txt",
			"contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString([]byte("bytes"))}}})
	crWant(t, f.merge(t, f.admin, "1"), http.StatusOK)
	home, next := createdID(t, answer, 0), createdID(t, answer, 1)

	dup := f.e.Do(f.admin, "POST", "/v1/spaces/"+f.space+"/duplicate", nil)
	crWant(t, dup, http.StatusCreated)
	copyOf := &crFixture{e: f.e, admin: f.admin, org: f.org, space: dup.Map(t)["id"].(string)}
	if got := copyOf.pages(t, ""); strings.Join(got, ",") != "home,next" {
		t.Fatalf("duplicate's pages %v", got)
	}
	r := f.e.Do(f.admin, "GET", "/v1/spaces/"+copyOf.space+"/content/path/home", nil)
	crWant(t, r, http.StatusOK)
	newHome := r.Map(t)["id"].(string)
	r = f.e.Do(f.admin, "GET", "/v1/spaces/"+copyOf.space+"/content/path/next", nil)
	newNext := r.Map(t)["id"].(string)
	if newHome == home || newNext == next {
		t.Fatal("the duplicate's pages kept the original ids")
	}
	md := copyOf.markdown(t, "", newHome)
	if !strings.Contains(md, "(/pages/"+newNext+")") || strings.Contains(md, next) {
		t.Errorf("the copied page links %q, want the copy of Next (%s)", md, newNext)
	}
	files := f.e.Do(f.admin, "GET", "/v1/spaces/"+copyOf.space+"/content/files", nil).Map(t)["items"].([]any)
	if len(files) != 1 || !strings.Contains(md, "(/files/"+files[0].(map[string]any)["id"].(string)+")") {
		t.Errorf("the copied page does not show the copied file: %q, files %v", md, files)
	}
	if md := f.markdown(t, "", home); !strings.Contains(md, "(/pages/"+next+")") {
		t.Errorf("the original changed: %q", md)
	}
}
