package rest_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"net/http"
	"testing"
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

func TestImportRefusesBadText(t *testing.T) {
	f := newImportFixture(t)
	nul := "# nul\x00title\n"
	bodies := map[string]map[string]any{
		"Files": {"source": "markdown", "files": []any{map[string]any{"path": "a.md", "base64": base64.StdEncoding.EncodeToString([]byte(nul))}}},
		"Zip":   {"source": "markdown", "zip": zipOf(t, map[string]string{"a.md": nul})},
	}
	for name, body := range bodies {
		for _, target := range []string{"", "/change-requests/1"} {
			t.Run(name+target, func(t *testing.T) {
				r := f.e.Do(f.admin, "POST", f.path(target+"/content/import"), body)
				t.Logf("%d %s", r.Status, r.Body)
				if target != "" && r.Status == 201 {
					m := f.e.Do(f.admin, "POST", f.path("/change-requests/1/merge"), nil)
					t.Logf("merge %d %s", m.Status, m.Body)
				}
			})
		}
	}
	_ = http.StatusOK
}
