package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
)

// Job is a unit of background work (internal/jobs): a kind (which handler runs it) and a key
// (what it works on, unique per kind), due at run_at. A process runs a job while it holds the
// job's lease (lease_owner, lease_until), so processes sharing one database never run the same
// job at once, and a job whose process died is taken over once its lease expires. seq counts
// the times the job was asked for: work asked for while the job ran makes it run again.
type Job struct{ ent.Schema }

// Mixin of Job.
func (Job) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}} }

// Fields of Job.
func (Job) Fields() []ent.Field {
	return []ent.Field{
		field.String("kind").Immutable().NotEmpty().MaxLen(64),
		field.String("key").Immutable().NotEmpty().MaxLen(128),
		field.Time("run_at"),
		field.Int("seq").Default(1),
		// attempts counts the runs that failed since the job last succeeded.
		field.Int("attempts").Default(0),
		field.String("lease_owner").Optional().Nillable().MaxLen(96),
		field.Time("lease_until").Optional().Nillable(),
		field.String("last_error").Optional().Nillable().MaxLen(1024),
	}
}

// Indexes of Job.
func (Job) Indexes() []ent.Index {
	return []ent.Index{index.Fields("kind", "key").Unique(), index.Fields("run_at")}
}

// Policy of Job: only the system viewer (the runner, and resolvers that opt in to enqueue)
// reads or writes jobs.
func (Job) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{privacy.AlwaysDenyRule()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
