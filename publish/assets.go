package publish

import (
	"embed"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/binderyhq/bindery/graph/content/htmlpage"
)

//go:embed templates/*.html templates/site.css
var files embed.FS

// pages are the page templates.
var pages = template.Must(template.New("").Funcs(template.FuncMap{
	"date": func(t time.Time) string { return t.UTC().Format("January 2, 2006") },
}).ParseFS(files, "templates/*.html"))

// assetPath is where the style sheet of every site is served.
const assetPath = "/sites/~assets/site.css"

// contentSecurityPolicy allows nothing but the server's own style sheet and images: pages have no
// script, and no third-party asset.
const contentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self' data:; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// style is the site style sheet followed by the highlighted code's.
var style = func() string {
	css, err := files.ReadFile("templates/site.css")
	if err != nil {
		panic(err)
	}
	return string(css) + "\n" + htmlpage.CodeCSS()
}()

var styleModTime = time.Now()

func serveStyle(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	http.ServeContent(w, req, "site.css", styleModTime, strings.NewReader(style))
}
