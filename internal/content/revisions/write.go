package revisions

import (
	"context"
	"fmt"
	"slices"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/contentobject"
	"github.com/binderyhq/bindery/ent/fileblob"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/spaceblob"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/content/bodylinks"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/txn"
)

// rowBatch is how many rows one bulk insert writes.
const rowBatch = ObjectBatch / 5

// newRevision is a revision to write: a tree that differs from the tree at baseRoot in the keys
// changed, with the page bodies and file bytes it adds.
type newRevision struct {
	space         *ent.Space
	changeRequest *string // nil for the space's main content
	kind          revision.Type
	parents       []string
	baseRoot      string
	tree          *tree.Tree
	changed       []string
	bodies        map[string]string
	blobs         []edit.Blob
}

// writeRevision stores a new revision in tx: its tree nodes, bodies and file bytes first, then
// the revision row. File bytes go to a database blob store in tx, to another store before the
// transaction commits: a failed transaction leaves them unreferenced, which content addressing
// makes harmless and the collection job (internal/blobs) removes.
func (svc *Service) writeRevision(ctx context.Context, tx *ent.Tx, nr newRevision) (*ent.Revision, error) {
	root, nodes, err := svc.Contents.trees.Save(ctx, nr.baseRoot, nr.tree, nr.changed)
	if err != nil {
		return nil, err
	}
	if err := insertObjects(ctx, tx, objectCreates(tx, nodes, nr.bodies)); err != nil {
		return nil, err
	}
	if err := bodylinks.Store(ctx, tx, nr.bodies); err != nil {
		return nil, err
	}
	if err := svc.storeBlobs(ctx, tx, nr.blobs); err != nil {
		return nil, err
	}
	if err := recordSpaceBlobs(ctx, tx, nr.space.ID, nr.tree, nr.changed); err != nil {
		return nil, err
	}
	c := tx.Revision.Create().SetSpaceID(nr.space.ID).SetOrganizationID(nr.space.OrganizationID).
		SetType(nr.kind).SetParents(nr.parents).SetRootTree(root).SetNillableChangeRequestID(nr.changeRequest)
	if v := viewer.FromContext(ctx); v != nil && v.UserID != "" {
		c.SetCreatedBy(v.UserID)
	}
	return c.Save(ctx)
}

// objectCreates are the creations of tree nodes and page bodies.
func objectCreates(tx *ent.Tx, nodes []tree.Object, bodies map[string]string) []*ent.ContentObjectCreate {
	objects := make([]*ent.ContentObjectCreate, 0, len(nodes)+len(bodies))
	for _, n := range nodes {
		objects = append(objects, newObject(tx, n.Hash, contentobject.KindTree, n.Data))
	}
	for hash, body := range bodies {
		objects = append(objects, newObject(tx, hash, contentobject.KindPageBody, []byte(body)))
	}
	return objects
}

func newObject(tx *ent.Tx, hash string, kind contentobject.Kind, data []byte) *ent.ContentObjectCreate {
	return tx.ContentObject.Create().SetID(hash).SetKind(kind).SetData(data).SetSize(len(data))
}

// insertObjects stores content objects, skipping those already stored.
func insertObjects(ctx context.Context, tx *ent.Tx, objects []*ent.ContentObjectCreate) error {
	for chunk := range slices.Chunk(objects, rowBatch) {
		err := tx.ContentObject.CreateBulk(chunk...).OnConflictColumns(contentobject.FieldID).DoNothing().Exec(ctx)
		if err != nil && !txn.SkippedUpsert(err) {
			return err
		}
	}
	return nil
}

// storeBlobs writes file bytes to the blob store and records them.
func (svc *Service) storeBlobs(ctx context.Context, tx *ent.Tx, files []edit.Blob) error {
	if len(files) == 0 {
		return nil
	}
	if svc.Blobs == nil {
		return fmt.Errorf("no blob store is configured")
	}
	rows := make([]*ent.FileBlobCreate, 0, len(files))
	stored := make(map[string]bool, len(files))
	for _, b := range files {
		if stored[b.Hash] { // equal files of one batch: PostgreSQL's upsert takes a row once
			continue
		}
		stored[b.Hash] = true
		if err := svc.putBlob(ctx, tx, b); err != nil {
			return fmt.Errorf("store file bytes: %w", err)
		}
		rows = append(rows, tx.FileBlob.Create().SetID(b.Hash).SetSize(int64(len(b.Data))).SetTracked(true))
	}
	for chunk := range slices.Chunk(rows, rowBatch) {
		// Ignore, not DoNothing: a row stored before is locked to the end of the transaction, so
		// a purge removing it waits and then sees this revision's SpaceBlob row (internal/sweep).
		err := tx.FileBlob.CreateBulk(chunk...).OnConflictColumns(fileblob.FieldID).Ignore().Exec(ctx)
		if err != nil && !txn.SkippedUpsert(err) {
			return err
		}
	}
	return nil
}

// putBlob writes file bytes in tx when the blob store lives in the database, else beside it.
func (svc *Service) putBlob(ctx context.Context, tx *ent.Tx, b edit.Blob) error {
	if in, ok := svc.Blobs.(blobs.TxStore); ok {
		return in.PutIn(ctx, tx, b.Hash, b.Data)
	}
	return svc.Blobs.Put(ctx, b.Hash, b.Data)
}

// The spaces holding each file's bytes (SpaceBlob rows): recorded in the transaction of every
// revision that adds files to a space, and of a space's copy, so the purge of a space removes the
// FileBlob rows of the bytes no other space holds and the blob collector frees them (decision
// 320, internal/blobs, internal/sweep).

// recordSpaceBlobs records, in tx, that the space's revisions name the bytes of the files of t
// among keys (all of t's files for nil keys). Rows recorded before are kept.
func recordSpaceBlobs(ctx context.Context, tx *ent.Tx, spaceID string, t *tree.Tree, keys []string) error {
	var files []*tree.File
	if keys == nil {
		files = t.Files()
	}
	for _, k := range keys {
		if f := t.File(k); f != nil {
			files = append(files, f)
		}
	}
	rows := make([]*ent.SpaceBlobCreate, 0, len(files))
	for _, f := range files {
		rows = append(rows, tx.SpaceBlob.Create().SetSpaceID(spaceID).SetBlobID(f.Blob))
	}
	for chunk := range slices.Chunk(rows, rowBatch) {
		err := tx.SpaceBlob.CreateBulk(chunk...).OnConflictColumns(spaceblob.FieldSpaceID, spaceblob.FieldBlobID).DoNothing().Exec(ctx)
		if err != nil && !txn.SkippedUpsert(err) {
			return err
		}
	}
	return nil
}

// StartContent gives a space made in tx its first revision, over the root tree (the empty tree
// is stored if missing; a duplicate's copied content otherwise, CopyContent), and keeps what
// follows the space's content in step: the bytes of its files recorded as the space's, its
// search index.
func (svc *Service) StartContent(ctx context.Context, tx *ent.Tx, s *ent.Space, root string) error {
	if err := startRevision(ctx, tx, s, root); err != nil {
		return err
	}
	if root != tree.EmptyRoot { // a duplicate starts with content, and its files
		t, err := svc.Contents.trees.Load(ctx, root)
		if err == nil {
			err = recordSpaceBlobs(privacy.DecisionContext(ctx, privacy.Allow), tx, s.ID, t, nil)
		}
		if err != nil {
			return err
		}
	}
	return svc.reindexSearch(ctx, tx, s, tree.EmptyRoot, root)
}

// startRevision writes the first revision of a space made in tx. The space's creator was allowed
// to make it; the revision and the pointer to it follow from that, so they are written with the
// policy's decision made (the rules read committed rows through the request's client, and the
// new space is not committed yet).
func startRevision(ctx context.Context, tx *ent.Tx, s *ent.Space, root string) error {
	allowed := privacy.DecisionContext(ctx, privacy.Allow)
	if root == tree.EmptyRoot {
		err := tx.ContentObject.Create().SetID(root).SetKind(contentobject.KindTree).SetData(tree.EmptyRootData).
			SetSize(len(tree.EmptyRootData)).OnConflictColumns(contentobject.FieldID).DoNothing().Exec(allowed)
		if err != nil && !txn.SkippedUpsert(err) {
			return err
		}
	}
	c := tx.Revision.Create().SetSpaceID(s.ID).SetOrganizationID(s.OrganizationID).
		SetType(revision.TypeInitial).SetRootTree(root)
	if v := viewer.FromContext(ctx); v != nil && v.UserID != "" {
		c.SetCreatedBy(v.UserID)
	}
	rev, err := c.Save(allowed)
	if err != nil {
		return err
	}
	return tx.Space.UpdateOneID(s.ID).SetRevisionID(rev.ID).Exec(allowed)
}

// CopyContent stores a copy of a space's active content whose pages and files have new ids (the
// links between them follow) and returns its root tree. Bodies and file bytes are shared where
// they do not change; the objects are stored in their own transaction, which content addressing
// makes safe to leave behind should the copy fail later.
func (svc *Service) CopyContent(ctx context.Context, s *ent.Space) (string, error) {
	if s.RevisionID == nil {
		return tree.EmptyRoot, nil
	}
	_, t, err := svc.Contents.RevisionAndTree(ctx, *s.RevisionID)
	if err != nil {
		return "", err
	}
	copied, ids := t.Rekey(id.New)
	bodies, err := svc.renameBodies(ctx, copied, ids)
	if err != nil {
		return "", err
	}
	var keys []string
	for _, e := range copied.Entries() {
		keys = append(keys, e.Key())
	}
	root, nodes, err := svc.Contents.trees.Save(ctx, tree.EmptyRoot, copied, keys)
	if err != nil {
		return "", err
	}
	return root, txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := insertObjects(ctx, tx, objectCreates(tx, nodes, bodies)); err != nil {
			return err
		}
		return bodylinks.Store(ctx, tx, bodies)
	})
}

// renameBodies rewrites the links of the pages and reusable contents of a copied tree to the
// copies' ids, in place, and returns the bodies that changed by their new hash.
func (svc *Service) renameBodies(ctx context.Context, copied *tree.Tree, ids map[string]string) (map[string]string, error) {
	var hashes []string
	copied.Walk(func(p *tree.Page, _ string) { hashes = append(hashes, p.Body) })
	for _, r := range copied.Reusables() {
		hashes = append(hashes, r.Body)
	}
	texts, err := svc.Contents.Bodies(ctx, hashes)
	if err != nil {
		return nil, err
	}
	renamed, made := map[string]string{}, map[string]string{}
	for old, text := range texts {
		if body := markdown.RenameIDs(text, ids); body != text {
			renamed[old] = tree.Hash([]byte(body))
			made[renamed[old]] = body
		}
	}
	copied.Walk(func(p *tree.Page, _ string) {
		if h, ok := renamed[p.Body]; ok {
			c := *p
			c.Body = h
			copied.SetPage(&c)
		}
	})
	for _, r := range copied.Reusables() {
		if h, ok := renamed[r.Body]; ok {
			c := *r
			c.Body = h
			copied.SetReusable(&c)
		}
	}
	return made, nil
}
