package playground_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testenv"
)

// playwrightVersion is the driver the browser test installs (into the cache) to steer Chromium.
const playwrightVersion = "1.49.1"

// TestPlaygroundInBrowser loads GraphiQL in headless Chromium, puts a token in its Headers tab,
// runs the default query and reads the organizations in the result: the playground works with
// nothing but this server (no CDN). It needs chromium and node; without them it says so and skips.
func TestPlaygroundInBrowser(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install chromium): the browser test of the playground is skipped")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the browser test of the playground is skipped")
	}
	modules := installPlaywright(t)
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	cmd := exec.Command(node, "testdata/browser.js", e.Server.URL+"/graphql", admin.Token, filepath.Join(t.TempDir(), "shot.png"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules, "CHROMIUM="+chromium)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("browser run failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), org) || !strings.Contains(string(out), `"admin": true`) {
		t.Fatalf("the playground's result does not list the organization %s:\n%s", org, out)
	}
}

// installPlaywright installs playwright-core into the repository's .cache once and returns its
// node_modules directory.
func installPlaywright(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, ".cache", "playwright-"+playwrightVersion)
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
