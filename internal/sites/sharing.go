package sites

import (
	"context"
	"crypto/subtle"
	"errors"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/sitesharelink"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/id"
)

// Bounds of share links: the name (the reference's ShareLinkName), the key made for each link,
// and what a search or a presented key may be.
const (
	shareLinkNameMax = 50
	shareKeyLength   = 32 // base62 characters: about 190 random bits
	ShareKeyMax      = 100
)

// RequireManager refuses a viewer who may not manage the site: only creators and admins may.
// Returns FORBIDDEN.
func RequireManager(ctx context.Context, s *ent.Site, action string) error {
	if !rule.ForSite(viewer.FromContext(ctx), s.OrganizationID).Admin {
		return apperr.Forbiddenf("only members with the %s role may %s", viewer.RoleCreate, action)
	}
	return nil
}

// CreatedShareLink is a new share link with its key, and its site.
type CreatedShareLink struct {
	Link *ent.SiteShareLink
	Key  string
	Site *ent.Site
}

// CreateShareLink makes a share link with a fresh random key, and returns the key with it: only
// the key's hash is stored, so this is the one time it is shown.
// Returns NOT_FOUND, FORBIDDEN, or INVALID naming the field.
func (svc *Service) CreateShareLink(ctx context.Context, orgID, siteID, name string) (*CreatedShareLink, error) {
	s, err := svc.ManageableSite(ctx, orgID, siteID, "manage share links")
	if err != nil {
		return nil, err
	}
	name, err = check.Trimmed("name", name, 0, shareLinkNameMax)
	if err != nil {
		return nil, err
	}
	key := id.Random(shareKeyLength)
	var l *ent.SiteShareLink
	err = audit.Write(ctx, svc.Client, func(tx *ent.Tx) (audit.Entry, error) {
		l, err = tx.SiteShareLink.Create().SetOrganizationID(s.OrganizationID).SetSiteID(s.ID).
			SetName(name).SetKeyHash(accounts.HashSecret(key)).Save(ctx)
		return shareLinkEntry(audit.ShareLinkCreated, s.OrganizationID, l, nil), err
	})
	if err != nil {
		return nil, err
	}
	return &CreatedShareLink{Link: l, Key: key, Site: s}, nil
}

// shareLinkEntry is an audit entry about a share link of a site (its key never in it).
func shareLinkEntry(action, orgID string, l *ent.SiteShareLink, fields []string) audit.Entry {
	if l == nil {
		return audit.Entry{}
	}
	payload := map[string]any{"site": l.SiteID, "active": l.Active}
	if fields != nil {
		payload["fields"] = fields
	}
	return audit.Entry{Organization: orgID, Action: action, TargetType: "share-link", TargetID: l.ID,
		TargetLabel: l.Name, Payload: payload}
}

// manageableShareLink returns a share link of a site the viewer manages.
// Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) manageableShareLink(ctx context.Context, orgID, siteID, linkID string) (*ent.SiteShareLink, error) {
	s, err := svc.ManageableSite(ctx, orgID, siteID, "manage share links")
	if err != nil {
		return nil, err
	}
	l, err := svc.Client.SiteShareLink.Query().Where(sitesharelink.ID(linkID), sitesharelink.SiteID(s.ID)).Only(ctx)
	return l, rule.NotFound(err, "share link")
}

// UpdateShareLink renames a share link, or turns it off or on; absent fields are kept.
// Returns NOT_FOUND, FORBIDDEN, or INVALID naming the field.
func (svc *Service) UpdateShareLink(ctx context.Context, orgID, siteID, linkID string, name *string, active *bool) (*ent.SiteShareLink, error) {
	l, err := svc.manageableShareLink(ctx, orgID, siteID, linkID)
	if err != nil {
		return nil, err
	}
	err = audit.Write(ctx, svc.Client, func(tx *ent.Tx) (audit.Entry, error) {
		upd := tx.SiteShareLink.UpdateOne(l).SetNillableActive(active)
		if err := check.SetTrimmed("name", name, 0, shareLinkNameMax, upd.SetName); err != nil {
			return audit.Entry{}, err
		}
		fields := events.FieldsChanged(upd.Mutation())
		l, err = upd.Save(ctx)
		return shareLinkEntry(audit.ShareLinkUpdated, orgID, l, fields), err
	})
	return l, err
}

// DeleteShareLink deletes a share link: its key opens nothing any more. Reports false when the
// site has no such link. Returns NOT_FOUND for the site, FORBIDDEN.
func (svc *Service) DeleteShareLink(ctx context.Context, orgID, siteID, linkID string) (bool, error) {
	s, err := svc.ManageableSite(ctx, orgID, siteID, "manage share links")
	if err != nil {
		return false, err
	}
	var l *ent.SiteShareLink
	err = audit.Write(ctx, svc.Client, func(tx *ent.Tx) (audit.Entry, error) {
		l, err = tx.SiteShareLink.Query().Where(sitesharelink.ID(linkID), sitesharelink.SiteID(s.ID)).Only(ctx)
		if ent.IsNotFound(err) {
			return audit.Entry{}, errNoShareLink
		}
		if err != nil {
			return audit.Entry{}, err
		}
		return shareLinkEntry(audit.ShareLinkDeleted, s.OrganizationID, l, nil), tx.SiteShareLink.DeleteOne(l).Exec(ctx)
	})
	if errors.Is(err, errNoShareLink) {
		return false, nil
	}
	return err == nil, err
}

// errNoShareLink ends the transaction of a deletion that finds no link to delete.
var errNoShareLink = errors.New("no such share link")

// ShareLink returns the active share link of the site whose key is key: what lets a visitor
// holding the key in (the published site) and what resolves `shareKey` on the site's reads.
// Holding the key is the permission, so the link is read with the system's rights (the one place
// share links are); the hash is looked up by index and compared in constant time.
// Returns NOT_FOUND when no active link of the site has that key.
func (svc *Service) ShareLink(ctx context.Context, s *ent.Site, key string) (*ent.SiteShareLink, error) {
	hash := accounts.HashSecret(key)
	l, err := svc.Client.SiteShareLink.Query().
		Where(sitesharelink.KeyHash(hash), sitesharelink.SiteID(s.ID), sitesharelink.Active(true)).
		Only(privacy.DecisionContext(ctx, privacy.Allow))
	if ent.IsNotFound(err) || err == nil && subtle.ConstantTimeCompare(l.KeyHash, hash) != 1 {
		return nil, apperr.NotFoundf("shareKey: no active share link of this site has this key")
	}
	return l, err
}

// ShareKey resolves the `shareKey` of a site's reads: nil when none is given, else the key.
// Returns NOT_FOUND when the key is no active share link's of the site (decision 161), INVALID
// when it is too long to be one.
func (svc *Service) ShareKey(ctx context.Context, s *ent.Site, key *string) (*string, error) {
	if key == nil {
		return nil, nil
	}
	if err := check.Text("shareKey", *key, 1, ShareKeyMax); err != nil {
		return nil, err
	}
	if _, err := svc.ShareLink(ctx, s, *key); err != nil {
		return nil, err
	}
	return key, nil
}
