// Package rule holds the role model and the privacy rules every ent schema composes. It is the one
// place access is decided: the ent policies call these rules, and resolvers that check early for a
// clearer message call the same functions (permissions.go).
//
// Reads are filtered (a row the viewer may not see is simply not found); writes are allowed by
// the first rule that recognises the viewer's right, and a write to existing rows is narrowed by a
// filter to the rows that right covers, so no rule ever widens another's.
package rule

import (
	"context"

	"entgo.io/ent"
	"entgo.io/ent/entql"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
)

// AllowIfSystem allows everything to the system viewer (CLI, background jobs).
func AllowIfSystem() privacy.QueryMutationRule {
	return privacy.ContextQueryMutationRule(func(ctx context.Context) error {
		if viewer.FromContext(ctx).IsSystem() {
			return privacy.Allow
		}
		return privacy.Skip
	})
}

// DenyIfNoViewer denies any write made without a viewer in the context.
func DenyIfNoViewer() privacy.MutationRule {
	return privacy.ContextQueryMutationRule(func(ctx context.Context) error {
		if viewer.FromContext(ctx) == nil {
			return privacy.Denyf("no viewer in the context")
		}
		return privacy.Skip
	})
}

// FilterTenant limits reads of an organization-owned entity (OrgMixin) to the organizations in
// which the viewer's role is at least min.
func FilterTenant(min viewer.Role) privacy.QueryRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		f.Where(orgIn(viewer.FromContext(ctx).OrganizationIDs(min)))
		return privacy.Allow
	})
}

// orgCreate is the creation of a row of an organization-owned entity.
type orgCreate interface {
	OrganizationID() (string, bool)
}

// AllowOrgRole allows writes to an organization-owned entity by viewers whose role there is at
// least min. A create is checked against the new row's organization; an update or delete is
// narrowed to rows of the organizations where the viewer has that role.
func AllowOrgRole(min viewer.Role) privacy.MutationRule {
	narrow := privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		orgs := viewer.FromContext(ctx).OrganizationIDs(min)
		if len(orgs) == 0 {
			return privacy.Skip
		}
		f.Where(orgIn(orgs))
		return privacy.Allow
	})
	return privacy.MutationRuleFunc(func(ctx context.Context, m ent.Mutation) error {
		if !m.Op().Is(ent.OpCreate) {
			return narrow.EvalMutation(ctx, m)
		}
		oc, ok := m.(orgCreate)
		if !ok {
			return privacy.Denyf("%T is not owned by an organization", m)
		}
		orgID, _ := oc.OrganizationID()
		if role, _ := viewer.FromContext(ctx).Membership(orgID); role.AtLeast(min) {
			return privacy.Allow
		}
		return privacy.Skip
	})
}

func orgIn(ids []string) entql.P { return fieldIn("organization_id", anys(ids)) }

func anys(ids []string) []any {
	out := make([]any, len(ids))
	for i, s := range ids {
		out[i] = s
	}
	return out
}

// fieldIn matches rows whose field is in values. An empty list matches no row: entql would
// write "IN ()", which PostgreSQL rejects, so it asks for a null id instead (ids are never null).
func fieldIn(name string, values []any) entql.P {
	if len(values) == 0 {
		return entql.FieldNil("id")
	}
	return entql.FieldIn(name, values...)
}
