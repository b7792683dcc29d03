package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// FileBlob records the bytes of an uploaded file, stored content-addressed like ContentObject: its
// id is the hash of the bytes ("sha256:<hex>"), set by the writer. The bytes live in the blob store
// on disk; the row says they are there, how big they are and their content type when first stored
// (a file's own name and type live in the revision tree that names the blob).
type FileBlob struct{ ent.Schema }

// Fields of FileBlob. It has no IDMixin: its id is the content hash, never a random one.
func (FileBlob) Fields() []ent.Field {
	return []ent.Field{
		contentHashID(),
		field.Int64("size").NonNegative().Immutable(),
		field.String("content_type").Default("application/octet-stream").MaxLen(255).Immutable(),
		field.Time("created_at").Default(now).Immutable(),
		// tracked is set on rows created since the spaces holding each blob are recorded
		// (SpaceBlob): only such a row may be removed when the last space holding it is purged.
		// Rows of earlier versions stay false: spaces may name them without a SpaceBlob row.
		field.Bool("tracked").Default(false).Immutable(),
	}
}

// Policy of FileBlob: the policy of ContentObject (any signed-in user reads and stores, only the
// system viewer changes or removes).
func (FileBlob) Policy() ent.Policy { return contentAddressedPolicy() }
