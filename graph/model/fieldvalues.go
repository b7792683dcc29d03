package model

import "github.com/binderyhq/bindery/ent"

// CustomFieldValue is the value of a custom field on a space. Value holds the stored JSON (a
// json.RawMessage of a string, a number, a boolean or a list of strings), written out as is.
type CustomFieldValue struct {
	CustomField *ent.CustomField `json:"customField"`
	Value       any              `json:"value"`
}

// Nodes returns the spaces of the page with the member's role.
func (c *MemberSpaceConnection) Nodes() []*MemberSpace {
	return nodesOf(c.Edges, func(e *MemberSpaceEdge) *MemberSpace { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *MemberSpaceConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
