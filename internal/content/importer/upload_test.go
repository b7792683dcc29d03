package importer

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// zipOf packs files into a zip archive.
func zipOf(t testing.TB, files []Upload) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, f := range files {
		fw, err := w.Create(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(f.Data)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var bookUploads = []Upload{
	{Path: "guide/install.md", Data: []byte("# Install\n\nBack to the [guide](README.md), see [config](./config-files.md#top).\n\n![shot](../images/shot.png)")},
	{Path: "guide/README.md", Data: []byte("Intro of the guide, [install](install.md).")},
	{Path: "README.md", Data: []byte("---\ndescription: The book\n---\n# Welcome\n\n[Guide](guide/) [missing](nowhere.md) [web](https://example.com)")},
	{Path: "guide/config-files.md", Data: []byte("Config.")},
	{Path: "images/shot.png", Data: []byte("PNG")},
	{Path: "SUMMARY.md", Data: []byte("* [Welcome](README.md)")},
	{Path: "__MACOSX/guide/._install.md", Data: []byte{0, 1}},
	{Path: ".git/config", Data: []byte("x")},
}

func TestFromUploads(t *testing.T) {
	for _, via := range []string{"files", "zip"} {
		t.Run(via, func(t *testing.T) {
			files := bookUploads
			if via == "zip" {
				var err error
				if files, err = Unzip(zipOf(t, bookUploads)); err != nil {
					t.Fatal(err)
				}
			}
			site, err := FromUploads(files)
			if err != nil {
				t.Fatal(err)
			}
			o, err := Build(tree.New(nil), site, testEnv())
			if err != nil {
				t.Fatal(err)
			}
			want := "Welcome\nGuide\n  Config files\n  Install\n"
			if got := outlineOf(o.Tree); got != want {
				t.Fatalf("outline:\n%s\nwant:\n%s", got, want)
			}
			files2 := o.Tree.Files()
			if len(files2) != 1 || files2[0].Name != "shot.png" || files2[0].ContentType != "image/png" {
				t.Fatalf("files %+v", files2)
			}
			welcome := o.Tree.Children("")[0]
			if welcome.Description != "The book" {
				t.Errorf("description %q", welcome.Description)
			}
			checks := map[string][]string{
				"Install": {"[guide](/pages/" + pageID(o, "Guide") + ")", "[config](/pages/" + pageID(o, "Config files") + "#top)",
					"![shot](/files/" + files2[0].ID + ")"},
				"Welcome": {"[Guide](/pages/" + pageID(o, "Guide") + ")", "missing [web](https://example.com)"},
				"Guide":   {"[install](/pages/" + pageID(o, "Install") + ")"},
			}
			for title, wants := range checks {
				for _, w := range wants {
					if b := body(t, o, title); !strings.Contains(b, w) {
						t.Errorf("%s: body lacks %q:\n%s", title, w, b)
					}
				}
			}
		})
	}
}

func TestFromUploadsRefuses(t *testing.T) {
	tests := []struct {
		name  string
		files []Upload
		want  string
	}{
		{"parent path", []Upload{{Path: "../a.md"}}, "must stay inside"},
		{"absolute path", []Upload{{Path: "/etc/a.md"}}, "must stay inside"},
		{"empty path", []Upload{{Path: ""}}, "a path is 1 to"},
		{"not UTF-8", []Upload{{Path: "a.md", Data: []byte{0xff, 0xfe}}}, "a.md: must be valid UTF-8 (an invalid byte at 0)"},
		{"NUL", []Upload{{Path: "a.md", Data: []byte("# nul\x00title")}}, "a.md: must not contain NUL characters (one at byte 5)"},
		{"NUL in a path", []Upload{{Path: "a\x00.md"}}, `"a\x00.md": a path must not contain NUL`},
		{"path not UTF-8", []Upload{{Path: "a\xff.md"}}, `"a\xff.md": a path must be valid UTF-8`},
		{"large file", []Upload{{Path: "big.bin", Data: make([]byte, edit.MaxFileSize+1)}}, fmt.Sprintf("big.bin: is %d bytes", edit.MaxFileSize+1)},
		{"too many", make([]Upload, MaxUploadFiles+1), "at most 1000 files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := FromUploads(tt.files); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}

func TestUnzipRefuses(t *testing.T) {
	if _, err := Unzip([]byte("not a zip")); err == nil || !strings.Contains(err.Error(), "not a zip archive") {
		t.Fatalf("err %v", err)
	}
	many := make([]Upload, MaxUploadFiles+1)
	for i := range many {
		many[i].Path = strings.Repeat("d/", i%3) + "f" + string(rune('a'+i%26)) + ".md"
	}
	if _, err := Unzip(zipOf(t, many)); err == nil || !strings.Contains(err.Error(), "at most 1000 files") {
		t.Fatalf("err %v", err)
	}
}

func FuzzUnzip(f *testing.F) {
	f.Add(zipOf(f, bookUploads))
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		files, err := Unzip(data)
		if err != nil {
			return
		}
		site, err := FromUploads(files)
		if err != nil {
			return
		}
		if _, err := Build(tree.New(nil), site, testEnv()); err != nil {
			t.Fatalf("Build refused what FromUploads accepted: %v", err)
		}
	})
}
