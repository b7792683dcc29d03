package store_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuiltWithoutFTS5 builds a program opening a store without the sqlite_fts5 tag, as a plain
// `go build` would build bindery, and runs it: the store refuses to open, saying how to build.
// The race detector is kept on so that only go-sqlite3 and the store are compiled again.
func TestBuiltWithoutFTS5(t *testing.T) {
	t.Parallel()
	binary := filepath.Join(t.TempDir(), "nofts5")
	build := exec.Command("go", "build", "-race", "-o", binary, "./testdata/nofts5")
	build.Env = append(os.Environ(), "GOFLAGS=") // no sqlite_fts5 tag
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(binary, t.TempDir()).CombinedOutput()
	if err == nil {
		t.Fatalf("a store opened without FTS5:\n%s", out)
	}
	for _, w := range []string{"built without SQLite's full-text search (FTS5)", "make build", "-tags sqlite_fts5"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("%q does not say %q", out, w)
		}
	}
}
