package graph

import (
	"context"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/auditevent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/page"
)

// The audit log translates between GraphQL (and REST, which calls these resolvers) and
// internal/audit, which records it and decides who reads it.

func (r *Resolver) auditService() *audit.Service {
	return &audit.Service{Client: r.Client, RequireOrgRole: r.requireOrgRole}
}

// auditEventsOf is a page of an organization's audit log, newest first, narrowed by f.
func (r *Resolver) auditEventsOf(ctx context.Context, o *ent.Organization, first *int, after *string, f audit.Filter) (*model.AuditEventConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	q, err := r.auditService().Query(ctx, o.ID, f)
	if err != nil {
		return nil, err
	}
	p, err := flat(ctx, q, page.Order{Column: auditevent.FieldCreatedAt, Desc: true}, args, true, auditCursor)
	if err != nil {
		return nil, err
	}
	return &model.AuditEventConnection{
		Edges: edges(ctx, p.Items, auditCursor, func(c string, n *ent.AuditEvent) *model.AuditEventEdge {
			return &model.AuditEventEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func auditCursor(e *ent.AuditEvent) page.Cursor { return page.Cursor{Key: e.CreatedAt, ID: e.ID} }

// auditFilter is the filter of the audit log's arguments.
func auditFilter(actor, action, target *string, from, to *time.Time) audit.Filter {
	return audit.Filter{Actor: actor, Action: action, Target: target, From: from, To: to}
}

func auditActor(e *ent.AuditEvent) *model.AuditEventActor {
	a := &model.AuditEventActor{Type: e.ActorType, ID: e.ActorID}
	if e.ActorLabel != "" {
		a.Label = &e.ActorLabel
	}
	return a
}

func auditTarget(e *ent.AuditEvent) *model.AuditEventTarget {
	t := &model.AuditEventTarget{Type: e.TargetType, ID: e.TargetID}
	if e.TargetLabel != "" {
		t.Label = &e.TargetLabel
	}
	return t
}

func auditActions() []*model.AuditEventAction {
	out := make([]*model.AuditEventAction, len(audit.Actions))
	for i, a := range audit.Actions {
		out[i] = &model.AuditEventAction{ID: a.ID, Label: a.Label}
	}
	return out
}

// OrgAuditEventActions returns the actions of the audit log for an organization's admins (REST's
// listOrganizationAuditEventActions).
func (r *Resolver) OrgAuditEventActions(ctx context.Context, orgID string) ([]audit.Action, error) {
	return r.auditService().ActionsOf(ctx, orgID)
}
