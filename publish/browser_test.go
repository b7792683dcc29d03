package publish_test

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/testenv"
)

// TestSiteInBrowser reads a published site in headless Chromium: the sidebar leads to a page,
// the variant switcher to the other site space, the search box to results; the page loads with
// no console error (its CSP refuses nothing it needs) and its screenshot is not blank.
func TestSiteInBrowser(t *testing.T) {
	f := newSiteFixture(t)
	api := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "API"}))
	f.writeTo(t, api, page("Reference", "All the endpoints of the API."))
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	f.addSiteSpace(t, api)
	shot := filepath.Join(t.TempDir(), "site.png")
	out := testenv.RunBrowser(t, "testdata/browser.js", f.e.Server.URL+"/sites/acme/", shot)
	for _, want := range []string{"landing: Welcome", "sidebar: Install", "variant: Reference", "search: Reference", "console: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("the browser did not see %q:\n%s", want, out)
		}
	}
	if colors := distinctColors(t, shot); colors < 8 {
		t.Errorf("the screenshot has %d colours: blank", colors)
	}
}

// distinctColors counts the colours of a PNG, up to 64.
func distinctColors(t *testing.T, path string) int {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	img, err := png.Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	colors := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y && len(colors) < 64; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			colors[[4]uint32{r >> 12, g >> 12, bl >> 12, a >> 12}] = true
		}
	}
	return len(colors)
}
