package graph

import (
	"context"
	"fmt"

	"golang.org/x/text/language"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/translationsettings"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/page"
)

// Bounds of translation settings: the title (spec/03), and the languages (ours).
const (
	translationTitleMax = 100
	languagesMax        = 100
	languageTagMax      = 64
)

// translationSettings returns translation settings of an organization the viewer sees.
// Returns NOT_FOUND if either does not exist or the viewer may not see it.
func (r *Resolver) translationSettings(ctx context.Context, orgID, id string) (*ent.TranslationSettings, error) {
	if _, err := r.organization(ctx, orgID); err != nil {
		return nil, err
	}
	t, err := r.Client.TranslationSettings.Query().
		Where(translationsettings.ID(id), translationsettings.OrganizationID(orgID)).Only(ctx)
	return t, rule.NotFound(err, "translation settings")
}

func (r *Resolver) translationSettingsList(ctx context.Context, o *ent.Organization, first *int, after *string) (*model.TranslationSettingsConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	if !rule.HasOrgRole(viewer.FromContext(ctx), o.ID, viewer.RoleRead) {
		return nil, apperr.Forbiddenf("guests may not list the organization's translation settings")
	}
	p, err := loader.For(ctx, r.Client).TranslationSettingsPage(ctx, o, args)
	if err != nil {
		return nil, err
	}
	return &model.TranslationSettingsConnection{
		Edges: edges(ctx, p.Items, func(t *ent.TranslationSettings) page.Cursor { return page.Cursor{Key: t.Title, ID: t.ID} },
			func(c string, n *ent.TranslationSettings) *model.TranslationSettingsEdge {
				return &model.TranslationSettingsEdge{Cursor: c, Node: n}
			}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func (r *Resolver) createTranslationSettings(ctx context.Context, orgID string, in model.TranslationSettingsInput) (*ent.TranslationSettings, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "create translation settings"); err != nil {
		return nil, err
	}
	title, err := check.Trimmed("title", in.Title, 1, translationTitleMax)
	if err != nil {
		return nil, err
	}
	languages, err := canonicalLanguages(in.Languages)
	if err != nil {
		return nil, err
	}
	return r.Client.TranslationSettings.Create().SetOrganizationID(orgID).SetTitle(title).SetLanguages(languages).Save(ctx)
}

// updateTranslationSettings replaces the title, and the languages when they are given.
func (r *Resolver) updateTranslationSettings(ctx context.Context, orgID, id string, in model.TranslationSettingsInput) (*ent.TranslationSettings, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "change translation settings"); err != nil {
		return nil, err
	}
	t, err := r.translationSettings(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	title, err := check.Trimmed("title", in.Title, 1, translationTitleMax)
	if err != nil {
		return nil, err
	}
	u := t.Update().SetTitle(title)
	if in.Languages != nil {
		languages, err := canonicalLanguages(in.Languages)
		if err != nil {
			return nil, err
		}
		u.SetLanguages(languages)
	}
	t, err = u.Save(ctx)
	return t, rule.NotFound(err, "translation settings")
}

func (r *Resolver) deleteTranslationSettings(ctx context.Context, orgID, id string) (bool, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "delete translation settings"); err != nil {
		return false, err
	}
	t, err := r.translationSettings(ctx, orgID, id)
	if err != nil {
		return false, err
	}
	err = r.Client.TranslationSettings.DeleteOne(t).Exec(ctx)
	return err == nil, rule.NotFound(err, "translation settings")
}

func translationSettingsPermissions(ctx context.Context, t *ent.TranslationSettings) *model.TranslationSettingsPermissions {
	v := viewer.FromContext(ctx)
	return &model.TranslationSettingsPermissions{
		View: rule.HasOrgRole(v, t.OrganizationID, viewer.RoleRead),
		Edit: rule.HasOrgRole(v, t.OrganizationID, viewer.RoleAdmin),
	}
}

// canonicalLanguages checks BCP 47 language tags and returns them in canonical form
// (golang.org/x/text/language), in the order given, each once. Returns INVALID naming the first
// tag that is not one.
func canonicalLanguages(tags []string) ([]string, error) {
	if len(tags) > languagesMax {
		return nil, apperr.Invalidf("languages: at most %d entries (got %d)", languagesMax, len(tags))
	}
	out := make([]string, 0, len(tags))
	seen := map[string]bool{}
	for i, raw := range tags {
		field := fmt.Sprintf("languages[%d]", i)
		if err := check.Text(field, raw, 1, languageTagMax); err != nil {
			return nil, err
		}
		tag, err := language.Parse(raw)
		if err != nil || tag == language.Und {
			return nil, apperr.Invalidf("%s: %q is not a BCP 47 language tag (like fr, pt-BR or zh-Hant)", field, check.Truncate(raw, 80))
		}
		if s := tag.String(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, nil
}
