package playground_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestPlaygroundInBrowser loads GraphiQL in headless Chromium, puts a token in its Headers tab,
// runs the default query and reads the organizations in the result: the playground works with
// nothing but this server (no CDN). It needs chromium and node; without them it says so and skips.
func TestPlaygroundInBrowser(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	out := testenv.RunBrowser(t, "testdata/browser.js", e.Server.URL+"/graphql", admin.Token, filepath.Join(t.TempDir(), "shot.png"))
	if !strings.Contains(out, org) || !strings.Contains(out, `"admin": true`) {
		t.Fatalf("the playground's result does not list the organization %s:\n%s", org, out)
	}
}
