package model

import "github.com/binderyhq/bindery/ent"

// PublishedContentSite is a site as its renderer needs it (Site.publishedContent); its structure
// and customizations are resolved from the site.
type PublishedContentSite struct {
	Site *ent.Site
	// ShareKey is the share key resolved for the site: the URLs under the field carry it.
	ShareKey *string
}
