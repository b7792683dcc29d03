package publish

import (
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/content/htmlpage"
)

// look is how the pages of a site space look to a reader: its customization (decision 186).
// The settings were validated when written; what reaches a page is checked again here all the
// same, so that a value that got into the database another way cannot inject markup, style or a
// source into the Content-Security-Policy: a color must be a hex color, an image an http(s) URL
// with a plain host, an enum one of its values (anything else takes the default).
type look struct {
	siteSpaceID  string
	Title        string // the site's title as readers see it
	Lang         string
	Mode         string // the theme mode: light, dark, or system (the reader's preference)
	Toggle       bool   // the reader may switch between light and dark
	Styling      styling
	CSS          template.CSS // the site's colors as custom properties, in a <style> the CSP hashes
	Logo         *themedImage
	Favicons     []favicon
	SocialImage  string
	Announcement *announcement
	Header       []headerItem
	Footer       footer
	Pagination   bool // previous and next links
	Markdown     bool // the "Markdown" page action
	Trademark    bool
	ExternalTab  bool // links out of the site open in a new tab

	home         map[string]any // where the site's title and logo lead (header.primaryLink), nil for its root
	imageOrigins []string       // where logos and favicons are loaded from, for img-src
	version      string         // what of the settings changes the page, for its ETag
	csp          string         // the pages' Content-Security-Policy (contentSecurityPolicy)
}

// styling are the settings that choose among the style sheet's variants (data attributes).
type styling struct {
	Theme, Corners, Depth, Links, SidebarBackground, SidebarList, Search string
	Tinted                                                               bool
}

type themedImage struct{ Light, Dark string }

type favicon struct {
	URL   template.URL
	Media string // a prefers-color-scheme media query, "" for every mode
}

type announcement struct {
	Message, Style string
	Link           *contentLink
}

// headerItem is a link of the header (with no URL: a menu's title), perhaps with sub-links.
type headerItem struct {
	contentLink
	Style string
	Links []contentLink
}

// contentLink is a titled link to content: a content reference, whose URL the page's frame
// resolves (siteLinks.ref); "" when it leads nowhere a reader can go.
type contentLink struct {
	Title    string
	URL      string
	External bool // the URL leaves the site
	to       map[string]any
}

type footer struct {
	Logo      *themedImage
	Groups    []footerGroup
	Copyright string
	Privacy   string // the privacy policy's URL
}

type footerGroup struct {
	Title string
	Links []contentLink
}

// lookOf is the look of a site space's pages, made once per site rows kept and header links
// shown (sites.Visit.Made): shared by views, so not to be changed (resolved makes a page's own).
func (s *siteView) lookOf(ss *ent.SiteSpace) *look {
	if s.look == nil || s.look.siteSpaceID != ss.ID {
		s.look = s.visit.Made(ss, func(settings map[string]any) any {
			l := newLook(settings, s.visit.Site, ss)
			l.siteSpaceID = ss.ID
			return l
		}).(*look)
	}
	return s.look
}

// newLook reads settings (complete: sitecustom.Effective's answer) into a look.
func newLook(settings map[string]any, site *ent.Site, ss *ent.SiteSpace) *look {
	st := object(settings, "styling")
	l := &look{
		Title: cmp.Or(text(settings, "title"), site.Title),
		Lang:  oneOf(text(settings, "internationalization", "locale"), "en", "fr", "es", "zh", "ja", "de", "nl", "no", "pt-br", "ru"),
		Mode:  oneOf(text(settings, "themes", "default"), "system", "light", "dark"),
		Styling: styling{
			Theme:             oneOf(text(st, "theme"), "clean", "muted", "bold", "gradient"),
			Corners:           oneOf(text(st, "corners"), "rounded", "straight", "circular"),
			Depth:             oneOf(text(st, "depth"), "subtle", "flat"),
			Links:             oneOf(text(st, "links"), "default", "accent"),
			SidebarBackground: oneOf(text(st, "sidebar", "background"), "default", "filled"),
			SidebarList:       oneOf(text(st, "sidebar", "list"), "default", "pill", "line"),
			Search:            oneOf(text(st, "search"), "prominent", "subtle"),
		},
		SocialImage: webURL(text(settings, "socialPreview", "url")),
		home:        object(settings, "header", "primaryLink"),
		Pagination:  flag(settings, true, "pagination", "enabled"),
		Trademark:   flag(settings, false, "trademark", "enabled"),
		Toggle:      flag(settings, true, "themes", "toggeable"),
		Markdown:    slices.Contains(list(settings, "pageActions", "items"), any("markdown")),
		ExternalTab: text(settings, "externalLinks", "target") == "blank",
	}
	l.CSS, l.Styling.Tinted = colorsCSS(st)
	l.Logo = l.image(object(settings, "header", "logo"))
	l.Favicons = l.favicons(object(settings, "favicon"))
	l.Announcement = readAnnouncement(object(settings, "announcement"))
	l.Header = readHeader(list(settings, "header", "links"))
	l.Footer = footer{Logo: l.image(object(settings, "footer", "logo")), Groups: readFooterGroups(list(settings, "footer", "groups")),
		Copyright: text(settings, "footer", "copyright"), Privacy: webURL(text(settings, "privacyPolicy", "url"))}
	links, _ := json.Marshal(list(settings, "header", "links")) // which links the reader's claims show
	l.version = fmt.Sprintf("%s %s %s", updatedAt(site.CustomizationUpdatedAt), updatedAt(ss.CustomizationUpdatedAt), links)
	l.csp = l.contentSecurityPolicy()
	return l
}

// resolved is a copy of the look with the URLs of its links set; l is not changed.
func (l *look) resolved(links siteLinks) *look {
	out := *l
	set := func(c contentLink) contentLink {
		c.URL, c.External = links.ref(c.to)
		return c
	}
	if a := l.Announcement; a != nil && a.Link != nil {
		announcement, link := *a, set(*a.Link)
		announcement.Link = &link
		out.Announcement = &announcement
	}
	out.Header = slices.Clone(l.Header)
	for i := range out.Header {
		out.Header[i].contentLink = set(out.Header[i].contentLink)
		out.Header[i].Links = slices.Clone(out.Header[i].Links)
		for j := range out.Header[i].Links {
			out.Header[i].Links[j] = set(out.Header[i].Links[j])
		}
	}
	out.Footer.Groups = slices.Clone(l.Footer.Groups)
	for i := range out.Footer.Groups {
		out.Footer.Groups[i].Links = slices.Clone(out.Footer.Groups[i].Links)
		for j := range out.Footer.Groups[i].Links {
			out.Footer.Groups[i].Links[j] = set(out.Footer.Groups[i].Links[j])
		}
	}
	return &out
}

// colorNames are the themed colors of the settings and the custom property each one sets.
var colorNames = []struct{ setting, property string }{
	{"primaryColor", "primary"}, {"infoColor", "info"}, {"successColor", "success"},
	{"warningColor", "warning"}, {"dangerColor", "danger"},
}

// isHexColor says whether s is a color of 3 or 6 hexadecimal digits after "#", read without an
// expression: every view of a page reads the site's colors.
func isHexColor(s string) bool {
	if len(s) != 4 && len(s) != 7 || s[0] != '#' {
		return false
	}
	for _, c := range []byte(s[1:]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// colorsCSS declares the styling's colors as custom properties (--primary-light,
// --primary-dark, …), which the style sheet's light and dark palettes read; tinted reports
// whether the styling has a tint color.
func colorsCSS(st map[string]any) (css template.CSS, tinted bool) {
	var b strings.Builder
	declare := func(property string, themed map[string]any) bool {
		light, dark := text(themed, "light"), text(themed, "dark")
		if !isHexColor(light) || !isHexColor(dark) {
			return false
		}
		fmt.Fprintf(&b, "--%s-light:%s;--%s-dark:%s;", property, light, property, dark)
		return true
	}
	for _, c := range colorNames {
		declare(c.property, object(st, c.setting))
	}
	tinted = declare("tint", object(st, "tint", "color"))
	if b.Len() == 0 {
		return "", tinted
	}
	return template.CSS(":root{" + b.String() + "}"), tinted
}

// styleSource is the CSP source that admits the page's <style>: its hash.
func (l *look) styleSource() string {
	sum := sha256.Sum256([]byte(l.CSS))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// contentSecurityPolicy is the policy of a page with this look: the server's own style sheet and
// script, the page's <style> by its hash, images from the server and from where the site's
// logos and favicons are, frames from the players of embeds' allow list (htmlpage).
func (l *look) contentSecurityPolicy() string {
	img := append([]string{"'self'", "data:"}, l.imageOrigins...)
	return fmt.Sprintf("default-src 'none'; style-src 'self' %s; img-src %s; script-src 'self'; connect-src 'self'; "+
		"frame-src %s; base-uri 'none'; form-action 'self'; frame-ancestors 'none'", l.styleSource(), strings.Join(img, " "),
		strings.Join(htmlpage.FrameOrigins(), " "))
}

// image reads a themed image (light and dark URLs); nil unless both are URLs a page may load.
func (l *look) image(themed map[string]any) *themedImage {
	light, dark := l.loadable(text(themed, "light")), l.loadable(text(themed, "dark"))
	if light == "" || dark == "" {
		return nil
	}
	return &themedImage{Light: light, Dark: dark}
}

// favicons are the page's icons: the site's (one per color scheme when they differ, or the
// one of the mode the site forces), its emoji drawn in an SVG, or an empty icon, which spares
// browsers asking for /favicon.ico.
func (l *look) favicons(fav map[string]any) []favicon {
	if emoji := text(fav, "emoji"); emoji != "" {
		return []favicon{{URL: emojiIcon(emoji)}}
	}
	icon := l.image(object(fav, "icon"))
	switch {
	case icon == nil:
		return []favicon{{URL: "data:,"}}
	case icon.Light == icon.Dark || l.Mode == "light":
		return []favicon{{URL: template.URL(icon.Light)}}
	case l.Mode == "dark":
		return []favicon{{URL: template.URL(icon.Dark)}}
	}
	return []favicon{{URL: template.URL(icon.Light), Media: "(prefers-color-scheme: light)"},
		{URL: template.URL(icon.Dark), Media: "(prefers-color-scheme: dark)"}}
}

// emojiIcon is an SVG image of an emoji as a data: URL. The emoji is escaped for XML, then for
// the URL, so it can neither end the SVG's text nor the attribute.
func emojiIcon(emoji string) template.URL {
	var text strings.Builder
	template.HTMLEscape(&text, []byte(emoji))
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">` + text.String() + `</text></svg>`
	return template.URL("data:image/svg+xml," + url.PathEscape(svg))
}

// plainHost is a host a CSP source may name: letters, digits, dots and hyphens, and a port.
var plainHost = regexp.MustCompile(`^[A-Za-z0-9.-]+(?::[0-9]{1,5})?$`)

// loadable returns an image URL a page may load (an http(s) URL with a plain host), adding its
// origin to the CSP's img-src; "" for any other.
func (l *look) loadable(raw string) string {
	u, err := url.Parse(raw)
	if raw == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || !plainHost.MatchString(u.Host) {
		return ""
	}
	origin := u.Scheme + "://" + strings.ToLower(u.Host)
	if !slices.Contains(l.imageOrigins, origin) {
		l.imageOrigins = append(l.imageOrigins, origin)
	}
	return raw
}

// webURL returns raw when it is an absolute http(s) URL, else "".
func webURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return raw
}

func readAnnouncement(a map[string]any) *announcement {
	if !flag(a, false, "enabled") || text(a, "message") == "" {
		return nil
	}
	out := &announcement{Message: text(a, "message"), Style: oneOf(text(a, "style"), "info", "warning", "danger", "success")}
	if link := object(a, "link"); link != nil {
		out.Link = &contentLink{Title: text(link, "title"), to: object(link, "to")}
	}
	return out
}

func readHeader(items []any) []headerItem {
	var out []headerItem
	for _, it := range items {
		m, _ := it.(map[string]any)
		out = append(out, headerItem{contentLink: contentLink{Title: text(m, "title"), to: object(m, "to")},
			Style: oneOf(text(m, "style"), "link", "button-primary", "button-secondary"), Links: readLinks(list(m, "links"))})
	}
	return out
}

func readFooterGroups(groups []any) []footerGroup {
	var out []footerGroup
	for _, g := range groups {
		m, _ := g.(map[string]any)
		out = append(out, footerGroup{Title: text(m, "title"), Links: readLinks(list(m, "links"))})
	}
	return out
}

func readLinks(links []any) []contentLink {
	var out []contentLink
	for _, l := range links {
		m, _ := l.(map[string]any)
		out = append(out, contentLink{Title: text(m, "title"), to: object(m, "to")})
	}
	return out
}

// object is the JSON object at a path of settings, nil when there is none.
func object(m map[string]any, path ...string) map[string]any {
	for _, name := range path {
		m, _ = m[name].(map[string]any)
	}
	return m
}

// text is the string at a path of settings, "" when there is none.
func text(m map[string]any, path ...string) string {
	s, _ := object(m, path[:len(path)-1]...)[path[len(path)-1]].(string)
	return s
}

// list is the array at a path of settings.
func list(m map[string]any, path ...string) []any {
	l, _ := object(m, path[:len(path)-1]...)[path[len(path)-1]].([]any)
	return l
}

// flag is the boolean at a path of settings, def when there is none.
func flag(m map[string]any, def bool, path ...string) bool {
	b, ok := object(m, path[:len(path)-1]...)[path[len(path)-1]].(bool)
	if !ok {
		return def
	}
	return b
}

// oneOf returns v when it is one of values, else the first value (the default).
func oneOf(v string, values ...string) string {
	if slices.Contains(values, v) {
		return v
	}
	return values[0]
}

// updatedAt is the time of a customization's last change, "" when it has none.
func updatedAt(t *time.Time) string {
	if t == nil {
		return ""
	}
	return strconv.FormatInt(t.UnixMicro(), 10)
}
