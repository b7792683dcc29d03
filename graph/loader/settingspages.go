package loader

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/samlprovider"
	"github.com/binderyhq/bindery/ent/translationsettings"
	"github.com/binderyhq/bindery/internal/page"
)

// SAMLProviderPage returns one page of an organization's SAML providers, by label.
func (l *Loaders) SAMLProviderPage(ctx context.Context, o *ent.Organization, a page.Args) (Page[*ent.SAMLProvider], error) {
	return Get(ctx, l.client, samlProviderPages, o, func(o *ent.Organization) pageKey[struct{}] { return pageOf(o.ID, struct{}{}, a) })
}

var samlProviderPages = pages("SAML provider pages", fromQuery(pageSource[struct{}, *ent.SAMLProvider]{
	partition: []string{samlprovider.FieldOrganizationID},
	order:     func(struct{}) page.Order { return page.Order{Column: samlprovider.FieldLabel} },
	parentOf:  func(p *ent.SAMLProvider) string { return p.OrganizationID },
	idOf:      func(p *ent.SAMLProvider) string { return p.ID },
	cursorKey: func(p *ent.SAMLProvider, _ struct{}) any { return p.Label },
}, func(c *ent.Client, _ struct{}) *ent.SAMLProviderQuery {
	return c.SAMLProvider.Query()
}))

// TranslationSettingsPage returns one page of an organization's translation settings, by title.
func (l *Loaders) TranslationSettingsPage(ctx context.Context, o *ent.Organization, a page.Args) (Page[*ent.TranslationSettings], error) {
	return Get(ctx, l.client, translationSettingsPages, o, func(o *ent.Organization) pageKey[struct{}] { return pageOf(o.ID, struct{}{}, a) })
}

var translationSettingsPages = pages("translation settings pages", fromQuery(pageSource[struct{}, *ent.TranslationSettings]{
	partition: []string{translationsettings.FieldOrganizationID},
	order:     func(struct{}) page.Order { return page.Order{Column: translationsettings.FieldTitle} },
	parentOf:  func(t *ent.TranslationSettings) string { return t.OrganizationID },
	idOf:      func(t *ent.TranslationSettings) string { return t.ID },
	cursorKey: func(t *ent.TranslationSettings, _ struct{}) any { return t.Title },
}, func(c *ent.Client, _ struct{}) *ent.TranslationSettingsQuery {
	return c.TranslationSettings.Query()
}))
