package model

import (
	"fmt"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/internal/content/links"
	"github.com/binderyhq/bindery/internal/linkstatus"
)

// MarshalLinkStatus writes a link status as its GraphQL enum value (IN_APP for in-app).
func MarshalLinkStatus(s links.Status) graphql.Marshaler { return marshalEnum(string(s)) }

// UnmarshalLinkStatus reads a GraphQL enum value into a link status.
func UnmarshalLinkStatus(v any) (links.Status, error) {
	s := links.Status(unmarshalEnum(v))
	switch s {
	case links.OK, links.Broken, links.InApp:
		return s, nil
	}
	return "", fmt.Errorf("%v is not a link status (OK, BROKEN or IN_APP)", v)
}

// Nodes returns the links of the page.
func (c *LinkConnection) Nodes() []*linkstatus.Link {
	return nodesOf(c.Edges, func(e *LinkEdge) *linkstatus.Link { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *LinkConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }

// Nodes returns the linking pages of the page.
func (c *LinkSourceConnection) Nodes() []*linkstatus.Source {
	return nodesOf(c.Edges, func(e *LinkSourceEdge) *linkstatus.Source { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *LinkSourceConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
