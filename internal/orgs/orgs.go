// Package orgs holds the rules of organizations and the people in them: creating and changing an
// organization, its members and their roles (an organization always keeps an admin), its teams
// and their members, its invite links and joining through one, and the claims a member's ping
// signs for sites. Every other domain reads an organization through Service.Organization (with
// its single sign-on refusal) and checks a role there with Service.RequireOrgRole. Admins change
// the organization, its members and teams; a team's owners change its members too; holding an
// invite's id is what lets a user join. The privacy rules of ent/rule decide who reads and writes
// each row. It knows nothing of the surfaces: graph and rest translate, and graph keeps the
// lists and fields it batches through its loaders.
//
// Grants of roles on spaces and collections are internal/access, not here: they are decided over
// the content tree (rule.ContentRole) and changed by the admins of the content, whom the spaces'
// domain reads, while nothing here depends on content.
package orgs

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/mergerules"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of an organization's fields (spec/03 Limits).
const (
	titleMin, titleMax       = 2, 255
	hostnameMin, hostnameMax = 3, 32
	logoMax                  = 2048
	siteIDMax                = 64 // the default content site's id (ids are far shorter)
)

// Service is the organizations of one server, as the viewer of a context reads and writes them.
type Service struct {
	Client *ent.Client
	// Now is the current time, as stored.
	Now func(context.Context) time.Time
	// SSORequired is the FORBIDDEN answered to a browser session of a member of an organization
	// that enforces single sign-on through its own providers, when the session came through none
	// of them: it names where to sign in.
	SSORequired func(ctx context.Context, orgID string) error
	// OwnsTeam reports whether the viewer is one of a team's owners.
	OwnsTeam func(ctx context.Context, teamID string) (bool, error)
	// Issuer is the absolute URL of this server, which signs visitor claims.
	Issuer string
	// Key returns the secret this server keeps for a purpose.
	Key func(ctx context.Context, purpose string) ([]byte, error)
}

// Organization returns an organization the viewer belongs to.
// Returns NOT_FOUND if it does not exist or the viewer may not see it, FORBIDDEN (SSORequired)
// to a browser session the organization's single sign-on refuses.
func (svc *Service) Organization(ctx context.Context, id string) (*ent.Organization, error) {
	v, err := rule.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	if v.SSORequired(id) {
		return nil, svc.SSORequired(ctx, id)
	}
	o, err := svc.Client.Organization.Get(sqlplan.ByKey(ctx), id)
	return o, rule.NotFound(err, "organization")
}

// RequireOrgRole returns the organization when the viewer's role there is at least min; action
// says what for, for the refusal. Returns NOT_FOUND if the viewer may not see it, FORBIDDEN if
// the role is too low.
func (svc *Service) RequireOrgRole(ctx context.Context, orgID string, min viewer.Role, action string) (*ent.Organization, error) {
	o, err := svc.Organization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if err := rule.RequireOrgRole(ctx, orgID, min, action); err != nil {
		return nil, err
	}
	return o, nil
}

// Create makes an organization titled title, listing the email domains, whose one member is the
// viewer, as its admin. Returns INVALID naming a bad field.
func (svc *Service) Create(ctx context.Context, title string, emailDomains []string) (*ent.Organization, error) {
	v, err := rule.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	title, err = check.Trimmed("title", title, titleMin, titleMax)
	if err != nil {
		return nil, err
	}
	domains, err := check.Domains("emailDomains", emailDomains)
	if err != nil {
		return nil, err
	}
	var org *ent.Organization
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		org, err = tx.Organization.Create().SetTitle(title).SetEmailDomains(domains).Save(ctx)
		if err != nil {
			return err
		}
		return tx.Member.Create().SetOrganizationID(org.ID).SetUserID(v.UserID).SetRole(viewer.RoleAdmin).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	admin := viewer.RoleAdmin
	v.SetMembership(org.ID, &admin)
	return org, nil
}

// Changes are the fields of an organization an update sets: a nil pointer or slice, or an
// absent Nullable, leaves the field as it is; a null Nullable clears it.
type Changes struct {
	Title              *string
	EmailDomains       []string
	Hostname           check.Nullable[string]
	Logo               check.Nullable[string]
	DefaultContentSite check.Nullable[string] // a site of the organization
	DefaultRole        check.Nullable[viewer.Role]
	SSO, AI            *bool
	InviteLinks        *bool
	// MergeRules, when given, replaces the organization's merge rules: none or rules (what its
	// spaces and collections inherit at the top).
	MergeRules *mergerules.Config
}

// Update changes an organization, for its admins. Returns NOT_FOUND, FORBIDDEN, INVALID naming a
// bad field or merge rule, CONFLICT for a hostname another organization has.
func (svc *Service) Update(ctx context.Context, id string, in Changes) (*ent.Organization, error) {
	if _, err := svc.RequireOrgRole(ctx, id, viewer.RoleAdmin, "change the organization"); err != nil {
		return nil, err
	}
	if err := svc.checkDefaultContent(ctx, id, in.DefaultContentSite.Value); err != nil {
		return nil, err
	}
	var rules json.RawMessage
	if in.MergeRules != nil {
		if in.MergeRules.Type == mergerules.TypeInherit {
			return nil, apperr.Invalidf("mergeRules.type: an organization's merge rules are none or rules (it has nothing to inherit from)")
		}
		var err error
		if rules, err = CheckMergeRules(ctx, svc.Client, id, *in.MergeRules); err != nil {
			return nil, err
		}
	}
	var o *ent.Organization
	err := txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		upd := tx.Organization.UpdateOneID(id)
		if err := applyChanges(upd, in); err != nil {
			return err
		}
		if rules != nil {
			upd.SetMergeRules(rules)
		}
		var err error
		if o, err = upd.Save(ctx); err != nil {
			return err
		}
		return audit.RecordSettings(ctx, tx.Client(), id, audit.OrganizationSettingsChanged, "organization", id,
			events.FieldsChanged(upd.Mutation()))
	})
	if ent.IsConstraintError(err) {
		hostname := ""
		if in.Hostname.Value != nil {
			hostname = *in.Hostname.Value
		}
		return nil, apperr.Conflictf("hostname: %q is already taken", hostname)
	}
	return o, rule.NotFound(err, "organization")
}

// applyChanges checks the changes and sets them on upd. Returns INVALID naming the first bad field.
func applyChanges(upd *ent.OrganizationUpdateOne, in Changes) error {
	if err := check.SetTrimmed("title", in.Title, titleMin, titleMax, upd.SetTitle); err != nil {
		return err
	}
	if in.EmailDomains != nil {
		domains, err := check.Domains("emailDomains", in.EmailDomains)
		if err != nil {
			return err
		}
		upd.SetEmailDomains(domains)
	}
	if err := check.SetOrClear(in.Hostname, check.TextFunc("hostname", hostnameMin, hostnameMax),
		upd.SetHostname, upd.ClearHostname); err != nil {
		return err
	}
	if err := check.SetOrClear(in.Logo, func(u string) error { return check.URL("logo", u, logoMax) },
		upd.SetLogo, upd.ClearLogo); err != nil {
		return err
	}
	if err := check.SetOrClear(in.DefaultContentSite, check.TextFunc("defaultContent.site", 1, siteIDMax),
		upd.SetDefaultContentSite, upd.ClearDefaultContentSite); err != nil {
		return err
	}
	if err := check.SetOrClear(in.DefaultRole, nil, upd.SetDefaultRole, upd.ClearDefaultRole); err != nil {
		return err
	}
	if in.SSO != nil {
		upd.SetSSO(*in.SSO)
	}
	if in.AI != nil {
		upd.SetAi(*in.AI)
	}
	if in.InviteLinks != nil {
		upd.SetInviteLinks(*in.InviteLinks)
	}
	return nil
}

// checkDefaultContent refuses a default content site that is not a site of the organization
// (nil sets none).
func (svc *Service) checkDefaultContent(ctx context.Context, orgID string, siteID *string) error {
	if siteID == nil {
		return nil
	}
	exists, err := svc.Client.Site.Query().Where(site.ID(*siteID), site.OrganizationID(orgID)).Exist(ctx)
	if err != nil || exists {
		return err
	}
	return apperr.Invalidf("defaultContent.site: no site of this organization has the id %q", check.Truncate(*siteID, 80))
}

// ForEmailDomain lists the organizations that list an email domain, by title: any the viewer
// belongs to, plus, when it is the viewer's own domain, those the viewer could join.
func (svc *Service) ForEmailDomain(ctx context.Context, domain string) ([]*ent.Organization, error) {
	v, err := rule.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	domain = strings.ToLower(strings.TrimSpace(domain))
	if err := check.Text("emailDomain", domain, 1, check.DomainMax); err != nil {
		return nil, err
	}
	if domain == rule.EmailDomain(v.Email) {
		ctx = rule.WithDomainDiscovery(ctx)
	}
	return svc.Client.Organization.Query().
		Where(func(s *sql.Selector) { s.Where(sqljson.ValueContains(organization.FieldEmailDomains, domain)) }).
		Order(ent.Asc(organization.FieldTitle), ent.Asc(organization.FieldID)).
		Limit(page.MaxLimit).All(ctx)
}
