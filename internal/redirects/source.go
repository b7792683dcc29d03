package redirects

// Source paths: a source is a path of the site as the reference client's SiteRedirectSourcePath
// allows it: "/" then segments of letters, digits, "-._~+" and percent-escapes, optionally ending
// in a wildcard ("/docs/*" or "/docs*"). Sources and readers' paths are compared in one canonical
// form: unreserved characters as themselves, every other byte as an upper-case escape. Data in,
// data out.

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// MaxSource is the longest source, in bytes (the reference's maxLength; its characters are ASCII).
const MaxSource = 512

// Source is a parsed source path.
type Source struct {
	// Path is the source in canonical form, its wildcard included.
	Path string
	// Prefix is what a wildcard source matches the start of: Path without its "*" ("/docs/" for
	// "/docs/*"). "" for an exact source.
	Prefix string
}

// Wildcard reports whether the source ends in a wildcard.
func (s Source) Wildcard() bool { return s.Prefix != "" }

// Parse reads a source path. The error says what is wrong with it, without naming the field.
func Parse(s string) (Source, error) {
	if len(s) > MaxSource {
		return Source{}, fmt.Errorf("must be at most %d characters (got %d)", MaxSource, len(s))
	}
	body, star := strings.CutSuffix(s, "*")
	if !strings.HasPrefix(s, "/") || body == "/" {
		return Source{}, errors.New(`must be a path of the site starting with "/", like /old-page or /docs/*`)
	}
	body = strings.TrimSuffix(body, "/")
	if strings.HasSuffix(s, "/") {
		return Source{}, errors.New(`must not end with "/" (end it with /* to match the paths below it)`)
	}
	canon, err := canonicalSegments(body[1:])
	if err != nil {
		return Source{}, err
	}
	out := Source{Path: "/" + canon}
	if star {
		out.Prefix = out.Path + s[len(body):len(s)-1] // keeps the "/" of "/docs/*"
		out.Path = out.Prefix + "*"
	}
	return out, nil
}

// canonicalSegments checks the "/"-separated segments of a source body and writes them in
// canonical form.
func canonicalSegments(body string) (string, error) {
	var b strings.Builder
	for i, seg := range strings.Split(body, "/") {
		if seg == "" {
			return "", errors.New(`must not have an empty segment ("//")`)
		}
		if i > 0 {
			b.WriteByte('/')
		}
		for j := 0; j < len(seg); j++ {
			c := seg[j]
			switch {
			case unreserved(c):
				b.WriteByte(c)
			case c == '%' && j+2 < len(seg) && isHex(seg[j+1]) && isHex(seg[j+2]):
				writeByte(&b, unhex(seg[j+1])<<4|unhex(seg[j+2]))
				j += 2
			case c == '*':
				return "", errors.New(`may hold "*" only at its end`)
			default:
				return "", fmt.Errorf("may hold only letters, digits, \"-._~+\", \"/\" and %%-escapes (found %q)", rune(c))
			}
		}
	}
	return b.String(), nil
}

// Canonical returns a reader's path (decoded, as net/http gives it) in the canonical form of
// sources.
func Canonical(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			b.WriteByte('/')
			continue
		}
		writeByte(&b, path[i])
	}
	return b.String()
}

// writeByte writes a byte as itself when it is unreserved, else escaped.
func writeByte(b *strings.Builder, c byte) {
	if unreserved(c) {
		b.WriteByte(c)
		return
	}
	fmt.Fprintf(b, "%%%02X", c)
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~+", c) >= 0
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// Prefixes lists the prefixes a wildcard source may have to match a canonical path: every start
// of the path longer than "/" that does not cut an escape, and the path followed by "/" ("/docs/*"
// matches "/docs" too). Bounded by MaxSource, so a lookup names at most MaxSource prefixes.
func Prefixes(path string) []string {
	var out []string
	for i := 2; i <= len(path) && i < MaxSource; i++ {
		if !cutsEscape(path, i) {
			out = append(out, path[:i])
		}
	}
	if len(path)+1 < MaxSource {
		out = append(out, path+"/")
	}
	return out
}

// cutsEscape reports whether path[:i] ends inside a %XX escape.
func cutsEscape(path string, i int) bool {
	return path[i-1] == '%' || i >= 2 && path[i-2] == '%'
}

// Best returns the source among candidates that a canonical path follows: its exact source, else
// the wildcard source with the longest prefix (the most specific); and the part of the path the
// wildcard matched. ok is false when none matches.
func Best(candidates []Source, path string) (best int, suffix string, ok bool) {
	best = -1
	for i, c := range candidates {
		switch {
		case !c.Wildcard() && c.Path == path:
			return i, "", true
		case c.Wildcard() && matches(c.Prefix, path) && (best < 0 || len(c.Prefix) > len(candidates[best].Prefix)):
			best = i
		}
	}
	if best < 0 {
		return -1, "", false
	}
	if p := candidates[best].Prefix; len(p) <= len(path) {
		suffix = path[len(p):]
	}
	return best, suffix, true
}

func matches(prefix, path string) bool {
	return strings.HasPrefix(path, prefix) || prefix == path+"/"
}

// Append adds a wildcard's matched suffix (canonical, so escaped) to a destination: a URL or a
// path, before its query and fragment. The suffix is added as it is: a destination meant to
// receive the paths below a "/docs/*" source ends with "/".
func Append(destination, suffix string) string {
	if suffix == "" {
		return destination
	}
	u, err := url.Parse(destination)
	if err != nil {
		return destination
	}
	u.RawPath = u.EscapedPath() + suffix
	if p, err := url.PathUnescape(u.RawPath); err == nil {
		u.Path = p
	}
	return u.String()
}
