package model

import (
	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/changerequestreview"
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

// MarshalChangeRequestReviewStatus writes a review status as its GraphQL enum value.
func MarshalChangeRequestReviewStatus(s changerequestreview.Status) graphql.Marshaler {
	return marshalEnum(string(s))
}

// UnmarshalChangeRequestReviewStatus reads a GraphQL enum value into a review status.
func UnmarshalChangeRequestReviewStatus(v any) (changerequestreview.Status, error) {
	return unmarshalChecked(v, changerequestreview.StatusValidator, "review status (APPROVED or CHANGES_REQUESTED)")
}

// Nodes returns the reviews of the page.
func (c *ChangeRequestReviewConnection) Nodes() []*ent.ChangeRequestReview {
	return nodesOf(c.Edges, func(e *ChangeRequestReviewEdge) *ent.ChangeRequestReview { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *ChangeRequestReviewConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes are the connection's requests of reviews.
func (c *ChangeRequestRequestedReviewerConnection) Nodes() []*ent.ChangeRequestReviewer {
	return nodesOf(c.Edges, func(e *ChangeRequestRequestedReviewerEdge) *ent.ChangeRequestReviewer { return e.Node })
}

// Info is the connection's page and count.
func (c *ChangeRequestRequestedReviewerConnection) Info() (*PageInfo, int) {
	return c.PageInfo, c.TotalCount
}
