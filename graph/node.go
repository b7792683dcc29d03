package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/collection"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/ent/commentreply"
	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/ent/invitelink"
	"github.com/binderyhq/bindery/ent/openapispec"
	"github.com/binderyhq/bindery/ent/openapispecversion"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/samlprovider"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/translationsettings"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/webhook"
	"github.com/binderyhq/bindery/ent/webhookdelivery"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/nodes"
)

// Relay's object identification (graph/schema/node.graphqls, decision 410): node and nodes find
// the kind of each id with one statement over the kinds' tables (nodes.Find), then read each
// object through the ordinary read of its kind — the one a client reaches it by (Query.space,
// Organization.team, Comment.reply, …) — so access is decided as for any read.

// MaxNodes is how many ids one nodes field takes.
const MaxNodes = 100

// nodeKind is a type implementing Node: its table, the keys its ordinary read takes beside the
// id, and that read.
type nodeKind struct {
	nodes.Kind
	read func(ctx context.Context, r *Resolver, id string, keys [2]string) (model.Node, error)
}

// nodeKinds are the types implementing Node, with their ordinary reads; nodeTables their kinds,
// for nodes.Find. (Set by init: the reads of replies and versions read their parents as nodes.)
var (
	nodeKinds  []nodeKind
	nodeTables []nodes.Kind
)

func init() {
	nodeKinds = []nodeKind{
		{nodes.Kind{Table: user.Table}, func(ctx context.Context, r *Resolver, id string, _ [2]string) (model.Node, error) {
			return asNode(r.user(ctx, id))
		}},
		{nodes.Kind{Table: organization.Table}, func(ctx context.Context, r *Resolver, id string, _ [2]string) (model.Node, error) {
			return asNode(r.organization(ctx, id))
		}},
		{nodes.Kind{Table: collection.Table}, func(ctx context.Context, r *Resolver, id string, _ [2]string) (model.Node, error) {
			return asNode(r.collection(ctx, id))
		}},
		{nodes.Kind{Table: space.Table}, func(ctx context.Context, r *Resolver, id string, _ [2]string) (model.Node, error) {
			return asNode(r.space(ctx, id))
		}},
		{nodes.Kind{Table: changerequest.Table, Keys: []string{changerequest.FieldSpaceID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			return asNode(r.spaceChangeRequest(ctx, k[0], id))
		}},
		{nodes.Kind{Table: revision.Table, Keys: []string{revision.FieldSpaceID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			s, err := r.space(ctx, k[0])
			if err != nil {
				return nil, err
			}
			return asNode(r.spaceRevision(ctx, s, id))
		}},
		{nodes.Kind{Table: comment.Table, Keys: []string{comment.FieldSpaceID, comment.FieldChangeRequestID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			var cr *string
			if k[1] != "" {
				cr = &k[1]
			}
			return asNode(r.ReadComment(ctx, k[0], cr, id))
		}},
		{nodes.Kind{Table: commentreply.Table, Keys: []string{commentreply.FieldCommentID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			c, err := nodeParent[*ent.Comment](ctx, r, k[0])
			if c == nil {
				return nil, err
			}
			return asNode(r.commentReply(ctx, c, id))
		}},
		{nodes.Kind{Table: team.Table, Keys: []string{team.FieldOrganizationID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			return asNode(r.team(ctx, k[0], id))
		}},
		{nodes.Kind{Table: invitelink.Table, Keys: []string{invitelink.FieldOrganizationID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			return asNode(r.invite(ctx, k[0], id))
		}},
		{nodes.Kind{Table: site.Table, Keys: []string{site.FieldOrganizationID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			return asNode(r.site(ctx, k[0], id))
		}},
		{nodes.Kind{Table: sitespace.Table, Keys: []string{sitespace.FieldOrganizationID, sitespace.FieldSiteID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			s, err := r.site(ctx, k[0], k[1])
			if err != nil {
				return nil, err
			}
			return asNode(r.siteSpace(ctx, s, id))
		}},
		{nodes.Kind{Table: openapispec.Table, Keys: []string{openapispec.FieldOrganizationID, openapispec.FieldSlug}}, func(ctx context.Context, r *Resolver, _ string, k [2]string) (model.Node, error) {
			return asNode(r.openAPISpec(ctx, k[0], k[1]))
		}},
		{nodes.Kind{Table: openapispecversion.Table, Keys: []string{openapispecversion.FieldSpecID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			s, err := nodeParent[*ent.OpenAPISpec](ctx, r, k[0])
			if s == nil {
				return nil, err
			}
			return asNode(r.SpecVersion(ctx, s, id, false))
		}},
		{nodes.Kind{Table: customfield.Table, Keys: []string{customfield.FieldOrganizationID, customfield.FieldName}}, func(ctx context.Context, r *Resolver, _ string, k [2]string) (model.Node, error) {
			return asNode(r.customField(ctx, k[0], k[1]))
		}},
		{nodes.Kind{Table: samlprovider.Table, Keys: []string{samlprovider.FieldOrganizationID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			return asNode(r.samlProvider(ctx, k[0], id))
		}},
		{nodes.Kind{Table: translationsettings.Table, Keys: []string{translationsettings.FieldOrganizationID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			return asNode(r.translationSettings(ctx, k[0], id))
		}},
		{nodes.Kind{Table: webhook.Table, Keys: []string{webhook.FieldOrganizationID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			return asNode(r.webhooksService().Get(ctx, k[0], id))
		}},
		{nodes.Kind{Table: webhookdelivery.Table, Keys: []string{webhookdelivery.FieldOrganizationID, webhookdelivery.FieldWebhookID}}, func(ctx context.Context, r *Resolver, id string, k [2]string) (model.Node, error) {
			return asNode(r.webhooksService().Delivery(ctx, k[0], k[1], id))
		}},
	}
	for _, k := range nodeKinds {
		nodeTables = append(nodeTables, k.Kind)
	}
}

// node is Query.node: the object with this id, or nil when the viewer cannot read it.
func (r *Resolver) node(ctx context.Context, id string) (model.Node, error) {
	ns, err := r.nodes(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	return ns[0], nil
}

// nodes is Query.nodes: the objects with these ids, in order, nil where the viewer cannot read
// one (of another organization, deleted, unknown, not an id). Returns INVALID for more than
// MaxNodes ids.
func (r *Resolver) nodes(ctx context.Context, ids []string) ([]model.Node, error) {
	if len(ids) > MaxNodes {
		return nil, apperr.Invalidf("ids: at most %d ids a request (got %d)", MaxNodes, len(ids))
	}
	if _, err := rule.RequireViewer(ctx); err != nil {
		return nil, err
	}
	refs, err := nodes.Find(ctx, r.Client, nodeTables, ids)
	if err != nil {
		return nil, err
	}
	out := make([]model.Node, len(ids))
	for i, id := range ids {
		if ref, ok := refs[id]; ok {
			if out[i], err = r.readNode(ctx, id, ref); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// readNode reads the object ref found through its kind's ordinary read: nil when that read
// answers NOT_FOUND or FORBIDDEN, so a node tells nothing the read would not.
func (r *Resolver) readNode(ctx context.Context, id string, ref nodes.Ref) (model.Node, error) {
	n, err := nodeKinds[ref.Kind].read(ctx, r, id, ref.Keys)
	if err != nil {
		switch AsAppError(ctx, err).Kind {
		case apperr.NotFound, apperr.Forbidden:
			return nil, nil
		}
	}
	return n, err
}

// nodeParent reads the parent object a node's ordinary read starts from (a reply's comment, a
// version's spec) as a node of its own: nil when the viewer cannot read it.
func nodeParent[T model.Node](ctx context.Context, r *Resolver, id string) (T, error) {
	var zero T
	n, err := r.node(ctx, id)
	if p, ok := n.(T); ok {
		return p, err
	}
	return zero, err
}

// asNode is a read's answer as a node: a nil entity is no node.
func asNode[T any](v *T, err error) (model.Node, error) {
	if v == nil || err != nil {
		return nil, err
	}
	return v, nil
}
