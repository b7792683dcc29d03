package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// runImport runs `bindery import` against the site and returns its standard output and error.
func (s site) runImport(t *testing.T, args ...string) (out, progress string, err error) {
	t.Helper()
	var errOut testenv.LockedBuffer
	prev := stderr
	stderr = &errOut
	defer func() { stderr = prev }()
	out, err = runCLI(t, append([]string{"import", "--server", s.base, "--token", s.token}, args...)...)
	return out, errOut.String(), err
}

// outline lists a space's pages, nested by two spaces, with their titles.
func (s site) outline(t *testing.T, space string) string {
	t.Helper()
	var b strings.Builder
	var walk func(pages []any, depth int)
	walk = func(pages []any, depth int) {
		for _, p := range pages {
			page := p.(map[string]any)
			fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth), page["title"])
			if children, ok := page["pages"].([]any); ok {
				walk(children, depth+1)
			}
		}
	}
	walk(s.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/content/pages", nil)["pages"].([]any), 0)
	return b.String()
}

// wantLines asserts text holds each line.
func wantLines(t *testing.T, text string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains("\n"+text, "\n"+l+"\n") {
			t.Errorf("no line %q in:\n%s", l, text)
		}
	}
}

func TestImportFolder(t *testing.T) {
	d := newDataDir(t)
	s, stop := startSite(t, d, "")
	defer stop()
	space := s.must(t, http.StatusCreated, "POST", "/v1/orgs/"+s.org+"/spaces", map[string]any{"title": "Docs"})["id"].(string)
	logo := "\x89PNG not really"

	t.Run("OKFolder", func(t *testing.T) {
		dir := testenv.WriteTree(t, map[string]string{
			"README.md":        "# Welcome\n\nRead [the install](guide/install.md).\n\n![logo](images/logo.png)\n",
			"guide/README.md":  "# Guide\n",
			"guide/install.md": "Steps.\n",
			"images/logo.png":  logo,
			"SUMMARY.md":       "* [Welcome](README.md)\n",
			".git/config":      "[core]\n",
		})
		out, progress, err := s.runImport(t, "--space", space, dir)
		if err != nil {
			t.Fatalf("import: %v\n%s", err, progress)
		}
		var answer importAnswer
		decodeLine(t, out, &answer)
		if answer.Revision == "" || answer.ImportedResources != 4 || answer.TotalResources != 4 {
			t.Fatalf("answer %+v", answer)
		}
		wantLines(t, progress,
			"skip  .git (hidden)",
			"page  README.md (75 bytes)",
			"layout  SUMMARY.md (23 bytes)",
			"page  guide/README.md (8 bytes)",
			"page  guide/install.md (7 bytes)",
			fmt.Sprintf("file  images/logo.png (%d bytes)", len(logo)),
			"read as gitbook",
			"guide/install.md (page)",
			"  warning    not in SUMMARY.md: imported hidden, as Git Sync leaves out the pages SUMMARY.md does not list",
			fmt.Sprintf("imported 4 of the 4 pages and files met (files no page links to are left out) into space %s: revision %s", space, answer.Revision))
		if got, want := s.outline(t, space), "Welcome\nGuide\n  Install\n"; got != want {
			t.Errorf("pages:\n%s\nwant:\n%s", got, want)
		}
		content := s.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/content", nil)
		if content["id"] != answer.Revision {
			t.Errorf("the space's revision is %v, want the import's %s", content["id"], answer.Revision)
		}
	})
	// The Docusaurus folder: MDX pages are pages, their components and admonitions
	// converted, the report printed under each file.
	t.Run("OKDocusaurusFolder", func(t *testing.T) {
		docs := s.must(t, http.StatusCreated, "POST", "/v1/orgs/"+s.org+"/spaces", map[string]any{"title": "Acme"})["id"].(string)
		out, progress, err := s.runImport(t, "--space", docs, "../../internal/content/importer/testdata/docusaurus")
		if err != nil {
			t.Fatalf("import: %v\n%s", err, progress)
		}
		var answer importAnswer
		decodeLine(t, out, &answer)
		if answer.Dialect != "docusaurus" || len(answer.Report) != 14 {
			t.Fatalf("answer %+v", answer)
		}
		wantLines(t, progress,
			"page  docs/guides/configure.mdx (830 bytes)",
			"layout  docs/guides/_category_.json (139 bytes)",
			"read as docusaurus",
			"docs/guides/configure.mdx (page)",
			"  converted  line 16: <Tabs> → tabs",
			"  warning    line 39: <Highlight> is a component Bindery does not convert; kept as text")
		want := "Introduction\nGuides\n  Installing Acme\n  Configure\nTutorial - Basics\n  Create a page\n  Deploy your site\nReference\n  API\n"
		if got := s.outline(t, docs); got != want {
			t.Errorf("pages:\n%s\nwant:\n%s", got, want)
		}
	})
	t.Run("ErrBadFilesImportNothing", func(t *testing.T) {
		before := s.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/content", nil)["id"]
		dir := testenv.WriteTree(t, map[string]string{
			"good.md":     "# Good\n",
			"latin1.md":   "caf\xe9\n",
			"nul.md":      "a\x00b\n",
			"huge.bin":    strings.Repeat("x", edit.MaxFileSize+1),
			"guide/ok.md": "fine\n",
		})
		out, progress, err := s.runImport(t, "--space", space, dir)
		wantErr(t, err, "3 of the 5 files cannot be imported", "nothing was imported")
		if out != "" {
			t.Errorf("printed %q", out)
		}
		wantLines(t, progress,
			"FAIL  latin1.md: must be valid UTF-8 (an invalid byte at 3)",
			"FAIL  nul.md: must not contain NUL characters (one at byte 1)",
			fmt.Sprintf("FAIL  huge.bin: is %d bytes, more than the %d a file may have", edit.MaxFileSize+1, edit.MaxFileSize),
			"page  good.md (7 bytes)", "page  guide/ok.md (5 bytes)")
		if after := s.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/content", nil)["id"]; after != before {
			t.Errorf("a refused import moved the space from %v to %v", before, after)
		}
	})
	t.Run("ErrServerRefusesSaysWhy", func(t *testing.T) {
		dir := testenv.WriteTree(t, map[string]string{"a.md": "A\n"})
		_, _, err := s.runImport(t, "--space", "nosuchspace", dir)
		wantErr(t, err, "404", "nothing was imported")
		_, _, err = s.runImport(t, "--space", space+"/change-requests/x", dir)
		wantErr(t, err, "404", "nothing was imported") // an id is one path segment
		bad := s
		bad.token = "bdy_wrong"
		_, _, err = bad.runImport(t, "--space", space, dir)
		wantErr(t, err, "401", "nothing was imported")
		down := s
		down.base = "http://" + freeAddr(t)
		_, _, err = down.runImport(t, "--space", space, dir)
		wantErr(t, err, "no answer from the server at "+down.base, "--server")
	})
	t.Run("ErrArguments", func(t *testing.T) {
		dir := testenv.WriteTree(t, map[string]string{"a.md": "A\n"})
		_, _, err := s.runImport(t, dir)
		wantErr(t, err, "--space is required")
		_, _, err = s.runImport(t, "--space", space)
		wantErr(t, err, "name the folder")
		_, _, err = s.runImport(t, "--space", space, filepath.Join(dir, "a.md"))
		wantErr(t, err, "is not a folder")
		_, _, err = s.runImport(t, "--space", space, dir, "--change-request", "nosuchcr", "extra")
		wantErr(t, err, `unexpected argument "extra"`)
		_, _, err = s.runImport(t, "--space", space, testenv.WriteTree(t, map[string]string{".hidden.md": "x"}))
		wantErr(t, err, "holds no file to import")
	})
	t.Run("OKFlagsAfterFolderIntoChangeRequest", func(t *testing.T) {
		cr := s.must(t, http.StatusCreated, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Import"})["id"].(string)
		dir := testenv.WriteTree(t, map[string]string{"later.md": "# Later\n"})
		out, progress, err := s.runImport(t, dir, "--space", space, "--change-request", cr)
		if err != nil {
			t.Fatalf("import: %v\n%s", err, progress)
		}
		var answer importAnswer
		decodeLine(t, out, &answer)
		crContent := s.must(t, http.StatusOK, "GET", "/v1/spaces/"+space+"/change-requests/"+cr, nil)
		if crContent["revision"] != answer.Revision {
			t.Errorf("the change request's revision is %v, want the import's %s", crContent["revision"], answer.Revision)
		}
		if strings.Contains(s.outline(t, space), "Later") {
			t.Error("an import into a change request changed the space's main content")
		}
	})
}

// TestImportExitStatus runs `bindery import` as a process: a refused file makes it exit non-zero
// after a line per file and the summary.
func TestImportExitStatus(t *testing.T) {
	dir := testenv.WriteTree(t, map[string]string{"ok.md": "fine\n", "bad.md": "\xff\n"})
	cmd := exec.Command(os.Args[0], "import", "--space", "S", "--token", "T", "--server", "http://"+freeAddr(t), dir)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() == 0 {
		t.Fatalf("exit status %v, want non-zero: %s", err, out)
	}
	want := "FAIL  bad.md: must be valid UTF-8 (an invalid byte at 0)\npage  ok.md (5 bytes)\n" +
		"bindery: import: 1 of the 2 files cannot be imported (above); nothing was imported\n"
	if string(out) != want {
		t.Errorf("printed:\n%s\nwant:\n%s", out, want)
	}
}
