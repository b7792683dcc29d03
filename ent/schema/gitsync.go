package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
)

// GitSync links a space to a branch of a git repository (Git Sync): where it is, the token that
// reaches it (sealed with a server key, never shown again), the identity of commits made for no
// change request, and the last operation: its direction, state, times, error, and the commit
// and revision it left in sync.
type GitSync struct{ ent.Schema }

// Mixin of GitSync.
func (GitSync) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of GitSync.
func (GitSync) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		field.String("url").NotEmpty().MaxLen(2048),
		field.String("branch").NotEmpty().MaxLen(255),
		// root is the folder of the repository the content is in ("" for the top).
		field.String("root").Default("").MaxLen(1024),
		field.Bytes("sealed_token").Sensitive().Optional().Nillable(),
		// sealed_webhook_secret authenticates the git host's push webhook (sealed with a server
		// key; shown once when made).
		field.Bytes("sealed_webhook_secret").Sensitive().Optional().Nillable(),
		field.String("author_name").Default("Bindery").MaxRuneLen(200),
		field.String("author_email").Default("bindery@localhost").MaxLen(320),
		// commit_message is the message of the call that linked the space, for the commits of
		// content no change request made.
		field.String("commit_message").Default("").MaxLen(4096),
		field.Enum("operation_direction").Values("export", "import").Optional().Nillable(),
		field.Enum("operation_state").Values("running", "failure", "success", "timeout").Optional().Nillable(),
		field.Time("operation_started_at").Optional().Nillable(),
		field.Time("operation_ended_at").Optional().Nillable(),
		field.String("operation_error").Optional().Nillable().MaxRuneLen(1200),
		// commit is the head of the branch after the last sync; revision the space's revision
		// it mirrors.
		field.String("commit").Optional().Nillable().MaxLen(64),
		field.String("revision_id").Optional().Nillable().MaxLen(64),
		// linked_by is the user who linked the space: the author of the change requests its
		// imports open.
		field.String("linked_by").Optional().Nillable(),
		// change_request_id is the change request an import opened that waits for a person (the
		// space's merge rules refused its merge, its merge had conflicts, or the branch was
		// force-pushed): exports wait until it is merged or archived.
		field.String("change_request_id").Optional().Nillable().MaxLen(64),
		// unmet_rules are the merge rules that change request does not meet yet: it waits for
		// review (none when only its conflicts or a force-push keep it waiting).
		field.Strings("unmet_rules").Optional(),
	}
}

// Edges of GitSync. It goes with its space.
func (GitSync) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of GitSync: one link per space.
func (GitSync) Indexes() []ent.Index {
	return []ent.Index{index.Fields("space_id").Unique()}
}

// Policy of GitSync: whoever may read a space reads its link (the service shows it to the
// space's admins only); it is written by the service after its own check of the viewer's role,
// with the system's decision, as the jobs that sync write theirs.
func (GitSync) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
