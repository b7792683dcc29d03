package sitecustom

import "strings"

// Bounds the reference leaves open: texts without a bound take at most unboundedText characters
// and lists without one at most unboundedList items (a settings document stays small).
const (
	unboundedText = 256
	unboundedList = 50
)

// settings is the tree of SiteCustomizationSettings: what each field accepts, its default, and
// whether a site space may override it. Defaults are written down in docs/decisions.md.
var settings = group(map[string]*node{
	"title":          leaf(text(2, 128)).over(),
	"localizedTitle": leaf(localized(128)).over(),
	"styling": group(map[string]*node{
		"theme":         leaf(enum("clean", "muted", "bold", "gradient")).or("clean").over(),
		"primaryColor":  leaf(themedColor).or(themed("#346DDB")).over(),
		"tint":          leaf(object(map[string]field{"color": req(themedColor)})).over(),
		"infoColor":     leaf(themedColor).or(themed("#787878")).over(),
		"successColor":  leaf(themedColor).or(themed("#00C950")).over(),
		"warningColor":  leaf(themedColor).or(themed("#FE9A00")).over(),
		"dangerColor":   leaf(themedColor).or(themed("#FB2C36")).over(),
		"corners":       leaf(enum("straight", "rounded", "circular")).or("rounded").over(),
		"depth":         leaf(enum("subtle", "flat")).or("subtle").over(),
		"links":         leaf(enum("default", "accent")).or("default").over(),
		"font":          leaf(stringOr(enum(fonts...), fontDefinition)).or("Inter"),
		"headingFont":   &node{check: stringOr(enum(fonts...), fontDefinition), nullable: true},
		"monospaceFont": leaf(stringOr(enum(monospaceFonts...), fontDefinition)).or("IBMPlexMono"),
		"background":    leaf(enum("plain", "match")).or("plain").over(),
		"icons":         leaf(enum("regular", "solid", "duotone", "light", "thin")).or("regular").over(),
		"codeTheme": group(map[string]*node{
			"default": leaf(themedCodeTheme).or(map[string]any{"light": "default-light", "dark": "default-dark"}).over(),
			"openapi": leaf(themedCodeTheme).or(map[string]any{"light": "default-light", "dark": "default-dark"}).over(),
		}),
		"sidebar": group(map[string]*node{
			"background": leaf(enum("default", "filled")).or("default").over(),
			"list":       leaf(enum("default", "pill", "line")).or("default").over(),
		}),
		"search": leaf(enum("prominent", "subtle")).or("prominent").over(),
	}),
	"internationalization": group(map[string]*node{
		"locale": leaf(enum("en", "fr", "es", "zh", "ja", "de", "nl", "no", "pt-br", "ru")).or("en").over(),
	}),
	"favicon": leaf(favicon).or(map[string]any{}).over(),
	"header": group(map[string]*node{
		"preset":          leaf(enum("default", "bold", "contrast", "custom", "none")).or("default").over(),
		"logo":            leaf(themedURL).over(),
		"primaryLink":     leaf(contentRef).over(),
		"backgroundColor": leaf(themedColor).over(),
		"linkColor":       leaf(themedColor).over(),
		"links":           leaf(listOf(headerItem, 0, unboundedList)).or([]any{}).over(),
	}),
	"footer": group(map[string]*node{
		"logo":      leaf(themedURL).over(),
		"groups":    leaf(listOf(footerGroup, 0, unboundedList)).or([]any{}).over(),
		"copyright": leaf(text(0, 512)).over(),
	}),
	"announcement": leaf(object(map[string]field{
		"enabled":          req(boolean),
		"message":          req(text(2, 128)),
		"localizedMessage": opt(localized(128)),
		"link":             opt(contentLink),
		"style":            req(enum("info", "warning", "danger", "success")),
	})).over(),
	"themes": group(map[string]*node{
		"default":   leaf(enum("light", "dark", "system")).or("system").over(),
		"toggeable": leaf(boolean).or(true).over(),
	}),
	"feedback": group(map[string]*node{"enabled": leaf(boolean).or(false).over()}),
	"ai": group(map[string]*node{
		"mode":              leaf(enum("none", "search", "assistant")).or("none"),
		"greeting":          leaf(text(0, 256)),
		"localizedGreeting": leaf(localized(128)),
		"suggestions":       leaf(listOf(text(3, 64), 0, 5)),
		"instructions":      leaf(text(0, 10000)),
	}),
	"advancedCustomization": group(map[string]*node{"enabled": leaf(boolean).or(false)}),
	"pageActions": group(map[string]*node{
		"items": leaf(listOf(enum("assistant", "external-ai", "markdown", "mcp", "git", "pdf"), 0, 6)).
			or([]any{"markdown"}),
	}),
	"externalLinks":  group(map[string]*node{"target": leaf(enum("self", "blank")).or("self").over()}),
	"pagination":     group(map[string]*node{"enabled": leaf(boolean).or(true).over()}),
	"trademark":      group(map[string]*node{"enabled": leaf(boolean).or(false).over()}),
	"privacyPolicy":  group(map[string]*node{"url": leaf(absoluteURL).over()}),
	"socialPreview":  group(map[string]*node{"url": leaf(absoluteURL).over()}),
	"socialAccounts": leaf(listOf(socialAccount, 0, 10)).or([]any{}),
	"insights":       group(map[string]*node{"trackingCookie": leaf(boolean).or(true)}),
	// mcp is the site's MCP server (a Bindery extension, decision 443): enabled has no default
	// (MCP decides by the site's visibility); tools are those it offers.
	"mcp": group(map[string]*node{
		"enabled": leaf(boolean),
		"tools":   leaf(listOf(enum(MCPTools...), 0, len(MCPTools))).or(toAny(MCPTools)),
	}),
})

func themed(c string) map[string]any { return map[string]any{"light": c, "dark": c} }

var (
	themedColor     = object(map[string]field{"light": req(color), "dark": req(color)})
	themedURL       = object(map[string]field{"light": req(absoluteURL), "dark": req(absoluteURL)})
	themedCodeTheme = object(map[string]field{"light": req(enum(codeThemes...)), "dark": req(enum(codeThemes...))})
)

var fonts = []string{"ABCFavorit", "Inter", "Roboto", "RobotoSlab", "OpenSans", "SourceSansPro", "Lato", "Ubuntu",
	"Raleway", "Merriweather", "Overpass", "NotoSans", "IBMPlexSerif", "Poppins", "FiraSans"}

var monospaceFonts = []string{"FiraCode", "IBMPlexMono", "JetBrainsMono", "SourceCodePro", "RobotoMono", "SpaceMono",
	"DMMono", "Inconsolata"}

// fontDefinition is a custom font: its family and font faces.
var fontDefinition = object(map[string]field{
	"id":         req(text(1, unboundedText)),
	"custom":     req(boolean),
	"fontFamily": req(text(1, 50)),
	"fontFaces": req(listOf(object(map[string]field{
		"weight": req(integer(1, 1000)),
		"sources": req(listOf(object(map[string]field{
			"url":    req(absoluteURL),
			"format": opt(enum("woff2", "woff")),
		}), 1, unboundedList)),
	}), 1, unboundedList)),
})

// favicon is an icon (light and dark URLs), an emoji, or nothing ({}).
var favicon = variants(func(m map[string]any) (check, string) {
	_, icon := m["icon"]
	_, emoji := m["emoji"]
	switch {
	case icon && emoji:
		return nil, "must have icon or emoji, not both"
	case icon:
		return object(map[string]field{"icon": req(themedURL)}), ""
	case emoji:
		return object(map[string]field{"emoji": req(text(1, 50))}), ""
	}
	return object(nil), ""
})

// refKinds are the kinds of content reference, each with the field naming its target and the
// optional fields that say where the target is.
var refKinds = map[string]struct {
	target string
	where  []string
}{
	"file":             {"file", []string{"space"}},
	"url":              {"url", nil},
	"page":             {"page", []string{"space"}},
	"anchor":           {"anchor", []string{"space", "page"}},
	"user":             {"user", nil},
	"collection":       {"collection", nil},
	"space":            {"space", nil},
	"reusable-content": {"reusableContent", []string{"space"}},
	"tag":              {"tag", []string{"space"}},
	"openapi":          {"spec", nil},
}

// contentRef is a reference to content (the reference's ContentRef), chosen by its kind. A url
// reference must be an absolute http(s) URL: published pages link to it.
var contentRef = variants(func(m map[string]any) (check, string) {
	k, _ := m["kind"].(string)
	ref, ok := refKinds[k]
	if !ok {
		return nil, "kind must be one of " + strings.Join(sortedKeys(refKinds), ", ")
	}
	fields := map[string]field{"kind": req(enum(k)), ref.target: req(text(1, unboundedText))}
	if k == "url" {
		fields["url"] = req(absoluteURL)
	}
	for _, w := range ref.where {
		fields[w] = opt(text(1, unboundedText))
	}
	return object(fields), ""
})

// contentLink is a titled link to content.
var contentLink = object(map[string]field{
	"title":          req(text(0, 64)),
	"localizedTitle": opt(localized(64)),
	"to":             req(contentRef),
})

// headerItem is a link of the header, with its sub-links, shown to visitors matching condition.
var headerItem = object(map[string]field{
	"title":          req(text(0, unboundedText)),
	"localizedTitle": opt(localized(unboundedText)),
	"style":          opt(enum("link", "button-primary", "button-secondary")),
	"to":             req(nullable(contentRef)),
	"links":          req(listOf(contentLink, 0, unboundedList)),
	"condition":      opt(text(0, 1024)),
})

// footerGroup is a titled group of footer links.
var footerGroup = object(map[string]field{
	"title":          req(text(0, unboundedText)),
	"localizedTitle": opt(localized(unboundedText)),
	"links":          req(listOf(contentLink, 0, unboundedList)),
})

// socialAccount is a handle on a social platform, and where the site shows it.
var socialAccount = object(map[string]field{
	"platform": req(enum("twitter", "instagram", "facebook", "linkedin", "github", "discord", "slack", "youtube",
		"tiktok", "reddit", "bluesky", "mastodon", "threads", "medium")),
	"handle":  req(text(1, 128)),
	"display": req(object(map[string]field{"footer": req(boolean), "header": req(boolean)})),
})

var codeThemes = []string{"default-light", "default-dark", "monochrome-light", "monochrome-dark", "andromeeda",
	"aurora-x", "ayu-dark", "catppuccin-frappe", "catppuccin-latte", "catppuccin-macchiato", "catppuccin-mocha",
	"dark-plus", "dracula", "dracula-soft", "everforest-dark", "everforest-light", "github-dark",
	"github-dark-default", "github-dark-dimmed", "github-dark-high-contrast", "github-light", "github-light-default",
	"github-light-high-contrast", "gruvbox-dark-hard", "gruvbox-dark-medium", "gruvbox-dark-soft",
	"gruvbox-light-hard", "gruvbox-light-medium", "gruvbox-light-soft", "houston", "kanagawa-dragon",
	"kanagawa-lotus", "kanagawa-wave", "laserwave", "light-plus", "material-theme", "material-theme-darker",
	"material-theme-lighter", "material-theme-ocean", "material-theme-palenight", "min-dark", "min-light",
	"monokai", "night-owl", "nord", "one-dark-pro", "one-light", "plastic", "poimandres", "red", "rose-pine",
	"rose-pine-dawn", "rose-pine-moon", "slack-dark", "slack-ochin", "snazzy-light", "solarized-dark",
	"solarized-light", "synthwave-84", "tokyo-night", "vesper", "vitesse-black", "vitesse-dark", "vitesse-light"}
