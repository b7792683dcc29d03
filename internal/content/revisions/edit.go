package revisions

import (
	"context"
	"errors"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/id"
)

// Edited is what a content batch did: the change request's new revision, the change request as
// it is after it, and the pages, files and reusable contents the batch touched.
type Edited struct {
	ChangeRequest *ent.ChangeRequest
	Revision      *ent.Revision
	Pages         []edit.Affected
	InsertedFiles []*tree.File
	Reusables     []edit.Affected
}

// EditChangeRequest applies a batch of content changes to a change request (by id or number) as
// one new revision of it. It takes the edit role on the space; a locked space refuses it (403), a
// merged or archived change request too (400), an invalid change is INVALID naming its index.
func (svc *Service) EditChangeRequest(ctx context.Context, spaceID, crRef string, changes []edit.Change) (*Edited, error) {
	var out Edited
	cr, err := svc.inLockedContent(ctx, spaceID, crRef, viewer.RoleEdit, "edit its content", func(tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) error {
		rev, base, err := svc.Contents.RevisionAndTree(ctx, cr.RevisionID)
		if err != nil {
			return err
		}
		o, err := edit.Apply(base, changes, svc.editEnv(ctx, s, cr))
		if err != nil {
			return batchError(err)
		}
		out.Revision, err = svc.writeRevision(ctx, tx, newRevision{space: s, changeRequest: &cr.ID,
			kind: revision.TypeEdits, parents: []string{rev.ID}, baseRoot: rev.RootTree, tree: o.Tree,
			changed: o.Changed, bodies: o.Bodies, blobs: o.Blobs})
		if err != nil {
			return err
		}
		out.Pages, out.InsertedFiles, out.Reusables = o.Pages, o.Files, o.Reusables
		return tx.ChangeRequest.UpdateOneID(cr.ID).SetRevisionID(out.Revision.ID).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	out.ChangeRequest, err = svc.Client.ChangeRequest.Get(ctx, cr.ID)
	return &out, err
}

// batchError turns an invalid change into a bad request naming its index.
func batchError(err error) error {
	var invalid *edit.Error
	if errors.As(err, &invalid) {
		return apperr.Invalidf("%s", invalid.Error())
	}
	return err
}

// editEnv is what a batch on the change request needs: the clock, ids, and the trees of the
// space's revisions for revert_page (by default the change request's base).
func (svc *Service) editEnv(ctx context.Context, s *ent.Space, cr *ent.ChangeRequest) edit.Env {
	return edit.Env{
		Now:   svc.Now(ctx),
		NewID: id.New,
		Version: func(revisionID string) (*tree.Tree, error) {
			if revisionID == "" {
				revisionID = ChangeRequestBase(cr)
			}
			rev, err := svc.Client.Revision.Query().Where(revision.ID(revisionID), revision.SpaceID(s.ID)).Only(ctx)
			if err != nil {
				return nil, errors.New("no revision " + revisionID + " in the space")
			}
			return svc.Contents.Tree(ctx, rev)
		},
	}
}
