package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/apispec"
)

// playwrightVersion is the driver browser tests install (into the cache of apispec.CacheDir) to steer
// Chromium.
const playwrightVersion = "1.49.1"

// RunBrowser runs a Node script (a path relative to the test's package) that steers headless
// Chromium with playwright-core, passing it args; it returns the script's output. Without
// chromium or node the test is skipped, saying so.
func RunBrowser(t *testing.T, script string, args ...string) string {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install chromium): the browser test is skipped")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the browser test is skipped")
	}
	cmd := exec.Command(node, append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+installPlaywright(t), "CHROMIUM="+chromium)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("browser run failed: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// installPlaywright installs playwright-core into the cache once and returns its
// node_modules directory.
func installPlaywright(t *testing.T) string {
	t.Helper()
	cache, err := apispec.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "playwright-"+playwrightVersion)
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "playwright-core")); err == nil {
		return modules
	}
	cmd := exec.Command("npm", "install", "--no-save", "--silent", "--prefix", dir, "playwright-core@"+playwrightVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install playwright-core: %v\n%s", err, out)
	}
	return modules
}
