package rest_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// zipOf is a zip archive of the files (path → text), in base64.
func zipOf(t *testing.T, files map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, text := range files {
		fw, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(text))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// TestImportRefusesBadText: Markdown with a NUL or bytes that are not UTF-8, uploaded as files or
// in a zip, into the space or a change request, answers 400 naming the file on both databases
// (it answered 500 on a space and 201 on a change request on PostgreSQL), and changes nothing.
func TestImportRefusesBadText(t *testing.T) {
	f := newImportFixture(t)
	files := func(path, text string) map[string]any {
		return map[string]any{"source": "markdown", "files": []any{
			map[string]any{"path": "ok.md", "base64": base64.StdEncoding.EncodeToString([]byte("# Fine\n"))},
			map[string]any{"path": path, "base64": base64.StdEncoding.EncodeToString([]byte(text))}}}
	}
	zipped := func(path, text string) map[string]any {
		return map[string]any{"source": "markdown", "zip": zipOf(t, map[string]string{"ok.md": "# Fine\n", path: text})}
	}
	cases := []struct {
		name  string
		body  map[string]any
		words []string
	}{
		{"ErrFilesNUL", files("guide/a.md", "# nul\x00title\n"), []string{"files: guide/a.md: must not contain NUL characters (one at byte 5)"}},
		{"ErrZipNUL", zipped("guide/a.md", "# nul\x00title\n"), []string{"zip: guide/a.md: must not contain NUL characters"}},
		{"ErrZipNotUTF8", zipped("a.md", "caf\xe9\n"), []string{"zip: a.md: must be valid UTF-8 (an invalid byte at 3)"}},
		{"ErrZipNameNUL", zipped("a\x00.md", "# A\n"), []string{"zip:", "a path must not contain NUL"}},
		{"ErrZipNameNotUTF8", zipped("caf\xe9.md", "# A\n"), []string{"zip:", "a path must be valid UTF-8"}},
	}
	for _, target := range []string{"", "/change-requests/1"} {
		for _, c := range cases {
			t.Run(c.name+strings.ReplaceAll(target, "/", "_"), func(t *testing.T) {
				before := f.e.Do(f.admin, "GET", f.path(target), nil).Map(t)["revision"]
				crWantError(t, f.e.Do(f.admin, "POST", f.path(target+"/content/import"), c.body), http.StatusBadRequest, c.words...)
				if after := f.e.Do(f.admin, "GET", f.path(target), nil).Map(t)["revision"]; after != before {
					t.Fatalf("revision moved from %v to %v", before, after)
				}
			})
		}
	}
}

// TestMergeRefusesStoredBadText: a change request holding text no database should keep — a
// body or title with a NUL, as an earlier version stored on SQLite — answers 409 naming the page
// when merged, on both databases, and the main content stays as it was.
func TestMergeRefusesStoredBadText(t *testing.T) {
	f := newImportFixture(t)
	at := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	for i, c := range []struct {
		name, title, body, want string
	}{
		{"ErrBodyNUL", "Bad body", "line\x00\n", `page "Bad body" (bad0): its Markdown must not contain NUL characters`},
		{"ErrTitleNUL", "Bad\x00title", "fine\n", `(bad1): its title must not contain NUL characters`},
		{"ErrBodyNotUTF8", "Latin", "caf\xe9\n", `page "Latin" (bad2): its Markdown must be valid UTF-8`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cr := f.e.Do(f.admin, "POST", f.path("/change-requests"), map[string]any{"subject": c.name}).Map(t)
			number := cr["number"].(float64)
			id := "bad" + string(rune('0'+i))
			hash := tree.Hash([]byte(c.body))
			page := &tree.Page{ID: id, Order: "a0", Type: "document", Title: c.title, Slug: id, Body: hash, CreatedAt: at, UpdatedAt: at}
			f.e.WriteRevision(f.space, cr["id"].(string), testenv.Content{Tree: treeOf(page), Bodies: map[string]string{hash: c.body}})
			before := f.e.Do(f.admin, "GET", f.path(""), nil).Map(t)["revision"]
			crWantError(t, f.e.Do(f.admin, "POST", f.path(fmt.Sprint("/change-requests/", int(number), "/merge")), nil), http.StatusConflict, c.want)
			if after := f.e.Do(f.admin, "GET", f.path(""), nil).Map(t)["revision"]; after != before {
				t.Fatalf("the space moved from %v to %v", before, after)
			}
		})
	}
}
