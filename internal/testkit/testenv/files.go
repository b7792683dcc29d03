package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteTree writes files (a path with "/" separators → its content) under a new temporary
// directory, making the directories they need, and returns the directory.
func WriteTree(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}
