package sites

import (
	"context"
	"errors"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/sitesection"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/internal/adaptive"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/sitecustom"
	"github.com/binderyhq/bindery/internal/txn"
)

// UpdateAdaptiveSchema replaces the site's visitor schema (internal/adaptive), unless a
// condition of the site does not compile against it (decision 165), or one of its pages' that
// compiles against the current schema (decision 319). The site's row is locked
// first, so a condition written at the same time is checked against one schema or the other.
// Returns NOT_FOUND, FORBIDDEN, INVALID naming the JSON path, or CONFLICT naming the condition.
func (svc *Service) UpdateAdaptiveSchema(ctx context.Context, orgID, siteID string, raw any) (*ent.Site, error) {
	s, err := svc.ManageableSite(ctx, orgID, siteID, "change a site's visitor schema")
	if err != nil {
		return nil, err
	}
	m, err := jsonObject("jsonSchema", raw)
	if err != nil {
		return nil, err
	}
	schema, err := adaptive.ParseSchema(m)
	if err != nil {
		return nil, apperr.Invalidf("%s", err)
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		current, err := lockSite(ctx, tx, s.ID)
		if err != nil {
			return err
		}
		if err := conditionsAllow(ctx, tx, current, schema); err != nil {
			return err
		}
		if err := svc.pageConditionsAllow(ctx, tx, current, schema); err != nil {
			return err
		}
		s, err = tx.Site.UpdateOne(current).SetAdaptiveSchema(m).SetAdaptiveSchemaUpdatedAt(svc.Now(ctx)).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// conditionsAllow checks every condition of the site against schema: its site spaces', its
// sections', and the header links' of its customization and of its site spaces' overrides.
// Returns CONFLICT naming the first that does not compile.
func conditionsAllow(ctx context.Context, tx *ent.Tx, s *ent.Site, schema *adaptive.Schema) error {
	refuse := func(what string, conds []sitecustom.Condition) error {
		err := firstBadCondition(conds, schema)
		var bad *adaptive.Error
		if errors.As(err, &bad) {
			return apperr.Conflictf("jsonSchema: %s has a condition this schema does not allow (%s): change or remove it first", what, bad)
		}
		return err
	}
	if err := refuse("the site's customization", sitecustom.Conditions(s.Customization)); err != nil {
		return err
	}
	spaces, err := tx.SiteSpace.Query().Where(sitespace.SiteID(s.ID),
		sitespace.Or(sitespace.ConditionNotNil(), sitespace.CustomizationNotNil())).All(ctx)
	if err != nil {
		return err
	}
	for _, ss := range spaces {
		conds := prefixed("customization.", sitecustom.Conditions(ss.Customization))
		if ss.Condition != nil {
			conds = append(conds, sitecustom.Condition{Path: "condition", Expr: *ss.Condition})
		}
		if err := refuse("site space "+ss.ID+" (path "+ss.Path+")", conds); err != nil {
			return err
		}
	}
	sections, err := tx.SiteSection.Query().Where(sitesection.SiteID(s.ID), sitesection.ConditionNotNil()).All(ctx)
	if err != nil {
		return err
	}
	for _, sec := range sections {
		conds := []sitecustom.Condition{{Path: "condition", Expr: *sec.Condition}}
		if err := refuse("section "+sec.ID+" (path "+sec.Path+")", conds); err != nil {
			return err
		}
	}
	return nil
}

func prefixed(prefix string, conds []sitecustom.Condition) []sitecustom.Condition {
	for i := range conds {
		conds[i].Path = prefix + conds[i].Path
	}
	return conds
}

// firstBadCondition checks conditions against schema (nil: no claims) and returns the first
// failure: an *adaptive.Error whose path is the condition's.
func firstBadCondition(conds []sitecustom.Condition, schema *adaptive.Schema) error {
	for _, c := range conds {
		err := adaptive.CheckCondition(c.Expr, schema)
		var bad *adaptive.Error
		if errors.As(err, &bad) {
			e := *bad
			e.Path = c.Path
			return &e
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkCustomizationConditions checks the conditions written in settings (header links) against
// the site's visitor schema. Returns INVALID naming the JSON path and column.
func checkCustomizationConditions(s *ent.Site, settings map[string]any) error {
	if err := firstBadCondition(sitecustom.Conditions(settings), Schema(s)); err != nil {
		return apperr.Invalidf("%s", err)
	}
	return nil
}

// Schema is the site's adaptive-content schema, nil when it has none. A stored schema is
// checked when it is written; one that no longer parses is taken as none, which hides every
// object whose condition names a claim (failing closed).
func Schema(s *ent.Site) *adaptive.Schema {
	if s.AdaptiveSchema == nil {
		return nil
	}
	schema, err := adaptive.ParseSchema(s.AdaptiveSchema)
	if err != nil {
		return nil
	}
	return schema
}
