package testenv

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/contentobject"
	"github.com/binderyhq/bindery/ent/fileblob"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Content is a revision's content to write below the API: its tree, the Markdown bodies its pages
// name by hash, and the bytes its files name by hash.
type Content struct {
	Tree   *tree.Tree
	Bodies map[string]string
	Blobs  map[string][]byte
}

// WriteRevision stores c as a new revision (type edits) of the space's main content, or of a
// change request of it when changeRequestID is not empty, makes it the active revision there and
// returns its id. It is for tests and benchmarks that need more content than authoring batches of
// 50 changes make quickly (a space of ten thousand pages).
func (e *Env) WriteRevision(spaceID, changeRequestID string, c Content) string {
	e.tb.Helper()
	ctx := accounts.System(context.Background())
	client := e.Store.Client
	s := client.Space.GetX(ctx, spaceID)
	parent := *s.RevisionID
	if changeRequestID != "" {
		parent = client.ChangeRequest.GetX(ctx, changeRequestID).RevisionID
	}
	root := e.storeTree(ctx, c)
	create := client.Revision.Create().SetSpaceID(s.ID).SetOrganizationID(s.OrganizationID).
		SetType(revision.TypeEdits).SetParents([]string{parent}).SetRootTree(root)
	if changeRequestID != "" {
		create.SetChangeRequestID(changeRequestID)
	}
	rev := create.SaveX(ctx)
	if changeRequestID != "" {
		client.ChangeRequest.UpdateOneID(changeRequestID).SetRevisionID(rev.ID).ExecX(ctx)
	} else {
		client.Space.UpdateOneID(s.ID).SetRevisionID(rev.ID).ExecX(ctx)
	}
	return rev.ID
}

// storeTree writes the tree's nodes, the bodies and the file bytes, and returns the root hash.
func (e *Env) storeTree(ctx context.Context, c Content) string {
	client := e.Store.Client
	store := tree.NewStore(func(ctx context.Context, hashes []string) (map[string][]byte, error) {
		objs, err := client.ContentObject.Query().Where(contentobject.IDIn(hashes...)).All(ctx)
		out := map[string][]byte{}
		for _, o := range objs {
			out[o.ID] = o.Data
		}
		return out, err
	})
	keys := make([]string, 0, len(c.Tree.Entries()))
	for _, entry := range c.Tree.Entries() {
		keys = append(keys, entry.Key())
	}
	root, nodes, err := store.Save(ctx, tree.EmptyRoot, c.Tree, keys)
	if err != nil {
		e.tb.Fatal(err)
	}
	var objects []*ent.ContentObjectCreate
	for _, n := range nodes {
		objects = append(objects, client.ContentObject.Create().SetID(n.Hash).SetKind(contentobject.KindTree).
			SetData(n.Data).SetSize(len(n.Data)))
	}
	for hash, body := range c.Bodies {
		objects = append(objects, client.ContentObject.Create().SetID(hash).SetKind(contentobject.KindPageBody).
			SetData([]byte(body)).SetSize(len(body)))
	}
	for chunk := range slices.Chunk(objects, 100) {
		e.upserted(client.ContentObject.CreateBulk(chunk...).OnConflictColumns(contentobject.FieldID).DoNothing().Exec(ctx))
	}
	for hash, data := range c.Blobs {
		if err := e.Store.Blobs.Put(ctx, hash, data); err != nil {
			e.tb.Fatal(err)
		}
		e.upserted(client.FileBlob.Create().SetID(hash).SetSize(int64(len(data))).
			OnConflictColumns(fileblob.FieldID).DoNothing().Exec(ctx))
	}
	return root
}

// upserted fails the test on an upsert's error, except the "no rows" PostgreSQL answers when
// every row was there already.
func (e *Env) upserted(err error) {
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		e.tb.Fatal(err)
	}
}

// ChangeRequests stores n open change requests of a space below the API, numbered from 1, their
// authors taken from creators in turn, and returns their ids. It is for tests and benchmarks
// that need more change requests than creating them one request at a time makes quickly; the
// space's counters are left as they were.
func (e *Env) ChangeRequests(spaceID string, creators []string, n int) []string {
	e.tb.Helper()
	ctx := accounts.System(context.Background())
	client := e.Store.Client
	s := client.Space.GetX(ctx, spaceID)
	creates := make([]*ent.ChangeRequestCreate, n)
	for i := range creates {
		creates[i] = client.ChangeRequest.Create().SetSpaceID(s.ID).SetOrganizationID(s.OrganizationID).
			SetNumber(i + 1).SetSubject(fmt.Sprintf("Change %d", i+1)).SetCreatedBy(creators[i%len(creators)]).
			SetRevisionID(*s.RevisionID).SetRevisionInitialID(*s.RevisionID)
	}
	var ids []string
	for chunk := range slices.Chunk(creates, 100) {
		for _, cr := range client.ChangeRequest.CreateBulk(chunk...).SaveX(ctx) {
			ids = append(ids, cr.ID)
		}
	}
	return ids
}
