// Package loader batches the lookups of one request: nested GraphQL lists and REST list items ask
// for users, memberships, counts and child pages one object at a time, and the loaders turn each
// wave of asks into one SQL statement. Loaders live one request long (Middleware), so batches run
// with that request's viewer and privacy decisions.
package loader

import (
	"context"
	"sync"
	"time"

	"github.com/graph-gophers/dataloader/v7"

	"github.com/binderyhq/bindery/ent"
)

const (
	// DefaultWait is how long a loader gathers keys before its batch runs: enough for sibling
	// resolvers (goroutines started together) to ask, far below the library's 16 ms that would add
	// up at every nested level. Measured: 1 ms halves a 100-member list's latency against 2 ms.
	// Batches are formed by time, so on a loaded machine a late sibling can land in a second batch;
	// the statement-count tests use a longer wait to prove batching apart from scheduler noise.
	DefaultWait = time.Millisecond
	// batchCapacity keeps one statement's parameters well below SQLite's and PostgreSQL's limits.
	batchCapacity = 500
)

// Loaders are the batching loaders of one request.
type Loaders struct {
	client *ent.Client
	wait   time.Duration

	users         *dataloader.Loader[string, *ent.User]
	members       *dataloader.Loader[MemberKey, *ent.Member]
	teams         *dataloader.Loader[string, *ent.Team]
	teamSizes     *dataloader.Loader[string, int]
	memberTeams   *dataloader.Loader[MemberKey, int]
	ownedTeams    memo[ownedTeams]
	userSpaces    *dataloader.Loader[MemberKey, int]
	teamSpaces    *dataloader.Loader[string, int]
	memberPages   *dataloader.Loader[pageKey[MemberFilter], Page[*ent.Member]]
	teamPages     *dataloader.Loader[pageKey[TeamFilter], Page[*ent.Team]]
	rosterPages   *dataloader.Loader[pageKey[struct{}], Page[*ent.TeamMember]]
	userTeamPages *dataloader.Loader[pageKey[UserTeamFilter], Page[*ent.TeamMember]]
	invitePages   *dataloader.Loader[pageKey[struct{}], Page[*ent.InviteLink]]
	fieldPages    *dataloader.Loader[pageKey[struct{}], Page[*ent.CustomField]]
	orgs          *dataloader.Loader[string, *ent.Organization]
	collections   *dataloader.Loader[string, *ent.Collection]
	fieldValues   *dataloader.Loader[string, []*ent.CustomFieldValue]
	// childCollections and collectionSpaces page the children of collections.
	childCollections *dataloader.Loader[pageKey[struct{}], Page[*ent.Collection]]
	collectionSpaces *dataloader.Loader[pageKey[struct{}], Page[*ent.Space]]
	// changeRequestPages pages the change requests of spaces; revisions and profiles are looked
	// up for them.
	changeRequestPages *dataloader.Loader[pageKey[ChangeRequestFilter], Page[*ent.ChangeRequest]]
	revisions          *dataloader.Loader[string, *ent.Revision]
	profiles           *dataloader.Loader[string, *ent.User]
	// Comments of spaces and change requests, their replies, reactions and repliers.
	spaceComments         *dataloader.Loader[pageKey[CommentFilter], Page[*ent.Comment]]
	changeRequestComments *dataloader.Loader[pageKey[CommentFilter], Page[*ent.Comment]]
	replyPages            *dataloader.Loader[pageKey[struct{}], Page[*ent.CommentReply]]
	reactions             *dataloader.Loader[ReactionTarget, []*ent.Reaction]
	repliers              *dataloader.Loader[string, []Replier]
}

// New returns fresh loaders over the client that gather keys for wait before each batch.
func New(client *ent.Client, wait time.Duration) *Loaders {
	l := &Loaders{client: client, wait: wait}
	l.users = newLoader(l, l.loadUsers)
	l.members = newLoader(l, l.loadMembers)
	l.teams = newLoader(l, l.loadTeams)
	l.teamSizes = newLoader(l, l.loadTeamSizes)
	l.memberTeams = newLoader(l, l.loadMemberTeamCounts)
	l.userSpaces = newLoader(l, l.loadUserSpaceCounts)
	l.teamSpaces = newLoader(l, l.loadTeamSpaceCounts)
	l.memberPages = newLoader(l, l.loadMemberPages)
	l.teamPages = newLoader(l, l.loadTeamPages)
	l.rosterPages = newLoader(l, l.loadRosterPages)
	l.userTeamPages = newLoader(l, l.loadUserTeamPages)
	l.invitePages = newLoader(l, l.loadInvitePages)
	l.fieldPages = newLoader(l, l.loadCustomFieldPages)
	l.orgs = newCachedLoader(l, l.loadOrganizations)
	l.collections = newLoader(l, l.loadCollections)
	l.fieldValues = newLoader(l, l.loadFieldValues)
	l.childCollections = newLoader(l, l.loadChildCollectionPages)
	l.collectionSpaces = newLoader(l, l.loadCollectionSpacePages)
	l.changeRequestPages = newLoader(l, l.loadChangeRequestPages)
	l.revisions = newLoader(l, l.loadRevisions)
	l.profiles = newLoader(l, l.loadProfiles)
	l.spaceComments = newLoader(l, l.loadSpaceCommentPages)
	l.changeRequestComments = newLoader(l, l.loadChangeRequestCommentPages)
	l.replyPages = newLoader(l, l.loadReplyPages)
	l.reactions = newLoader(l, l.loadReactions)
	l.repliers = newLoader(l, l.loadRepliers)
	return l
}

func newLoader[K comparable, V any](l *Loaders, batch dataloader.BatchFunc[K, V]) *dataloader.Loader[K, V] {
	return dataloader.NewBatchedLoader(batch,
		dataloader.WithWait[K, V](l.wait),
		dataloader.WithBatchCapacity[K, V](batchCapacity),
		dataloader.WithCache[K, V](&dataloader.NoCache[K, V]{}),
	)
}

// newCachedLoader is newLoader with a cache for the request: a key asked again, in a later wave
// (a space's organization, then its parent collection's), costs no statement.
func newCachedLoader[K comparable, V any](l *Loaders, batch dataloader.BatchFunc[K, V]) *dataloader.Loader[K, V] {
	return dataloader.NewBatchedLoader(batch,
		dataloader.WithWait[K, V](l.wait),
		dataloader.WithBatchCapacity[K, V](batchCapacity),
	)
}

type ctxKey struct{}

// NewContext returns ctx carrying fresh loaders over the client.
func NewContext(ctx context.Context, client *ent.Client, wait time.Duration) context.Context {
	return context.WithValue(ctx, ctxKey{}, New(client, wait))
}

// For returns the loaders of the request. Outside a request (a background job, a test calling a
// resolver directly) it returns fresh loaders over client.
func For(ctx context.Context, client *ent.Client) *Loaders {
	if l, ok := ctx.Value(ctxKey{}).(*Loaders); ok {
		return l
	}
	return New(client, DefaultWait)
}

// results orders values found by key into one result per key, in key order, with notFound for a
// key that has no value.
func results[K comparable, V any](keys []K, found map[K]V, notFound func(K) error) []*dataloader.Result[V] {
	out := make([]*dataloader.Result[V], len(keys))
	for i, k := range keys {
		if v, ok := found[k]; ok {
			out[i] = &dataloader.Result[V]{Data: v}
		} else if notFound != nil {
			out[i] = &dataloader.Result[V]{Error: notFound(k)}
		} else {
			out[i] = &dataloader.Result[V]{}
		}
	}
	return out
}

// failAll answers every key with the same error.
func failAll[K comparable, V any](keys []K, err error) []*dataloader.Result[V] {
	out := make([]*dataloader.Result[V], len(keys))
	for i := range keys {
		out[i] = &dataloader.Result[V]{Error: err}
	}
	return out
}

// memo computes a value at most once per request: for lookups with a single key (the viewer's
// own facts), where a batching loader would only add its wait.
type memo[V any] struct {
	once sync.Once
	v    V
	err  error
}

func (m *memo[V]) get(load func() (V, error)) (V, error) {
	m.once.Do(func() { m.v, m.err = load() })
	return m.v, m.err
}
