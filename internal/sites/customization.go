package sites

import (
	"context"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/sitecustom"
	"github.com/binderyhq/bindery/internal/txn"
)

// Customization is a site's effective settings, as the viewer reads them (decision 164).
func Customization(ctx context.Context, s *ent.Site) map[string]any {
	return customizationAnswer(ctx, s, s.CustomizationUpdatedAt, s.Customization)
}

// customizationAnswer is what a reader is answered: the effective settings of the layers (the
// site's, a site space's override), with updatedAt once one was set, and without what only the
// site's managers may read for other readers.
func customizationAnswer(ctx context.Context, s *ent.Site, updatedAt *time.Time, layers ...map[string]any) map[string]any {
	settings := sitecustom.Effective(layers...)
	if !rule.ForSite(viewer.FromContext(ctx), s.OrganizationID).Admin {
		settings = sitecustom.Public(settings)
	}
	if updatedAt != nil {
		settings["updatedAt"] = *updatedAt
	}
	return settings
}

// customizationObject is a JSON object of settings given to a write. Returns INVALID otherwise.
func jsonObject(field string, raw any) (map[string]any, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, apperr.Invalidf("%s: must be a JSON object", field)
	}
	return m, nil
}

// UpdateCustomization replaces the site's settings: fields not given take their defaults.
// The site's row is locked while its header links' conditions are checked against its visitor
// schema. Returns NOT_FOUND, FORBIDDEN, or INVALID naming the JSON path.
func (svc *Service) UpdateCustomization(ctx context.Context, orgID, siteID string, raw any) (map[string]any, error) {
	s, err := svc.ManageableSite(ctx, orgID, siteID, "customize sites")
	if err != nil {
		return nil, err
	}
	m, err := jsonObject("settings", raw)
	if err != nil {
		return nil, err
	}
	settings, err := sitecustom.Parse(m)
	if err != nil {
		return nil, apperr.Invalidf("%s", err)
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		current, err := lockSite(ctx, tx, s.ID)
		if err != nil {
			return err
		}
		if err := checkCustomizationConditions(current, settings); err != nil {
			return err
		}
		s, err = tx.Site.UpdateOne(current).SetCustomization(settings).SetCustomizationUpdatedAt(svc.Now(ctx)).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return Customization(ctx, s), nil
}

// SiteSpaceCustomization is a site space's effective settings, as the viewer reads them: the
// site's with the site space's override over them; updatedAt is the latest change of either layer.
func SiteSpaceCustomization(ctx context.Context, s *ent.Site, ss *ent.SiteSpace) map[string]any {
	updated := s.CustomizationUpdatedAt
	if t := ss.CustomizationUpdatedAt; t != nil && (updated == nil || t.After(*updated)) {
		updated = t
	}
	return customizationAnswer(ctx, s, updated, s.Customization, ss.Customization)
}

// OverrideSiteSpaceCustomization sets or clears (null) single fields of a site space's override,
// and answers its effective settings. The site's and the site space's rows are locked while the
// override is rewritten and its conditions checked, so concurrent patches all apply. Returns NOT_FOUND, FORBIDDEN, or INVALID naming the
// JSON path.
func (svc *Service) OverrideSiteSpaceCustomization(ctx context.Context, orgID, siteID, siteSpaceID string, raw any) (map[string]any, error) {
	s, err := svc.ManageableSite(ctx, orgID, siteID, "customize sites")
	if err != nil {
		return nil, err
	}
	m, err := jsonObject("override", raw)
	if err != nil {
		return nil, err
	}
	patch, err := sitecustom.ParseOverride(m)
	if err != nil {
		return nil, apperr.Invalidf("%s", err)
	}
	var ss *ent.SiteSpace
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if s, err = lockSite(ctx, tx, s.ID); err != nil {
			return err
		}
		current, err := tx.SiteSpace.Query().Where(sitespace.ID(siteSpaceID), sitespace.SiteID(s.ID)).
			Modify(txn.ForUpdate).Only(ctx)
		if err != nil {
			return rule.NotFound(err, "site space")
		}
		override := sitecustom.ApplyOverride(current.Customization, patch)
		if err := checkCustomizationConditions(s, override); err != nil {
			return err
		}
		ss, err = tx.SiteSpace.UpdateOne(current).SetCustomization(override).SetCustomizationUpdatedAt(svc.Now(ctx)).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return SiteSpaceCustomization(ctx, s, ss), nil
}

// DeleteSiteSpaceCustomization removes a site space's whole override: the site's settings apply
// to it again. Reports false when it had none. Returns NOT_FOUND or FORBIDDEN.
func (svc *Service) DeleteSiteSpaceCustomization(ctx context.Context, orgID, siteID, siteSpaceID string) (bool, error) {
	_, ss, err := svc.ManageableSiteSpace(ctx, orgID, siteID, siteSpaceID, "customize sites")
	if err != nil || ss.CustomizationUpdatedAt == nil {
		return false, err
	}
	err = svc.Client.SiteSpace.UpdateOne(ss).ClearCustomization().ClearCustomizationUpdatedAt().Exec(ctx)
	return err == nil, err
}
