package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
)

// Bounds of a page of the audit log: the reference's (limit 1..100, default 20); 0 answers the
// count alone, as every list of Bindery.
const (
	auditLimitDefault = 20
	auditLimitMax     = 100
)

// AuditEvent is the reference's AuditEventDetails: its AuditEvent with the payload, in the list
// and the read alike.
type AuditEvent struct {
	Object        string           `json:"object"`
	ID            string           `json:"id"`
	OccurredAt    time.Time        `json:"occurredAt"`
	Action        string           `json:"action"`
	Actor         AuditEventActor  `json:"actor"`
	Source        string           `json:"source"`
	Target        AuditEventTarget `json:"target"`
	URLs          locationURLs     `json:"urls"`
	SchemaVersion int              `json:"schemaVersion"`
	Payload       map[string]any   `json:"payload"`
}

// AuditEventActor is who made an action: a user, or the system, with its name when the action
// was recorded.
type AuditEventActor struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
}

// AuditEventTarget is the object an action was about.
type AuditEventTarget struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
}

// AuditEventAction is an action the audit log records, with its label.
type AuditEventAction struct {
	Object string `json:"object"`
	ID     string `json:"id"`
	Label  string `json:"label"`
}

func (a *api) auditEventWire(_ context.Context, e *ent.AuditEvent) (AuditEvent, error) {
	return AuditEvent{Object: "audit-event", ID: e.ID, OccurredAt: e.CreatedAt, Action: e.Action,
		Actor: AuditEventActor{Type: e.ActorType, ID: e.ActorID, Label: e.ActorLabel}, Source: e.Source,
		Target:        AuditEventTarget{Type: e.TargetType, ID: e.TargetID, Label: e.TargetLabel},
		URLs:          locationURLs{Location: a.url("/v1/orgs/" + e.OrganizationID + "/audit-events/" + e.ID)},
		SchemaVersion: 1, Payload: e.Payload}, nil
}

func (a *api) listAuditEvents(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.auditEventWire, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.AuditEvent], error) {
		limit, err := auditLimit(limit)
		if err != nil {
			return nil, err
		}
		q := query{r}
		from, err := q.time("from")
		if err != nil {
			return nil, err
		}
		to, err := q.time("to")
		if err != nil {
			return nil, err
		}
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().AuditEvents(ctx, o, limit, page, q.str("actor"), q.str("action"), q.str("target"), from, to)
	})
}

// auditLimit is the page size of the audit log: the reference's default when none is given.
// Returns INVALID above the reference's maximum.
func auditLimit(limit *int) (*int, error) {
	if limit == nil {
		n := auditLimitDefault
		return &n, nil
	}
	if *limit < 0 || *limit > auditLimitMax {
		return nil, apperr.Invalidf("limit: must be between 0 and %d (got %d)", auditLimitMax, *limit)
	}
	return limit, nil
}

func (a *api) getAuditEvent(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	e, err := a.r.Organization().AuditEvent(ctx, o, chi.URLParam(r, "auditEventId"))
	respondWith(w, r, http.StatusOK, e, err, a.auditEventWire)
}

func (a *api) listAuditEventActions(w http.ResponseWriter, r *http.Request) {
	actions, err := a.r.OrgAuditEventActions(r.Context(), chi.URLParam(r, "organizationId"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	items := make([]AuditEventAction, len(actions))
	for i, act := range actions {
		items[i] = AuditEventAction{Object: "audit-event-action", ID: act.ID, Label: act.Label}
	}
	writeJSON(w, http.StatusOK, AuditEventActions{Items: items})
}

// AuditEventActions is the answer of listOrganizationAuditEventActions: every action, unpaged.
type AuditEventActions struct {
	Items []AuditEventAction `json:"items"`
}

// time reads a date-time parameter (RFC 3339). Returns INVALID naming it.
func (q query) time(name string) (*time.Time, error) {
	s := q.str(name)
	if s == nil {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return nil, apperr.Invalidf("%s: must be a date-time such as 2026-01-02T15:04:05Z (got %q)", name, truncate(*s, 40))
	}
	return &t, nil
}
