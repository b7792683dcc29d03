// Package translations holds the rules of an organization's translation settings: a title and
// the languages content is translated into (BCP 47 tags, kept in canonical form), which the
// organization's admins create, change and delete. Members with a role read them (the privacy
// rules of ent/rule decide in the statements). It knows nothing of the surfaces: graph and rest
// translate, and graph keeps the list it batches.
package translations

import (
	"context"
	"fmt"

	"golang.org/x/text/language"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/translationsettings"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
)

// Bounds of translation settings: the title (spec/03), and the languages (ours).
const (
	titleMax       = 100
	languagesMax   = 100
	languageTagMax = 64
)

// Service is the translation settings of one server, as the viewer of a context reads and
// writes them.
type Service struct {
	Client *ent.Client
	// Organization reads an organization the viewer belongs to. Returns NOT_FOUND otherwise,
	// FORBIDDEN to a session its single sign-on refuses.
	Organization func(ctx context.Context, id string) (*ent.Organization, error)
	// RequireOrgRole returns an organization the viewer sees with at least a role there (orgs).
	// Returns NOT_FOUND otherwise, FORBIDDEN below the role.
	RequireOrgRole func(ctx context.Context, orgID string, min viewer.Role, action string) (*ent.Organization, error)
}

// Settings is what translation settings hold: a title, and the languages when they are given
// (nil keeps those of settings being changed).
type Settings struct {
	Title     string
	Languages []string
}

// Get returns translation settings of an organization the viewer sees. Returns NOT_FOUND if
// either does not exist or the viewer may not see it.
func (svc *Service) Get(ctx context.Context, orgID, id string) (*ent.TranslationSettings, error) {
	if _, err := svc.Organization(ctx, orgID); err != nil {
		return nil, err
	}
	t, err := svc.Client.TranslationSettings.Query().
		Where(translationsettings.ID(id), translationsettings.OrganizationID(orgID)).Only(ctx)
	return t, rule.NotFound(err, "translation settings")
}

// Create adds translation settings to an organization, for its admins. Returns NOT_FOUND or
// FORBIDDEN for the organization, INVALID naming a bad title or language.
func (svc *Service) Create(ctx context.Context, orgID string, in Settings) (*ent.TranslationSettings, error) {
	if err := svc.requireAdmin(ctx, orgID, "create translation settings"); err != nil {
		return nil, err
	}
	title, err := check.Trimmed("title", in.Title, 1, titleMax)
	if err != nil {
		return nil, err
	}
	languages, err := canonicalLanguages(in.Languages)
	if err != nil {
		return nil, err
	}
	return svc.Client.TranslationSettings.Create().SetOrganizationID(orgID).SetTitle(title).SetLanguages(languages).Save(ctx)
}

// Update replaces the title, and the languages when they are given, for the organization's
// admins. Returns NOT_FOUND, FORBIDDEN, or INVALID naming a bad title or language.
func (svc *Service) Update(ctx context.Context, orgID, id string, in Settings) (*ent.TranslationSettings, error) {
	if err := svc.requireAdmin(ctx, orgID, "change translation settings"); err != nil {
		return nil, err
	}
	t, err := svc.Get(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	title, err := check.Trimmed("title", in.Title, 1, titleMax)
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

// Delete removes translation settings, for the organization's admins. Returns NOT_FOUND or
// FORBIDDEN.
func (svc *Service) Delete(ctx context.Context, orgID, id string) error {
	if err := svc.requireAdmin(ctx, orgID, "delete translation settings"); err != nil {
		return err
	}
	t, err := svc.Get(ctx, orgID, id)
	if err != nil {
		return err
	}
	return rule.NotFound(svc.Client.TranslationSettings.DeleteOne(t).Exec(ctx), "translation settings")
}

// requireAdmin checks that the viewer sees the organization and is its admin; action says what
// for, for the refusal.
func (svc *Service) requireAdmin(ctx context.Context, orgID, action string) error {
	_, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, action)
	return err
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
