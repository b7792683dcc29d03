package model

import (
	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
)

// MarshalChangeRequestStatus writes a change request status as its GraphQL enum value.
func MarshalChangeRequestStatus(s changerequest.Status) graphql.Marshaler {
	return marshalEnum(string(s))
}

// UnmarshalChangeRequestStatus reads a GraphQL enum value into a change request status.
func UnmarshalChangeRequestStatus(v any) (changerequest.Status, error) {
	return unmarshalChecked(v, changerequest.StatusValidator, "change request status (one of DRAFT, OPEN, ARCHIVED, MERGED)")
}

// Nodes returns the change requests of the page.
func (c *ChangeRequestConnection) Nodes() []*ent.ChangeRequest {
	return nodesOf(c.Edges, func(e *ChangeRequestEdge) *ent.ChangeRequest { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *ChangeRequestConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
