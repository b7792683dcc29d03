package graph

import (
	"context"
	"slices"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/page"
)

// listArgs validates a list's page arguments. The list is counted only when its totalCount is
// asked for: outside GraphQL, unless the caller shows no count (WithoutTotalCount).
func listArgs(ctx context.Context, first *int, after *string) (page.Args, error) {
	a, err := page.NewArgs(first, after)
	a.Count = selects(ctx, "totalCount") && ctx.Value(withoutTotalCount{}) == nil
	return a, err
}

type withoutTotalCount struct{}

// WithoutTotalCount returns ctx for a caller outside GraphQL that shows no total count of the
// lists it reads, as an operation that selects no totalCount: they are not counted.
func WithoutTotalCount(ctx context.Context) context.Context {
	return context.WithValue(ctx, withoutTotalCount{}, true)
}

// selects reports whether the GraphQL field being resolved selects the named field of its result
// (through fragments, @skip and @include too). Outside a GraphQL operation — a REST handler
// calling a resolver — every field is wanted.
func selects(ctx context.Context, name string) bool {
	fields, ok := selectedFields(ctx)
	return !ok || slices.ContainsFunc(fields, named(name))
}

// selectedFields returns the fields the GraphQL field being resolved selects of its result, as
// gqlgen collects them; ok is false outside a GraphQL operation.
func selectedFields(ctx context.Context) (fields []graphql.CollectedField, ok bool) {
	if !graphql.HasOperationContext(ctx) || graphql.GetFieldContext(ctx) == nil {
		return nil, false
	}
	return graphql.CollectFieldsCtx(ctx, nil), true
}

func named(name string) func(graphql.CollectedField) bool {
	return func(f graphql.CollectedField) bool { return f.Name == name }
}

// flat reads one page of a list that is not nested under parents (page.Flat) and records its
// items as a level, so a lookup for one of them is made for all (loader.Level). Nested lists are
// read by the loader's page batches, which record their levels themselves.
func flat[T comparable, Q page.Query[T, Q, S], S any](ctx context.Context, q Q, o page.Order, a page.Args, timeKeyed bool,
	cursorOf func(T) page.Cursor) (page.Page[T], error) {
	p, err := page.Flat(ctx, q, o, a, timeKeyed, cursorOf)
	loader.Level(ctx, p.Items)
	return p, err
}

// pageInfo describes where a page ends: the next page's cursor when there is one.
func pageInfo[T any](p page.Page[T]) *model.PageInfo {
	info := &model.PageInfo{HasNextPage: p.Next != nil}
	if p.Next != nil {
		c := p.Next.Encode()
		info.EndCursor = &c
	}
	return info
}

// edges wraps each item of a page with its cursor, or with none when the GraphQL field being
// resolved does not select its edges' cursor (edgeCursorsAsked).
func edges[T, E any](ctx context.Context, items []T, cursorOf func(T) page.Cursor, edge func(string, T) E) []E {
	asked := edgeCursorsAsked(ctx)
	out := make([]E, len(items))
	for i, it := range items {
		cursor := ""
		if asked {
			cursor = cursorOf(it).Encode()
		}
		out[i] = edge(cursor, it)
	}
	return out
}

// edgeCursorsAsked reports whether the GraphQL field being resolved, a connection, selects its
// edges' cursor (through fragments, @skip and @include too). Outside a GraphQL operation, or for
// a field of another type (whose connection lies deeper), it answers yes. Encoding a cursor for
// each of the nested query's 550 edges, which it does not select, was 2.4% of its CPU (decision 344).
func edgeCursorsAsked(ctx context.Context) bool { return edgeFieldAsked(ctx, "cursor") }

// edgeFieldAsked reports whether the GraphQL field being resolved, a connection, selects the
// named field of its edges, as edgeCursorsAsked says of the cursor.
func edgeFieldAsked(ctx context.Context, name string) bool {
	fields, ok := selectedFields(ctx)
	if fc := graphql.GetFieldContext(ctx); !ok || fc.Field.Definition == nil ||
		!strings.HasSuffix(fc.Field.Definition.Type.Name(), "Connection") {
		return true
	}
	op := graphql.GetOperationContext(ctx)
	return slices.ContainsFunc(fields, func(f graphql.CollectedField) bool {
		return f.Name == "edges" && slices.ContainsFunc(graphql.CollectFields(op, f.Selections, nil), named(name))
	})
}

// nodeColumns returns the columns (comma-separated, page.Args.Columns) the nodes of the
// connection being resolved need for the fields asked of them under edges { node }, each field's
// columns as need names them, and the id; "" — every column — when a field asked is not in need,
// when no node is asked, or outside a GraphQL operation. Fragments count whatever their type
// condition, which can only ask for more. The nested query's 550 change requests read 7 of 16
// columns this way (decision 357).
func nodeColumns(ctx context.Context, client *ent.Client, need map[string][]string) string {
	if !graphql.HasOperationContext(ctx) || graphql.GetFieldContext(ctx) == nil {
		return ""
	}
	// Each parent of a nested list asks: one answer per field of the operation and selection (a
	// field in two fragments of one object has their selections merged, not so in another).
	f := graphql.GetFieldContext(ctx).Field
	key := selectionKey{field: f.Field, n: len(f.Selections)}
	if len(f.Selections) > 0 {
		key.first = &f.Selections[0]
	}
	return loader.For(ctx, client).Derived(key, func() string {
		fields, _ := selectedFields(ctx)
		return columnsOf(graphql.GetOperationContext(ctx), fields, need)
	})
}

// selectionKey tells a field's selection in an operation: its field, and the slice of the
// selections collected for it (the document's own, or one gqlgen merged).
type selectionKey struct {
	field *ast.Field
	n     int
	first *ast.Selection
}

// columnsOf is nodeColumns' answer for the fields selected of a connection.
func columnsOf(op *graphql.OperationContext, fields []graphql.CollectedField, need map[string][]string) string {
	columns := []string{"id"} // the fields asked may need no column of their own; "" would read all
	asked := false
	for _, edges := range fields {
		if edges.Name != "edges" {
			continue
		}
		for _, node := range graphql.CollectFields(op, edges.Selections, nil) {
			if node.Name != "node" {
				continue
			}
			asked = true
			var known bool
			if columns, known = appendColumns(columns, graphql.CollectFields(op, node.Selections, nil), need); !known {
				return ""
			}
		}
	}
	if !asked {
		return ""
	}
	slices.Sort(columns)
	return strings.Join(slices.Compact(columns), ",")
}

// objectColumns returns the columns the object the GraphQL field being resolved answers needs
// for the fields asked of it, each field's columns as need names them, and the id; nil — every
// column — when a field asked is not in need, or outside a GraphQL operation (REST asks every
// field). Fragments count whatever their type condition, which can only ask for more.
func objectColumns(ctx context.Context, need map[string][]string) []string {
	fields, ok := selectedFields(ctx)
	if !ok {
		return nil
	}
	columns, known := appendColumns([]string{"id"}, fields, need)
	if !known {
		return nil
	}
	slices.Sort(columns)
	return slices.Compact(columns)
}

// appendColumns appends the columns need names for each of fields (__typename and the like need
// none); known is false when a field is not in need.
func appendColumns(columns []string, fields []graphql.CollectedField, need map[string][]string) (_ []string, known bool) {
	for _, f := range fields {
		cols, known := need[f.Name]
		if !known && !strings.HasPrefix(f.Name, "__") {
			return nil, false
		}
		columns = append(columns, cols...)
	}
	return columns, true
}

func memberConnection(ctx context.Context, p loader.Page[*ent.Member], cursorOf func(*ent.Member) page.Cursor) *model.MemberConnection {
	return &model.MemberConnection{
		Edges: edges(ctx, p.Items, cursorOf, func(c string, n *ent.Member) *model.MemberEdge {
			return &model.MemberEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}
}

func teamConnection(ctx context.Context, p loader.Page[*ent.Team]) *model.TeamConnection {
	return &model.TeamConnection{
		Edges: edges(ctx, p.Items, func(t *ent.Team) page.Cursor { return page.Cursor{Key: t.Title, ID: t.ID} },
			func(c string, n *ent.Team) *model.TeamEdge { return &model.TeamEdge{Cursor: c, Node: n} }),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}
}

func teamMemberConnection(ctx context.Context, p loader.Page[*ent.TeamMember]) *model.TeamMemberConnection {
	return &model.TeamMemberConnection{
		Edges: edges(ctx, p.Items, func(t *ent.TeamMember) page.Cursor { return page.Cursor{Key: t.CreatedAt, ID: t.ID} },
			func(c string, n *ent.TeamMember) *model.TeamMemberEdge {
				return &model.TeamMemberEdge{Cursor: c, Node: n}
			}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}
}

func inviteConnection(ctx context.Context, p loader.Page[*ent.InviteLink]) *model.InviteLinkConnection {
	return &model.InviteLinkConnection{
		Edges: edges(ctx, p.Items, func(i *ent.InviteLink) page.Cursor { return page.Cursor{Key: i.CreatedAt, ID: i.ID} },
			func(c string, n *ent.InviteLink) *model.InviteLinkEdge {
				return &model.InviteLinkEdge{Cursor: c, Node: n}
			}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}
}

func organizationConnection(ctx context.Context, p page.Page[*ent.Organization]) *model.OrganizationConnection {
	return &model.OrganizationConnection{
		Edges: edges(ctx, p.Items, organizationCursor,
			func(c string, n *ent.Organization) *model.OrganizationEdge {
				return &model.OrganizationEdge{Cursor: c, Node: n}
			}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}
}

func organizationCursor(o *ent.Organization) page.Cursor {
	return page.Cursor{Key: o.CreatedAt, ID: o.ID}
}

func customFieldConnection(ctx context.Context, p loader.Page[*ent.CustomField]) *model.CustomFieldConnection {
	return &model.CustomFieldConnection{
		Edges: edges(ctx, p.Items, func(f *ent.CustomField) page.Cursor { return page.Cursor{Key: f.Name, ID: f.ID} },
			func(c string, n *ent.CustomField) *model.CustomFieldEdge {
				return &model.CustomFieldEdge{Cursor: c, Node: n}
			}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}
}

func spaceConnection(ctx context.Context, p page.Page[*ent.Space]) *model.SpaceConnection {
	return &model.SpaceConnection{
		Edges: edges(ctx, p.Items, spaceCursor, func(c string, n *ent.Space) *model.SpaceEdge {
			return &model.SpaceEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}
}

func collectionConnection(ctx context.Context, p page.Page[*ent.Collection]) *model.CollectionConnection {
	return &model.CollectionConnection{
		Edges: edges(ctx, p.Items, collectionCursor, func(c string, n *ent.Collection) *model.CollectionEdge {
			return &model.CollectionEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}
}
