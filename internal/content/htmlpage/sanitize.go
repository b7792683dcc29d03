package htmlpage

import (
	"regexp"

	"github.com/microcosm-cc/bluemonday"
)

// sanitizer keeps what rendered Markdown contains: bluemonday's policy for user content, plus
// the anchors of headings and footnotes, code classes, footnote roles and task-list check boxes.
// External links get rel="nofollow noopener"; the site's own links stay followable.
var sanitizer = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^[\p{L}\p{N}_:.-]{1,200}$`)).Globally()
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[a-zA-Z0-9 _-]{1,200}$`)).Globally()
	p.AllowAttrs("role").Matching(regexp.MustCompile(`^doc-[a-z]+$`)).Globally()
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").OnElements("input")
	p.RequireNoFollowOnLinks(false)
	p.RequireNoFollowOnFullyQualifiedLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(false)
	return p
}()
