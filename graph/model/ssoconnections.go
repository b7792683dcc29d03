package model

import "github.com/binderyhq/bindery/ent"

// Nodes returns the SAML providers of the page.
func (c *SAMLProviderConnection) Nodes() []*ent.SAMLProvider {
	return nodesOf(c.Edges, func(e *SAMLProviderEdge) *ent.SAMLProvider { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *SAMLProviderConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the API tokens of the page.
func (c *APITokenConnection) Nodes() []*ent.APIToken {
	return nodesOf(c.Edges, func(e *APITokenEdge) *ent.APIToken { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *APITokenConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the translation settings of the page.
func (c *TranslationSettingsConnection) Nodes() []*ent.TranslationSettings {
	return nodesOf(c.Edges, func(e *TranslationSettingsEdge) *ent.TranslationSettings { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *TranslationSettingsConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
