package rest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// insertReusable is an insert_reusable_content change.
func insertReusable(ref, title, markdown string) map[string]any {
	return map[string]any{"operation": "insert_reusable_content", "ref": ref, "title": title,
		"document": map[string]any{"markdown": markdown}}
}

// updateReusable is an update_reusable_content change of the given fields.
func updateReusable(id string, fields map[string]any) map[string]any {
	c := map[string]any{"operation": "update_reusable_content", "reusableContent": id}
	for k, v := range fields {
		c[k] = v
	}
	return c
}

// reusableMarkdown is the Markdown of a reusable content: {"markdown": …}.
func reusableMarkdown(md string) map[string]any { return map[string]any{"markdown": md} }

// reusableFixture is a space whose main content holds the reusable content "Backup warning"
// (id warning) and a page "Install" placing it (id page), merged from change request #1.
type reusableFixture struct {
	*crFixture
	warning, page string
}

func newReusableFixture(t *testing.T) *reusableFixture {
	t.Helper()
	f := &reusableFixture{crFixture: newCRFixture(t)}
	f.create(t, f.admin, "Snippets")
	answer := f.edit(t, f.admin, "1", insertReusable("w", "Warning", "Back up **first**.\n"),
		updateReusable("w", map[string]any{"title": "Backup warning"}))
	changes := answer["reusableContents"].([]any)
	if len(changes) != 1 {
		t.Fatalf("reusableContents %v", changes)
	}
	created := changes[0].(map[string]any)
	if created["object"] != "created_reusable_content" || created["ref"] != "w" {
		t.Fatalf("change %v", created)
	}
	f.warning = created["reusableContent"].(string)
	answer = f.edit(t, f.admin, "1", insert("Install", "Intro.\n\n"+include(f.warning)+"\n\nDone.\n"))
	f.page = createdID(t, answer, 0)
	return f
}

// include is the Markdown that places a reusable content.
func include(id string) string { return `{% include "/reusable-contents/` + id + `" %}` }

// reusable reads a reusable content at a content path ("/v1/spaces/<space>" + path).
func (f *reusableFixture) reusable(t *testing.T, a testenv.Actor, path string) map[string]any {
	t.Helper()
	r := f.e.Do(a, "GET", "/v1/spaces/"+f.space+path, nil)
	crWant(t, r, http.StatusOK)
	return r.Map(t)
}

func TestReusableContents(t *testing.T) {
	f := newReusableFixture(t)
	t.Run("OKInChangeRequest", func(t *testing.T) {
		rc := f.reusable(t, f.admin, "/change-requests/1/content/reusable-contents/"+f.warning)
		if rc["id"] != f.warning || rc["title"] != "Backup warning" || rc["document"] == "" {
			t.Fatalf("reusable content %v", rc)
		}
		list := f.reusable(t, f.admin, "/change-requests/1/content")["reusableContents"].([]any)
		if len(list) != 1 || list[0].(map[string]any)["id"] != f.warning {
			t.Fatalf("revision's reusableContents %v", list)
		}
	})
	t.Run("ErrNotMergedYet", func(t *testing.T) {
		crWantError(t, f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/content/reusable-contents/"+f.warning, nil),
			http.StatusNotFound, "reusable content")
	})
	crWant(t, f.merge(t, f.admin, "1"), http.StatusOK)
	reader := f.e.User("rita@example.com", f.org, testenv.Role(viewer.RoleRead))
	main := f.reusable(t, reader, "/content")
	rev := main["id"].(string)
	t.Run("OKReaderReadsMain", func(t *testing.T) {
		rc := f.reusable(t, reader, "/content/reusable-contents/"+f.warning)
		if rc["title"] != "Backup warning" {
			t.Fatalf("reusable content %v", rc)
		}
		in := f.reusable(t, reader, "/revisions/"+rev+"/reusable-contents/"+f.warning)
		if in["document"] != rc["document"] {
			t.Fatalf("in revision %v, in main %v", in, rc)
		}
		doc := f.reusable(t, reader, "/revisions/"+rev+"/reusable-contents/"+f.warning+"/document")
		if text := docText(t, doc); text != "Back up first." {
			t.Fatalf("document's text %q", text)
		}
		byID := f.reusable(t, reader, "/documents/"+rc["document"].(string))
		if docText(t, byID) != "Back up first." {
			t.Fatalf("getDocumentById %v", byID)
		}
	})
	t.Run("OKPageDocumentDereferenced", func(t *testing.T) {
		path := "/revisions/" + rev + "/page/" + f.page + "/document"
		plain := f.reusable(t, reader, path)
		if types := blockTypes(plain); strings.Join(types, " ") != "paragraph reusable-content paragraph" {
			t.Fatalf("blocks %v", types)
		}
		for _, v := range []string{"reusable-contents", "true"} {
			placed := f.reusable(t, reader, path+"?dereferenced="+v)
			if types := blockTypes(placed); strings.Join(types, " ") != "paragraph paragraph paragraph" {
				t.Fatalf("dereferenced=%s: blocks %v", v, types)
			}
			if text := docText(t, placed); text != "Intro.Back up first.Done." {
				t.Fatalf("dereferenced=%s: text %q", v, text)
			}
		}
	})
	t.Run("OKPageReadsDereferenced", func(t *testing.T) {
		for _, base := range []string{"/content/page/" + f.page, "/revisions/" + rev + "/page/" + f.page, "/change-requests/1/content/page/" + f.page} {
			page := f.reusable(t, reader, base+"?format=document&dereferenced=true")
			if text := docText(t, page["document"].(map[string]any)); text != "Intro.Back up first.Done." {
				t.Errorf("%s: text %q", base, text)
			}
			md := f.reusable(t, reader, base+"?format=markdown&dereferenced=reusable-contents")["markdown"].(string)
			if !strings.Contains(md, "Intro.\n\nBack up **first**.\n\nDone.") {
				t.Errorf("%s: markdown %q", base, md)
			}
			if md := f.reusable(t, reader, base+"?format=markdown")["markdown"].(string); !strings.Contains(md, include(f.warning)) {
				t.Errorf("%s: stored markdown %q", base, md)
			}
		}
		testenv.CheckError(t, f.e.Do(reader, "GET", "/v1/spaces/"+f.space+"/content/page/"+f.page+"?dereferenced=yes", nil), http.StatusBadRequest)
	})
	t.Run("OKPDF", func(t *testing.T) {
		r := f.e.Do(reader, "GET", f.path("/1/pdf?page="+f.page+"&only=true"), nil)
		crWant(t, r, http.StatusOK)
		text, err := fetchPDF(t, r.Map(t)["url"].(string)).GetPlainText()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(text)
		if !strings.Contains(string(b), "Back up") || strings.Contains(string(b), "include") {
			t.Fatalf("PDF text %q", b)
		}
	})
	t.Run("ErrOtherOrganization", func(t *testing.T) {
		other, _ := f.e.Bootstrap("eve@example.com", "Evil")
		for _, path := range []string{"/content/reusable-contents/" + f.warning, "/revisions/" + rev + "/reusable-contents/" + f.warning,
			"/revisions/" + rev + "/reusable-contents/" + f.warning + "/document", "/change-requests/1/content/reusable-contents/" + f.warning} {
			testenv.CheckError(t, f.e.Do(other, "GET", "/v1/spaces/"+f.space+path, nil), http.StatusNotFound)
		}
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		crWantError(t, f.e.Do(reader, "GET", "/v1/spaces/"+f.space+"/content/reusable-contents/nope", nil),
			http.StatusNotFound, "reusable content nope")
	})
	t.Run("ErrReaderWrites", func(t *testing.T) {
		f.create(t, f.admin, "Reader's")
		r := f.e.Do(reader, "POST", f.path("/2/content"), map[string]any{"changes": []any{
			updateReusable(f.warning, map[string]any{"title": "Mine"})}})
		testenv.CheckError(t, r, http.StatusForbidden)
	})
}

// TestReusableContentsMerge: change requests branch reusable contents and merges merge them as
// pages: fields three-way, bodies line by line, a conflict refusing the merge and named by an
// update.
func TestReusableContentsMerge(t *testing.T) {
	f := newReusableFixture(t)
	crWant(t, f.merge(t, f.admin, "1"), http.StatusOK)
	for _, subject := range []string{"Body", "Title", "Clash"} {
		f.create(t, f.admin, subject)
	}
	f.edit(t, f.admin, "2", updateReusable(f.warning, map[string]any{"document": reusableMarkdown("Back up **first**, always.\n")}))
	f.edit(t, f.admin, "3", updateReusable(f.warning, map[string]any{"title": "Careful"}))
	f.edit(t, f.admin, "4", updateReusable(f.warning, map[string]any{"document": reusableMarkdown("Never back up.\n")}))
	t.Run("OKWithoutConflict", func(t *testing.T) {
		crWant(t, f.merge(t, f.admin, "2"), http.StatusOK)
		crWant(t, f.merge(t, f.admin, "3"), http.StatusOK)
		rc := f.reusable(t, f.admin, "/content/reusable-contents/"+f.warning)
		if rc["title"] != "Careful" {
			t.Fatalf("merged title %v", rc)
		}
		doc := f.reusable(t, f.admin, "/documents/"+rc["document"].(string))
		if text := docText(t, doc); text != "Back up first, always." {
			t.Fatalf("merged text %q", text)
		}
	})
	t.Run("ErrConflict", func(t *testing.T) {
		crWantError(t, f.merge(t, f.admin, "4"), http.StatusConflict, `reusable content "Careful"`, "content")
		up := f.e.Do(f.admin, "POST", f.path("/4/update"), nil)
		crWant(t, up, http.StatusOK)
		m := up.Map(t)
		conflicts, _ := m["conflicts"].([]any)
		if m["result"] != "conflicts" || len(conflicts) != 1 || conflicts[0].(map[string]any)["reusableContent"] != f.warning {
			t.Fatalf("update answered %v", m)
		}
	})
	t.Run("OKDeleted", func(t *testing.T) {
		f.create(t, f.admin, "Delete")
		answer := f.edit(t, f.admin, "5", map[string]any{"operation": "delete_reusable_content", "reusableContent": f.warning})
		if got := answer["reusableContents"].([]any)[0].(map[string]any)["object"]; got != "deleted_reusable_content" {
			t.Fatalf("change %v", got)
		}
		testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path("/5/content/reusable-contents/"+f.warning), nil), http.StatusNotFound)
	})
}

func TestReusableContentsBadInput(t *testing.T) {
	f := newCRFixture(t)
	f.create(t, f.admin, "Bad")
	badBlock := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
		map[string]any{"object": "block", "type": "reusable-content", "isVoid": true,
			"data": map[string]any{"ref": map[string]any{"kind": "page", "page": "x"}}}}}
	for _, c := range []struct {
		name   string
		change map[string]any
		field  string
	}{
		{"ErrNoTitle", map[string]any{"operation": "insert_reusable_content"}, "changes[0].title"},
		{"ErrEmptyTitle", insertReusable("", " ", "x"), "changes[0].title"},
		{"ErrPageField", map[string]any{"operation": "insert_reusable_content", "title": "T", "slug": "t"}, "changes[0].slug"},
		{"ErrUnknown", updateReusable("nope", map[string]any{"title": "T"}), "changes[0].reusableContent"},
		{"ErrNoID", map[string]any{"operation": "delete_reusable_content"}, "changes[0].reusableContent"},
		{"ErrBlockRef", map[string]any{"operation": "insert_page", "title": "P", "document": map[string]any{"document": badBlock}},
			"changes[0].document: nodes[0]: data.ref of a reusable-content"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := f.e.Do(f.admin, "POST", f.path("/1/content"), map[string]any{"changes": []any{c.change}})
			crWantError(t, r, http.StatusBadRequest, c.field)
		})
	}
}

// TestReusableContentsGraphQL writes and reads reusable contents on GraphQL, through the same
// batch and reads as REST.
func TestReusableContentsGraphQL(t *testing.T) {
	f := newCRFixture(t)
	f.create(t, f.admin, "GraphQL")
	var w struct {
		EditChangeRequestContent struct {
			ReusableContentChanges []struct{ Kind, ReusableContentID, Ref string }
		}
	}
	gqlOK(t, f.e.GraphQL(f.admin, `mutation($s: ID!) { editChangeRequestContent(spaceId: $s, changeRequest: "1", changes: [
		{operation: insert_reusable_content, ref: "n", title: "Note", markdown: "A *note*.\n"}]) {
		reusableContentChanges { kind reusableContentId ref } } }`, map[string]any{"s": f.space}), &w)
	changes := w.EditChangeRequestContent.ReusableContentChanges
	if len(changes) != 1 || changes[0].Kind != "created_reusable_content" || changes[0].Ref != "n" {
		t.Fatalf("changes %+v", changes)
	}
	id := changes[0].ReusableContentID
	var d struct {
		ChangeRequest struct {
			Revision struct {
				ReusableContents []struct{ ID, Title, Markdown string }
				ReusableContent  struct {
					DocumentID string
					Document   json.RawMessage
				}
			}
		}
	}
	gqlOK(t, f.e.GraphQL(f.admin, `query($s: ID!, $id: ID!) { changeRequest(spaceId: $s, id: "1") { revision {
		reusableContents { id title markdown } reusableContent(id: $id) { documentId document } } } }`,
		map[string]any{"s": f.space, "id": id}), &d)
	rev := d.ChangeRequest.Revision
	if len(rev.ReusableContents) != 1 || rev.ReusableContents[0].ID != id || rev.ReusableContents[0].Markdown != "A *note*.\n" {
		t.Fatalf("reusableContents %+v", rev.ReusableContents)
	}
	if rev.ReusableContent.DocumentID == "" || !strings.Contains(string(rev.ReusableContent.Document), `"note"`) {
		t.Fatalf("reusableContent %+v", rev.ReusableContent)
	}
}

// blockTypes are the types of a document's top-level blocks.
func blockTypes(doc map[string]any) []string {
	var out []string
	for _, n := range doc["nodes"].([]any) {
		out = append(out, n.(map[string]any)["type"].(string))
	}
	return out
}

// docText is the text of a document's leaves, joined.
func docText(t *testing.T, doc map[string]any) string {
	t.Helper()
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["object"] == "leaf" {
				b.WriteString(x["text"].(string))
			}
			for _, k := range []string{"nodes", "leaves", "fragments"} {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	return b.String()
}
