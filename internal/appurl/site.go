package appurl

import (
	"net"
	"net/url"
	"strings"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

// Site is a URL of a published site of this server: the site, by its basename or id under
// `/sites/` (Name) or by the custom hostname the URL is at (Hostname), the path inside the site
// and the URL's query (where a reader's share key, visitor token and claims come).
type Site struct {
	Name     string
	Hostname string
	// BasePath is the path of the site's root in the URL, ending in "/": `/sites/{name}/` under
	// the server's base path, `/` at a custom hostname.
	BasePath string
	Path     string // below BasePath, decoded, without outer slashes
	Query    url.Values
	Origin   string // the URL's scheme and host
}

// ParseSite reads raw as a published site's URL: at this server's host (base) under `/sites/`, or
// at another host, a site's custom hostname. Returns INVALID naming field when raw is not an
// absolute http(s) URL, NOT_FOUND when it is one of this server that no site can have: another
// path of the server's own host, an address or localhost.
func ParseSite(field, base, raw string) (Site, error) {
	if err := check.Text(field, raw, 1, maxURL); err != nil {
		return Site{}, err
	}
	u, err := url.Parse(raw)
	b, baseErr := url.Parse(base)
	if err != nil || baseErr != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return Site{}, apperr.Invalidf("%s: must be an absolute http(s) URL, got %q", field, check.Truncate(raw, 100))
	}
	s := Site{Query: u.Query(), Origin: u.Scheme + "://" + u.Host}
	host := strings.ToLower(u.Hostname())
	if !strings.EqualFold(u.Host, b.Host) {
		if host == "localhost" || net.ParseIP(host) != nil || strings.EqualFold(host, b.Hostname()) {
			return Site{}, noContent(raw)
		}
		s.Hostname, s.BasePath, s.Path = host, "/", strings.Trim(u.Path, "/")
		return s, nil
	}
	prefix := strings.TrimRight(b.Path, "/") + "/sites/"
	rest, under := strings.CutPrefix(u.Path, prefix)
	s.Name, s.Path, _ = strings.Cut(rest, "/")
	if !under || s.Name == "" {
		return Site{}, noContent(raw)
	}
	s.BasePath, s.Path = prefix+s.Name+"/", strings.Trim(s.Path, "/")
	return s, nil
}
