package main

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/contentobject"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/content/orderkey"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/txn"
)

// The peer's rows (schema.sql): users u1…u200, organizations o1…o20, spaces s1…s1000 where s_k
// belongs to o_(1+k%20), and change requests c1…c20000 where c_i is in s_(1+i%1000), written by
// u_(1+i%200), merged when i%3 == 0.
const (
	nUsers, nOrgs, nSpaces, nChangeRequests = 200, 20, 1000, 20000
	chunk                                   = 1000 // rows per bulk insert, well below both databases' parameter limits
)

// recreateDatabase drops (if it exists) and creates the PostgreSQL database name, and returns
// its DSN.
func recreateDatabase(ctx context.Context, adminDSN, name string) (string, error) {
	admin, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return "", fmt.Errorf("connect to PostgreSQL (-pg): %w", err)
	}
	defer admin.Close(ctx)
	ident := pgx.Identifier{name}.Sanitize()
	for _, stmt := range []string{"DROP DATABASE IF EXISTS " + ident + " WITH (FORCE)", "CREATE DATABASE " + ident} {
		if _, err := admin.Exec(ctx, stmt); err != nil {
			return "", fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return withDatabase(adminDSN, name), nil
}

// loadPeer runs schema.sql in a fresh database name.
func loadPeer(ctx context.Context, adminDSN, name, schemaFile string) error {
	schema, err := os.ReadFile(schemaFile)
	if err != nil {
		return err
	}
	dsn, err := recreateDatabase(ctx, adminDSN, name)
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err = conn.PgConn().Exec(ctx, string(schema)).ReadAll(); err != nil { // the simple protocol runs every statement
		return err
	}
	return analyze(ctx, dsn)
}

// analyze gathers the planner's statistics of the database at dsn after a bulk load, as
// autovacuum would soon do where it runs (it is off on some machines): both sides are planned
// with statistics.
func analyze(ctx context.Context, dsn string) error {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "ANALYZE")
	return err
}

// fixture is what the queries need of a seeded Bindery: the viewer's token, the organization of
// the nested query (Org 1), the space of the point read (Space 1) and every space in the peer's
// order (spaceIDs[k-1] is s_k), for the random point reads.
type fixture struct {
	token, orgID, spaceID string
	spaceIDs              []string
}

// seedBindery opens a fresh Bindery store (SQLite in dataDir, or PostgreSQL at dsn), puts the
// peer's rows into it through the ent client as the system viewer, and adds the viewer: an admin
// of all 20 organizations with an API token. Authors are members (edit role) of the
// organizations they write in, so the viewer sees them.
func seedBindery(ctx context.Context, dataDir, dsn string) (fixture, error) {
	st, err := store.Open(ctx, store.Options{DataDir: dataDir, DSN: dsn})
	if err != nil {
		return fixture{}, err
	}
	defer st.Close()
	sys := accounts.System(ctx)
	var f fixture
	var viewerID string
	err = txn.Run(sys, st.Client, func(tx *ent.Tx) error {
		var err error
		f, viewerID, err = seedRows(sys, tx)
		return err
	})
	if err != nil {
		return fixture{}, fmt.Errorf("seed: %w", err)
	}
	f.token, err = accounts.CreateToken(ctx, st.Client, viewerID, "bench-peer")
	return f, err
}

func seedRows(ctx context.Context, tx *ent.Tx) (f fixture, viewerID string, err error) {
	users, err := tx.User.CreateBulk(append(
		numbered(nUsers, func(i int) *ent.UserCreate {
			return tx.User.Create().SetEmail(fmt.Sprintf("u%d@acme.test", i)).SetDisplayName(fmt.Sprintf("User %d", i))
		}),
		tx.User.Create().SetEmail("viewer@acme.test").SetDisplayName("Viewer"))...).Save(ctx)
	if err != nil {
		return f, "", err
	}
	viewerUser, users := users[nUsers], users[:nUsers]
	orgs, err := tx.Organization.CreateBulk(numbered(nOrgs, func(i int) *ent.OrganizationCreate {
		return tx.Organization.Create().SetTitle(fmt.Sprintf("Org %d", i))
	})...).Save(ctx)
	if err != nil {
		return f, "", err
	}
	orgOf := func(k int) *ent.Organization { return orgs[k%nOrgs] } // s_k is in o_(1+k%20)
	positions := orderkey.Spread(nSpaces / nOrgs)
	spaces, err := tx.Space.CreateBulk(numbered(nSpaces, func(k int) *ent.SpaceCreate {
		return tx.Space.Create().SetOrganizationID(orgOf(k).ID).SetTitle(fmt.Sprintf("Space %d", k)).
			SetDefaultLevel(space.DefaultLevelInherit).SetPosition(positions[(k-1)/nOrgs])
	})...).Save(ctx)
	if err != nil {
		return f, "", err
	}
	// Every space gets an empty first revision, as createSpace gives it.
	if err := tx.ContentObject.Create().SetID(tree.EmptyRoot).SetKind(contentobject.KindTree).
		SetData(tree.EmptyRootData).SetSize(len(tree.EmptyRootData)).Exec(ctx); err != nil {
		return f, "", err
	}
	revs, err := tx.Revision.CreateBulk(numbered(nSpaces, func(k int) *ent.RevisionCreate {
		s := spaces[k-1]
		return tx.Revision.Create().SetSpaceID(s.ID).SetOrganizationID(s.OrganizationID).
			SetType(revision.TypeInitial).SetRootTree(tree.EmptyRoot)
	})...).Save(ctx)
	if err != nil {
		return f, "", err
	}

	// Change requests, numbered 1…20 in each space, and the memberships of their authors.
	crs := make([]*ent.ChangeRequestCreate, 0, nChangeRequests)
	count, open := make([]int, nSpaces), make([]int, nSpaces)
	authors := map[[2]int]bool{} // {org index, user index}
	for i := 1; i <= nChangeRequests; i++ {
		k := 1 + i%nSpaces
		s, rev, author := spaces[k-1], revs[k-1].ID, users[i%nUsers]
		count[k-1]++
		authors[[2]int{k % nOrgs, i % nUsers}] = true
		c := tx.ChangeRequest.Create().SetSpaceID(s.ID).SetOrganizationID(s.OrganizationID).
			SetNumber(count[k-1]).SetSubject(fmt.Sprintf("Change %d", i)).SetCreatedBy(author.ID).
			SetRevisionID(rev).SetRevisionInitialID(rev)
		if i%3 == 0 {
			c.SetStatus(changerequest.StatusMerged).SetMergedBy(author.ID).SetMergedAt(s.CreatedAt).SetRevisionMergedID(rev)
		} else {
			open[k-1]++
		}
		crs = append(crs, c)
	}
	for part := range slices.Chunk(crs, chunk) {
		if err := tx.ChangeRequest.CreateBulk(part...).Exec(ctx); err != nil {
			return f, "", err
		}
	}
	for k, s := range spaces { // Update, not UpdateOne, which reads the row back
		if err := tx.Space.Update().Where(space.ID(s.ID)).SetRevisionID(revs[k].ID).
			SetChangeRequestsCount(count[k]).SetChangeRequestsOpenCount(open[k]).Exec(ctx); err != nil {
			return f, "", err
		}
	}

	edit, admin := viewer.RoleEdit, viewer.RoleAdmin
	var members []*ent.MemberCreate
	for ou := range authors {
		members = append(members, tx.Member.Create().SetOrganizationID(orgs[ou[0]].ID).SetUserID(users[ou[1]].ID).SetRole(edit))
	}
	for _, o := range orgs {
		members = append(members, tx.Member.Create().SetOrganizationID(o.ID).SetUserID(viewerUser.ID).SetRole(admin))
	}
	if err := tx.Member.CreateBulk(members...).Exec(ctx); err != nil {
		return f, "", err
	}
	f = fixture{orgID: orgs[0].ID, spaceID: spaces[0].ID}
	for _, s := range spaces {
		f.spaceIDs = append(f.spaceIDs, s.ID)
	}
	return f, viewerUser.ID, nil
}

// numbered returns build(1), …, build(n).
func numbered[T any](n int, build func(i int) T) []T {
	out := make([]T, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, build(i))
	}
	return out
}
