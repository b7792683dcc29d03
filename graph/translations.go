package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/translations"
)

// Translation settings translate between GraphQL (and REST, which calls these resolvers) and
// internal/translations, which holds their rules; graph keeps the list it reads through its
// loaders.

// translationsService is the translation settings as this resolver's viewer reads and writes them.
func (r *Resolver) translationsService() *translations.Service {
	return &translations.Service{Client: r.Client, Organization: r.organization, RequireOrgRole: r.requireOrgRole}
}

// translationSettings returns translation settings of an organization the viewer sees
// (translations.Service.Get).
func (r *Resolver) translationSettings(ctx context.Context, orgID, id string) (*ent.TranslationSettings, error) {
	return r.translationsService().Get(ctx, orgID, id)
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

// translationSettingsOf is a TranslationSettingsInput as internal/translations takes it.
func translationSettingsOf(in model.TranslationSettingsInput) translations.Settings {
	return translations.Settings{Title: in.Title, Languages: in.Languages}
}

// createTranslationSettings is Mutation.createTranslationSettings (translations.Service.Create).
func (r *Resolver) createTranslationSettings(ctx context.Context, orgID string, in model.TranslationSettingsInput) (*ent.TranslationSettings, error) {
	return r.translationsService().Create(ctx, orgID, translationSettingsOf(in))
}

// updateTranslationSettings is Mutation.updateTranslationSettings (translations.Service.Update).
func (r *Resolver) updateTranslationSettings(ctx context.Context, orgID, id string, in model.TranslationSettingsInput) (*ent.TranslationSettings, error) {
	return r.translationsService().Update(ctx, orgID, id, translationSettingsOf(in))
}

// deleteTranslationSettings is Mutation.deleteTranslationSettings (translations.Service.Delete).
func (r *Resolver) deleteTranslationSettings(ctx context.Context, orgID, id string) (bool, error) {
	err := r.translationsService().Delete(ctx, orgID, id)
	return err == nil, err
}

func translationSettingsPermissions(ctx context.Context, t *ent.TranslationSettings) *model.TranslationSettingsPermissions {
	v := viewer.FromContext(ctx)
	return &model.TranslationSettingsPermissions{
		View: rule.HasOrgRole(v, t.OrganizationID, viewer.RoleRead),
		Edit: rule.HasOrgRole(v, t.OrganizationID, viewer.RoleAdmin),
	}
}
