package publish_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestSiteInBrowser reads a published site with sections in headless Chromium: the sidebar leads
// to a page, a section tab to the other section, its variant switcher to the section's other
// site space; the site's customization shows (its primary color on links, its dark theme, its
// favicon); the theme switch turns it light for the next pages too; search as you type lists results that the keyboard opens, and the search box without
// a choice submits to the results page. The pages load with no console error (their CSP refuses
// nothing they need, the hashed <style> included) and the screenshot is not blank.
func TestSiteInBrowser(t *testing.T) {
	f := newSiteFixture(t)
	api := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "API"}))
	f.writeTo(t, api, page("Reference", "All the endpoints of the API."))
	v2 := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "API v2"}))
	f.writeTo(t, v2, page("Reference v2", "All the endpoints of the second API."), page("Webhooks", "Events sent to your endpoints."))
	base := "/v1/orgs/" + f.org + "/sites/" + f.site
	f.created(t, f.e.Do(f.admin, "POST", base+"/sections", map[string]any{"spaceId": f.space, "title": "Guides"}))
	reference := f.created(t, f.e.Do(f.admin, "POST", base+"/sections", map[string]any{"spaceId": api, "title": "Reference"}))
	f.created(t, f.e.Do(f.admin, "POST", base+"/site-spaces", map[string]any{"spaceId": v2, "sectionId": reference}))
	f.customize(t, map[string]any{
		"styling": map[string]any{"primaryColor": map[string]any{"light": "#c2185b", "dark": "#c2185b"}},
		"themes":  map[string]any{"default": "dark", "toggeable": true},
		"favicon": map[string]any{"emoji": "📘"},
	})
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	shot := filepath.Join(t.TempDir(), "site.png")
	out := testenv.RunBrowser(t, "testdata/browser.js", f.e.Server.URL+"/sites/acme/", shot)
	for _, want := range []string{"landing: Welcome", "sidebar: Install", "section: Reference", "variant: Reference v2",
		"link color: rgb(194, 24, 91)", "background: rgb(13, 17, 23)", "favicon: data:image/svg+xml,", "switched: rgb(255, 255, 255) Switch to the dark theme", "kept: rgb(255, 255, 255)",
		"as you type: Reference v2,Webhooks (2 results)", "arrows: Webhooks", "chosen: Webhooks at /sites/acme/reference/api-v2/webhooks", "escape: closed", "search: Reference v2,Webhooks", "console: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("the browser did not see %q:\n%s", want, out)
		}
	}
	if colors := distinctColors(t, shot); colors < 8 {
		t.Errorf("the screenshot has %d colours: blank", colors)
	}
}

// TestBlocksInBrowser reads in headless Chromium a published page holding every block the
// document model supports (testdata/blocks.md): the tabs switch by click and by the arrow keys,
// Home and End, and a link to a heading in a hidden tab selects that tab (followed on the page
// and loaded anew); the expandable opens; the copy button copies the code (read back from the
// clipboard); the formulas are MathML laid out at a non-zero size; the image loads; the player of
// the allow-listed embed is a sandboxed frame the page's CSP lets load (its provider answered by
// the script); an API operation (on a page of its own) shows its first response open and opens a
// property's properties; no console error, and the screenshot is not blank.
func TestBlocksInBrowser(t *testing.T) {
	f := newSiteFixture(t)
	f.importDocs(t, f.space, map[string]string{"dot.md": "![Dot](img/dot.png)\n", "img/dot.png": dotPNG(t)})
	stored := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/content/path/dot?format=markdown", nil)
	file := regexp.MustCompile(`/files/([A-Za-z0-9]+)`).FindSubmatch(stored.Body)
	if file == nil {
		t.Fatalf("the imported page links no file: %s", stored.Body)
	}
	src, err := os.ReadFile("testdata/blocks.md")
	if err != nil {
		t.Fatal(err)
	}
	body := strings.NewReplacer("FILE", string(file[1]), "PAGE", f.pageID(t, "guides/install")).Replace(string(src))
	f.write(t, page("Blocks", body))
	f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/openapi", map[string]any{"slug": "petstore", "source": map[string]any{"text": petstoreSpec("Update a pet")}}))
	f.e.RunDueJobs()
	f.write(t, map[string]any{"operation": "insert_page", "title": "API", "document": operationDoc("petstore", "/pets/{petId}", "put")})
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	shot := filepath.Join(t.TempDir(), "blocks.png")
	out := testenv.RunBrowser(t, "testdata/blocks.js", f.e.Server.URL+"/sites/acme/blocks", shot)
	for _, want := range []string{"hints: info note,success note,warning alert,danger alert", "code: 2 blocks, line numbers 3",
		"tabs: Linux", "click: macOS shows Install with brew. (others hidden: true)", "arrow right: Windows", "arrow left: macOS",
		"home: Linux", "end: Windows", "link into a tab: Windows shows it", "loaded into a tab: Windows shows it", "expandable: open, The hidden body. visible", "copied: Copied package main",
		"math: 2 visible", "image: loaded", "embed: sandboxed player loaded, 1 link card", "stepper: 2 steps", "columns: 2",
		"table: 1 rows", "file: dot.png", "content ref: Install",
		"api operation: PUT /pets/{petId}, response open, owner: email visible", "console: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("the browser did not see %q:\n%s", want, out)
		}
	}
	if colors := distinctColors(t, shot); colors < 8 {
		t.Errorf("the screenshot has %d colours: blank", colors)
	}
}

// dotPNG is a small PNG image: a dark dot on white.
func dotPNG(t *testing.T) string {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	img.Set(4, 4, color.Black)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.String()
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
