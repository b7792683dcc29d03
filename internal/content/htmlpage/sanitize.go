package htmlpage

import (
	"strings"
)

// safeLink says whether a link may lead to url: a relative URL, or http, https or mailto.
func safeLink(url string) bool { return allowedScheme(url, "http", "https", "mailto") }

// safeImage says whether an image may load from url: a relative URL, or http or https.
func safeImage(url string) bool { return allowedScheme(url, "http", "https") }

// allowedScheme says whether url is relative or of one of the schemes. A URL holding a control
// character or starting or ending with a space (which browsers strip, "java\tscript:" being
// "javascript:" to them) is neither; so is one whose first ":" comes before any "/", "?" or "#"
// and is not one of the schemes, whatever precedes it.
func allowedScheme(url string, schemes ...string) bool {
	if url == "" || url != strings.TrimSpace(url) || strings.ContainsFunc(url, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return false
	}
	end := strings.IndexAny(url, ":/?#")
	if end < 0 || url[end] != ':' {
		return true // relative
	}
	for _, s := range schemes {
		if strings.EqualFold(url[:end], s) {
			return true
		}
	}
	return false
}

// isAbsolute says whether url leads to another site: it has a scheme or starts with "//".
func isAbsolute(url string) bool {
	end := strings.IndexAny(url, ":/?#")
	return strings.HasPrefix(url, "//") || end > 0 && url[end] == ':'
}
