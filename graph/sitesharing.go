package graph

import (
	"context"
	"crypto/subtle"
	"net/url"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/sitesharelink"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/page"
)

// Bounds of share links: the name (the reference's ShareLinkName), the key made for each link,
// and what a search or a presented key may be.
const (
	shareLinkNameMax = 50
	shareKeyLength   = 32 // base62 characters: about 190 random bits
	shareKeyMax      = 100
)

// requireSiteManager refuses a viewer who may not manage the site: only creators and admins may.
// Returns FORBIDDEN.
func requireSiteManager(ctx context.Context, s *ent.Site, action string) error {
	if !rule.ForSite(viewer.FromContext(ctx), s.OrganizationID).Admin {
		return apperr.Forbiddenf("only members with the %s role may %s", viewer.RoleCreate, action)
	}
	return nil
}

// siteShareLinks is Site.shareLinks: a page of the site's share links, newest first; search keeps
// those whose name contains it or whose key it is. Returns FORBIDDEN for members who may not
// manage the site.
func (r *Resolver) siteShareLinks(ctx context.Context, s *ent.Site, first *int, after, search *string) (*model.SiteShareLinkConnection, error) {
	if err := requireSiteManager(ctx, s, "see a site's share links"); err != nil {
		return nil, err
	}
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	f := loader.ShareLinkFilter{Search: derefOr(search, "")}
	if err := checkText("search", f.Search, 0, shareKeyMax); err != nil {
		return nil, err
	}
	if f.Search != "" {
		f.KeyHash = string(accounts.HashSecret(f.Search))
	}
	p, err := loader.For(ctx, r.Client).ShareLinkPage(ctx, s, f, args)
	if err != nil {
		return nil, err
	}
	return &model.SiteShareLinkConnection{
		Edges: edges(ctx, p.Items, shareLinkCursor, func(c string, n *ent.SiteShareLink) *model.SiteShareLinkEdge {
			return &model.SiteShareLinkEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func shareLinkCursor(l *ent.SiteShareLink) page.Cursor {
	return page.Cursor{Key: l.CreatedAt, ID: l.ID}
}

// createSiteShareLink makes a share link with a fresh random key, and returns the key with it:
// only the key's hash is stored, so this is the one time it is shown.
// Returns NOT_FOUND, FORBIDDEN, or INVALID naming the field.
func (r *Resolver) createSiteShareLink(ctx context.Context, orgID, siteID string, in model.CreateSiteShareLinkInput) (*model.CreatedSiteShareLink, error) {
	s, err := r.manageableSite(ctx, orgID, siteID, "manage share links")
	if err != nil {
		return nil, err
	}
	name, err := trimmedText("name", in.Name, 0, shareLinkNameMax)
	if err != nil {
		return nil, err
	}
	key := id.Random(shareKeyLength)
	l, err := r.Client.SiteShareLink.Create().SetOrganizationID(s.OrganizationID).SetSiteID(s.ID).
		SetName(name).SetKeyHash(accounts.HashSecret(key)).Save(ctx)
	if err != nil {
		return nil, err
	}
	return &model.CreatedSiteShareLink{ShareLink: l, Key: key, URL: SharedURL(r.siteURL(s), key)}, nil
}

// SharedURL is a URL of a site's reader (its published URL, a site space's) that opens a
// share-link site with key.
func SharedURL(u, key string) string { return u + "?shareKey=" + url.QueryEscape(key) }

// manageableShareLink returns a share link of a site the viewer manages.
// Returns NOT_FOUND or FORBIDDEN.
func (r *Resolver) manageableShareLink(ctx context.Context, orgID, siteID, linkID string) (*ent.SiteShareLink, error) {
	s, err := r.manageableSite(ctx, orgID, siteID, "manage share links")
	if err != nil {
		return nil, err
	}
	l, err := r.Client.SiteShareLink.Query().Where(sitesharelink.ID(linkID), sitesharelink.SiteID(s.ID)).Only(ctx)
	return l, notFound(err, "share link")
}

// updateSiteShareLink renames a share link, or turns it off or on; absent fields are kept.
// Returns NOT_FOUND, FORBIDDEN, or INVALID naming the field.
func (r *Resolver) updateSiteShareLink(ctx context.Context, orgID, siteID, linkID string, in model.UpdateSiteShareLinkInput) (*ent.SiteShareLink, error) {
	l, err := r.manageableShareLink(ctx, orgID, siteID, linkID)
	if err != nil {
		return nil, err
	}
	upd := r.Client.SiteShareLink.UpdateOne(l).SetNillableActive(in.Active)
	if err := setTrimmed("name", in.Name, 0, shareLinkNameMax, upd.SetName); err != nil {
		return nil, err
	}
	return upd.Save(ctx)
}

// deleteSiteShareLink deletes a share link: its key opens nothing any more. Reports false when
// the site has no such link. Returns NOT_FOUND for the site, FORBIDDEN.
func (r *Resolver) deleteSiteShareLink(ctx context.Context, orgID, siteID, linkID string) (bool, error) {
	s, err := r.manageableSite(ctx, orgID, siteID, "manage share links")
	if err != nil {
		return false, err
	}
	n, err := r.Client.SiteShareLink.Delete().Where(sitesharelink.ID(linkID), sitesharelink.SiteID(s.ID)).Exec(ctx)
	return n > 0, err
}

// siteShareLink returns the active share link of the site whose key is key: what lets a visitor
// holding the key in (the published site) and what resolves `shareKey` on the site's reads.
// Holding the key is the permission, so the link is read with the system's rights (the one place
// share links are); the hash is looked up by index and compared in constant time.
// Returns NOT_FOUND when no active link of the site has that key.
func (r *Resolver) siteShareLink(ctx context.Context, s *ent.Site, key string) (*ent.SiteShareLink, error) {
	hash := accounts.HashSecret(key)
	l, err := r.Client.SiteShareLink.Query().
		Where(sitesharelink.KeyHash(hash), sitesharelink.SiteID(s.ID), sitesharelink.Active(true)).
		Only(privacy.DecisionContext(ctx, privacy.Allow))
	if ent.IsNotFound(err) || err == nil && subtle.ConstantTimeCompare(l.KeyHash, hash) != 1 {
		return nil, apperr.NotFoundf("shareKey: no active share link of this site has this key")
	}
	return l, err
}

// SiteShareKey resolves the `shareKey` of a site's GET operations: nil when none is given, else
// the key, which the answer's published URLs then carry. Returns NOT_FOUND when the key is no
// active share link's of the site (decision 161), INVALID when it is too long to be one.
func (r *Resolver) SiteShareKey(ctx context.Context, s *ent.Site, key *string) (*string, error) {
	if key == nil {
		return nil, nil
	}
	if err := checkText("shareKey", *key, 1, shareKeyMax); err != nil {
		return nil, err
	}
	if _, err := r.siteShareLink(ctx, s, *key); err != nil {
		return nil, err
	}
	return key, nil
}
