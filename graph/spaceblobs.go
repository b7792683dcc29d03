package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/spaceblob"
	"github.com/binderyhq/bindery/internal/content/tree"
)

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
	for chunk := range chunks(rows, objectBatch/5) {
		err := tx.SpaceBlob.CreateBulk(chunk...).OnConflictColumns(spaceblob.FieldSpaceID, spaceblob.FieldBlobID).DoNothing().Exec(ctx)
		if err != nil && !isNoRows(err) {
			return err
		}
	}
	return nil
}
