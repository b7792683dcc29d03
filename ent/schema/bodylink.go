package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// BodyLink is one link target of a stored page body (internal/content/links): a page, a file or a
// space by id, or a URL. Bodies are content-addressed, so their links are a pure function of their
// hash: they are extracted once, when a revision stores a new body, and serve every revision that
// holds the body (a file's backlinks are the pages whose body links to it). Its id is the hash of
// the body hash and the target, so storing the links of a body twice stores them once.
type BodyLink struct{ ent.Schema }

// Fields of BodyLink. It has no IDMixin: its id is a content hash, like ContentObject's.
func (BodyLink) Fields() []ent.Field {
	return []ent.Field{
		contentHashID(),
		field.String("body_hash").NotEmpty().MaxLen(100).Immutable(),
		field.Enum("kind").Values("page", "file", "space", "url").Immutable(),
		// ref is the page, file or space id (at most 100 characters, so it can be indexed); "" for a URL.
		field.String("ref").Default("").MaxLen(100).Immutable(),
		// anchor is a page link's anchor; url a URL link's destination as written. Unbounded text.
		field.Text("anchor").Default("").Immutable(),
		field.Text("url").Default("").Immutable(),
	}
}

// Indexes of BodyLink: a revision's links by its bodies, and the bodies linking to a target
// (backlinks).
func (BodyLink) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("body_hash"),
		index.Fields("kind", "ref"),
	}
}

// Policy of BodyLink: the policy of ContentObject (any signed-in user reads and stores, only the
// system viewer changes or removes). Links are reached through the bodies of revisions the viewer
// reads.
func (BodyLink) Policy() ent.Policy { return contentAddressedPolicy() }
