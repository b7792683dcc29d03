package gitsync

import (
	"context"
	"maps"
	"path"
	"slices"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/gitcommit"
	"github.com/binderyhq/bindery/ent/gitpage"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/internal/txn"
)

// Blob is where a page or a file is in a commit (the reference's GitSyncBlob): the path of its
// Markdown file or asset from the top of the repository and the hash of that file's blob.
type Blob struct {
	Oid  string
	Path string
}

// pageBatch is how many git_pages rows one statement writes or names.
const pageBatch = 1000

// pageBlobs pairs the pages' paths (page id → path) with the blobs of a commit's files (path →
// hash): a page whose file the commit lacks has none.
func pageBlobs(paths, blobs map[string]string) map[string]Blob {
	out := make(map[string]Blob, len(paths))
	for id, p := range paths {
		if oid, ok := blobs[p]; ok {
			out[id] = Blob{Oid: oid, Path: p}
		}
	}
	return out
}

// underFolder is the paths (relative to the folder root) from the top of the repository.
func underFolder(root string, paths map[string]string) map[string]string {
	if root == "" {
		return paths
	}
	out := make(map[string]string, len(paths))
	for id, p := range paths {
		out[id] = path.Join(root, p)
	}
	return out
}

// nextSeq is the number of the space's next synced commit, the space's row locked in tx so that
// two recordings (a sync job and a standalone import) do not take the same.
func nextSeq(ctx context.Context, tx *ent.Tx, spaceID string) (int64, error) {
	if _, err := tx.Space.Query().Where(space.ID(spaceID)).Modify(txn.ForUpdate).IDs(ctx); err != nil {
		return 0, err
	}
	var last []struct {
		Max sql.NullInt64 `json:"max"`
	}
	err := tx.GitCommit.Query().Where(gitcommit.SpaceID(spaceID)).Aggregate(ent.Max(gitcommit.FieldSeq)).Scan(ctx, &last)
	if err != nil || len(last) == 0 {
		return 1, err
	}
	return last[0].Max.Int64 + 1, nil
}

// recordPages records where the pages are in the space's synced commit numbered seq: the runs
// of the pages whose file or blob differ from the space's last synced commit (or that it lacks)
// end, and new ones start; a page left as it was keeps its run, so a one-page change writes two
// rows whatever the size of the space.
func recordPages(ctx context.Context, tx *ent.Tx, spaceID, orgID string, seq int64, pages map[string]Blob) error {
	open, err := tx.GitPage.Query().Where(gitpage.SpaceID(spaceID), gitpage.ToSeqIsNil()).
		Select(gitpage.FieldID, gitpage.FieldPageID, gitpage.FieldPath, gitpage.FieldOid).All(ctx)
	if err != nil {
		return err
	}
	fresh := maps.Clone(pages) // the pages whose run starts at seq
	var ended []string
	for _, row := range open {
		if b, ok := fresh[row.PageID]; ok && b == (Blob{Oid: row.Oid, Path: row.Path}) {
			delete(fresh, row.PageID)
			continue
		}
		ended = append(ended, row.ID)
	}
	for chunk := range slices.Chunk(ended, pageBatch) {
		if err := tx.GitPage.Update().Where(gitpage.IDIn(chunk...)).SetToSeq(seq).Exec(ctx); err != nil {
			return err
		}
	}
	creates := make([]*ent.GitPageCreate, 0, len(fresh))
	for _, id := range slices.Sorted(maps.Keys(fresh)) {
		b := fresh[id]
		creates = append(creates, tx.GitPage.Create().SetSpaceID(spaceID).SetOrganizationID(orgID).SetPageID(id).
			SetPath(b.Path).SetOid(b.Oid).SetFromSeq(seq))
	}
	for chunk := range slices.Chunk(creates, pageBatch) {
		if err := tx.GitPage.CreateBulk(chunk...).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// HasPages reports whether the pages of a revision have git blobs: it went with a commit whose
// pages were recorded. Once true it stays true, and the blobs never change.
func HasPages(ctx context.Context, client *ent.Client, revisionID string) (bool, error) {
	c, err := syncedCommit(ctx, client, revisionID)
	return c != nil, err
}

// syncedCommit is the commit a revision went with, its pages recorded (numbered, and not
// pending: decision 584); nil for none.
func syncedCommit(ctx context.Context, client *ent.Client, revisionID string) (*ent.GitCommit, error) {
	c, err := client.GitCommit.Query().Where(gitcommit.RevisionID(revisionID), gitcommit.SeqNotNil(), gitcommit.PagesPending(false)).
		Select(gitcommit.FieldSpaceID, gitcommit.FieldSeq).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return c, err
}

// PagesOf is where pages and files of a revision are in the commit the revision went with
// (ContentPage.git, RevisionFile.git), by id: pageIDs' (nil for every page and file of the
// revision). Empty when the revision went with
// no commit. The viewer's read of the revision decided the access already; the rows' policy
// repeats it.
func PagesOf(ctx context.Context, client *ent.Client, revisionID string, pageIDs []string) (map[string]Blob, error) {
	c, err := syncedCommit(ctx, client, revisionID)
	if c == nil || err != nil {
		return map[string]Blob{}, err
	}
	at := []predicate.GitPage{gitpage.SpaceID(c.SpaceID), gitpage.FromSeqLTE(*c.Seq),
		gitpage.Or(gitpage.ToSeqIsNil(), gitpage.ToSeqGT(*c.Seq))}
	out := map[string]Blob{}
	read := func(where ...predicate.GitPage) error {
		rows, err := client.GitPage.Query().Where(append(at, where...)...).
			Select(gitpage.FieldPageID, gitpage.FieldPath, gitpage.FieldOid).All(ctx)
		for _, row := range rows {
			out[row.PageID] = Blob{Oid: row.Oid, Path: row.Path}
		}
		return err
	}
	if pageIDs == nil {
		return out, read()
	}
	for chunk := range slices.Chunk(pageIDs, pageBatch) {
		if err := read(gitpage.PageIDIn(chunk...)); err != nil {
			return nil, err
		}
	}
	return out, nil
}
