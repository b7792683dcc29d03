package graph

import (
	"context"
	"fmt"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/contentobject"
	"github.com/binderyhq/bindery/ent/fileblob"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/content/bodylinks"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/txn"
)

// contents is the resolver's access to stored content: revision trees and page bodies, both
// content-addressed and cached (they never change), and file bytes in the blob store.
type contents struct {
	trees  *tree.Store
	bodies *lru.Cache[string, string]
}

// bodyCacheSize is how many page bodies stay decoded in memory.
const bodyCacheSize = 4096

// objectBatch is how many content objects one statement reads or writes (under every database's
// parameter limit).
const objectBatch = 500

func (r *Resolver) content() *contents {
	r.contentOnce.Do(func() {
		bodies, _ := lru.New[string, string](bodyCacheSize)
		r.contentStore = &contents{trees: tree.NewStore(r.fetchObjects), bodies: bodies}
	})
	return r.contentStore
}

// objectsContext reads content objects for anyone: they are content-addressed and reached only
// through a revision whose space the viewer was allowed to read, so the policy decision on the
// revision already covers them.
func objectsContext(ctx context.Context) context.Context {
	return privacy.DecisionContext(ctx, privacy.Allow)
}

// fetchObjects reads the data of content objects by hash.
func (r *Resolver) fetchObjects(ctx context.Context, hashes []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(hashes))
	for chunk := range chunks(hashes, objectBatch) {
		objs, err := r.Client.ContentObject.Query().Where(contentobject.IDIn(chunk...)).
			Select(contentobject.FieldID, contentobject.FieldData).All(objectsContext(ctx))
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			out[o.ID] = o.Data
		}
	}
	return out, nil
}

func chunks[T any](list []T, size int) func(yield func([]T) bool) {
	return func(yield func([]T) bool) {
		for len(list) > 0 {
			n := min(size, len(list))
			if !yield(list[:n]) {
				return
			}
			list = list[n:]
		}
	}
}

// revisionTree returns the page tree of a revision the viewer has read.
func (r *Resolver) revisionTree(ctx context.Context, rev *ent.Revision) (*tree.Tree, error) {
	return r.content().trees.Load(ctx, rev.RootTree)
}

// pageBodies returns the Markdown of page bodies by hash ("" maps to "").
func (r *Resolver) pageBodies(ctx context.Context, hashes []string) (map[string]string, error) {
	c := r.content()
	out := make(map[string]string, len(hashes))
	var missing []string
	for _, h := range hashes {
		if body, ok := c.bodies.Get(h); ok || h == "" {
			out[h] = body
		} else {
			missing = append(missing, h)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	data, err := r.fetchObjects(ctx, missing)
	if err != nil {
		return nil, err
	}
	for _, h := range missing {
		b, ok := data[h]
		if !ok {
			return nil, fmt.Errorf("page body %s is missing from the content store", h)
		}
		c.bodies.Add(h, string(b))
		out[h] = string(b)
	}
	return out, nil
}

// PageBody returns one page's stored Markdown body (without its title and front matter).
func (r *Resolver) PageBody(ctx context.Context, p *tree.Page) (string, error) {
	bodies, err := r.pageBodies(ctx, []string{p.Body})
	return bodies[p.Body], err
}

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
func (r *Resolver) writeRevision(ctx context.Context, tx *ent.Tx, nr newRevision) (*ent.Revision, error) {
	root, nodes, err := r.content().trees.Save(ctx, nr.baseRoot, nr.tree, nr.changed)
	if err != nil {
		return nil, err
	}
	if err := insertObjects(ctx, tx, objectCreates(tx, nodes, nr.bodies)); err != nil {
		return nil, err
	}
	if err := bodylinks.Store(ctx, tx, nr.bodies); err != nil {
		return nil, err
	}
	if err := r.storeBlobs(ctx, tx, nr.blobs); err != nil {
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
	for chunk := range chunks(objects, objectBatch/5) {
		err := tx.ContentObject.CreateBulk(chunk...).OnConflictColumns(contentobject.FieldID).DoNothing().Exec(ctx)
		if err != nil && !isNoRows(err) {
			return err
		}
	}
	return nil
}

// storeBlobs writes file bytes to the blob store and records them.
func (r *Resolver) storeBlobs(ctx context.Context, tx *ent.Tx, blobs []edit.Blob) error {
	if len(blobs) == 0 {
		return nil
	}
	if r.Blobs == nil {
		return fmt.Errorf("no blob store is configured")
	}
	rows := make([]*ent.FileBlobCreate, 0, len(blobs))
	stored := make(map[string]bool, len(blobs))
	for _, b := range blobs {
		if stored[b.Hash] { // equal files of one batch: PostgreSQL's upsert takes a row once
			continue
		}
		stored[b.Hash] = true
		if err := r.putBlob(ctx, tx, b); err != nil {
			return fmt.Errorf("store file bytes: %w", err)
		}
		rows = append(rows, tx.FileBlob.Create().SetID(b.Hash).SetSize(int64(len(b.Data))).SetTracked(true))
	}
	for chunk := range chunks(rows, objectBatch/5) {
		// Ignore, not DoNothing: a row stored before is locked to the end of the transaction, so
		// a purge removing it waits and then sees this revision's SpaceBlob row (internal/sweep).
		err := tx.FileBlob.CreateBulk(chunk...).OnConflictColumns(fileblob.FieldID).Ignore().Exec(ctx)
		if err != nil && !isNoRows(err) {
			return err
		}
	}
	return nil
}

// putBlob writes file bytes in tx when the blob store lives in the database, else beside it.
func (r *Resolver) putBlob(ctx context.Context, tx *ent.Tx, b edit.Blob) error {
	if in, ok := r.Blobs.(blobs.TxStore); ok {
		return in.PutIn(ctx, tx, b.Hash, b.Data)
	}
	return r.Blobs.Put(ctx, b.Hash, b.Data)
}

// contentState is what the Resolver keeps for contents(): built on first use.
type contentState struct {
	contentOnce  sync.Once
	contentStore *contents
}

// copyContent stores a copy of a space's active content whose pages and files have new ids (the
// links between them follow) and returns its root tree. Bodies and file bytes are shared where
// they do not change; the objects are stored in their own transaction, which content addressing
// makes safe to leave behind should the copy fail later.
func (r *Resolver) copyContent(ctx context.Context, s *ent.Space) (string, error) {
	if s.RevisionID == nil {
		return tree.EmptyRoot, nil
	}
	_, t, err := r.revisionAndTree(ctx, *s.RevisionID)
	if err != nil {
		return "", err
	}
	copied, ids := t.Rekey(id.New)
	bodies, err := r.renameBodies(ctx, copied, ids)
	if err != nil {
		return "", err
	}
	var keys []string
	for _, e := range copied.Entries() {
		keys = append(keys, e.Key())
	}
	root, nodes, err := r.content().trees.Save(ctx, tree.EmptyRoot, copied, keys)
	if err != nil {
		return "", err
	}
	return root, txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if err := insertObjects(ctx, tx, objectCreates(tx, nodes, bodies)); err != nil {
			return err
		}
		return bodylinks.Store(ctx, tx, bodies)
	})
}

// renameBodies rewrites the links of the pages of a copied tree to the copies' ids, in place, and
// returns the bodies that changed by their new hash.
func (r *Resolver) renameBodies(ctx context.Context, copied *tree.Tree, ids map[string]string) (map[string]string, error) {
	var hashes []string
	copied.Walk(func(p *tree.Page, _ string) { hashes = append(hashes, p.Body) })
	texts, err := r.pageBodies(ctx, hashes)
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
	return made, nil
}
