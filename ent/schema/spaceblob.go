package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// SpaceBlob records that revisions of a space name a file's bytes (a FileBlob, by hash): written
// with the revision that adds the file to the space (an upload, an import, a copy of a space), so
// the purge of a space knows which bytes no other space holds (decision 320). It goes with its
// space.
type SpaceBlob struct{ ent.Schema }

// Mixin of SpaceBlob.
func (SpaceBlob) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}} }

// Fields of SpaceBlob.
func (SpaceBlob) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		field.String("blob_id").Immutable().NotEmpty().MaxLen(100),
	}
}

// Edges of SpaceBlob.
func (SpaceBlob) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of SpaceBlob: one row per space and blob; the spaces holding a blob.
func (SpaceBlob) Indexes() []ent.Index {
	return []ent.Index{index.Fields("space_id", "blob_id").Unique(), index.Fields("blob_id")}
}

// Policy of SpaceBlob: the policy of content-addressed rows (written by any signed-in user's
// revision; read and removed by the system: the purge).
func (SpaceBlob) Policy() ent.Policy { return contentAddressedPolicy() }
