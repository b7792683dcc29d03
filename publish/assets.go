package publish

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/binderyhq/bindery/internal/content/htmlpage"
)

//go:embed templates/*.html templates/*.css templates/*.js
var files embed.FS

// pages are the page templates.
var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"date":  func(t time.Time) string { return t.UTC().Format("January 2, 2006") },
	"asset": func(name string) string { return assets[name].url() },
}).ParseFS(files, "templates/*.html"))

// assetsPrefix is where the style sheet and the script of every site are served.
const assetsPrefix = "/sites/~assets/"

// contentSecurityPolicy is the policy of pages that show no site's customization (error pages):
// nothing but the server's own style sheet and images.
const contentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self' data:; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// asset is a file every site shares. Its URL carries a hash of its content, so it can be cached
// for good: a new version has a new URL.
type asset struct {
	name, contentType, content, version string
}

// assets are the shared files by name: the site style sheet (followed by the highlighted
// code's), the script that searches as the reader types, adds the theme switch, switches the
// pages' tabs and copies their code, and the one that applies the reader's theme before the page
// shows.
var assets = map[string]*asset{
	"site.css": newAsset("site.css", "text/css; charset=utf-8", htmlpage.CodeCSS()),
	"site.js":  newAsset("site.js", "text/javascript; charset=utf-8", ""),
	"theme.js": newAsset("theme.js", "text/javascript; charset=utf-8", ""),
}

func newAsset(name, contentType, suffix string) *asset {
	content, err := files.ReadFile("templates/" + name)
	if err != nil {
		panic(err)
	}
	a := &asset{name: name, contentType: contentType, content: string(content) + suffix}
	sum := sha256.Sum256([]byte(a.content))
	a.version = base64.RawURLEncoding.EncodeToString(sum[:9])
	return a
}

func (a *asset) url() string { return assetsPrefix + a.name + "?v=" + a.version }

var assetsModTime = time.Now()

// serveAsset answers a shared file: cached for a year at its current URL, for an hour at others.
func serveAsset(w http.ResponseWriter, req *http.Request) {
	a := assets[strings.TrimPrefix(req.URL.Path, assetsPrefix)]
	if a == nil {
		http.NotFound(w, req)
		return
	}
	w.Header().Set("Content-Type", a.contentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if req.URL.Query().Get("v") == a.version {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "public, max-age=3600")
	}
	http.ServeContent(w, req, a.name, assetsModTime, strings.NewReader(a.content))
}
