// Package playground serves GraphiQL for the GraphQL endpoint from files embedded in the binary,
// so it works without reaching a CDN.
package playground

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:generate sh ./fetch-assets.sh

//go:embed index.html
var page []byte

//go:embed assets
var assets embed.FS

// Page serves the GraphiQL page.
func Page(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:")
	_, _ = w.Write(page)
}

// Assets serves the page's scripts and styles under the prefix they are mounted at.
func Assets(prefix string) http.Handler {
	sub, _ := fs.Sub(assets, "assets")
	return http.StripPrefix(prefix, cacheForever(http.FileServerFS(sub)))
}

// cacheForever lets browsers keep the versioned assets.
func cacheForever(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=86400")
		h.ServeHTTP(w, r)
	})
}
