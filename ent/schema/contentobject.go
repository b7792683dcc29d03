package schema

import (
	"context"

	"entgo.io/ent"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// ContentObject is a content-addressed object of revision content: a Markdown page body, a tree
// node of the page tree (its entries name other objects by hash), or page metadata. Its id is the
// hash of its kind and data ("sha256:<hex>"), set by the writer, so equal content is stored once
// and a revision that changes one page writes one body and the few tree nodes above it. Objects
// are immutable and belong to no organization: they are reached through revisions.
type ContentObject struct{ ent.Schema }

// Fields of ContentObject. It has no IDMixin: its id is the content hash, never a random one.
func (ContentObject) Fields() []ent.Field {
	return []ent.Field{
		contentHashID(),
		field.Enum("kind").Values("page_body", "tree", "meta").Immutable(),
		field.Bytes("data").Immutable(),
		field.Int("size").NonNegative().Immutable(),
		field.Time("created_at").Default(now).Immutable(),
	}
}

// Policy of ContentObject: any signed-in user may read an object by its hash (bodies are reached
// through revisions the viewer can read, and hashes are unguessable) and store new ones (they are
// content-addressed and immutable); only the system viewer changes or removes them (garbage
// collection).
func (ContentObject) Policy() ent.Policy { return contentAddressedPolicy() }

// contentHashID is the id of a content-addressed entity: the hash of its content, set by the writer.
func contentHashID() ent.Field {
	return field.String("id").Immutable().NotEmpty().MaxLen(100)
}

// contentAddressedPolicy is the policy of content-addressed entities (ContentObject, FileBlob).
// They have no IDMixin, so it starts with the system viewer's rules itself.
func contentAddressedPolicy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{
			rule.AllowIfSystem(),
			allowIfUser(),
			privacy.AlwaysDenyRule(),
		},
		Mutation: privacy.MutationPolicy{
			rule.AllowIfSystem(),
			rule.DenyIfNoViewer(),
			privacy.OnMutationOperation(allowIfUser(), ent.OpCreate),
			privacy.AlwaysDenyRule(),
		},
	}
}

// allowIfUser allows viewers who are a signed-in user.
func allowIfUser() privacy.QueryMutationRule {
	return privacy.ContextQueryMutationRule(func(ctx context.Context) error {
		if v := viewer.FromContext(ctx); v != nil && v.UserID != "" {
			return privacy.Allow
		}
		return privacy.Skip
	})
}
