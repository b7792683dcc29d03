package graph

import (
	"context"
	"encoding/base64"
	"errors"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/txn"
)

// editChangeRequestContent applies a batch of content changes to a change request as one new
// revision of it. It takes the edit role on the space; a locked space refuses it.
func (r *Resolver) editChangeRequestContent(ctx context.Context, spaceID, crRef string, in []*model.ContentChangeInput) (*model.ContentUpdate, error) {
	changes, err := changesFromInput(in)
	if err != nil {
		return nil, err
	}
	var out model.ContentUpdate
	cr, err := r.inLockedContent(ctx, spaceID, crRef, viewer.RoleEdit, "edit its content", func(tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) error {
		rev, base, err := r.changeRequestTree(ctx, cr)
		if err != nil {
			return err
		}
		o, err := edit.Apply(base, changes, r.editEnv(ctx, s, cr))
		if err != nil {
			return batchError(err)
		}
		out.Revision, err = r.writeRevision(ctx, tx, newRevision{space: s, changeRequest: &cr.ID,
			kind: revision.TypeEdits, parents: []string{rev.ID}, baseRoot: rev.RootTree, tree: o.Tree,
			changed: o.Changed, bodies: o.Bodies, blobs: o.Blobs})
		if err != nil {
			return err
		}
		out.Changes, out.InsertedFiles = pageChanges(o.Pages), insertedFiles(o.Files)
		return tx.ChangeRequest.UpdateOneID(cr.ID).SetRevisionID(out.Revision.ID).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	out.ChangeRequest, err = r.Client.ChangeRequest.Get(ctx, cr.ID)
	return &out, err
}

func pageChanges(pages []edit.Affected) []*model.ContentPageChange {
	out := make([]*model.ContentPageChange, len(pages))
	for i, p := range pages {
		out[i] = &model.ContentPageChange{Kind: p.Kind, PageID: p.ID}
		if p.Ref != "" {
			out[i].Ref = &p.Ref
		}
	}
	return out
}

func insertedFiles(files []*tree.File) []*model.InsertedFile {
	out := make([]*model.InsertedFile, len(files))
	for i, f := range files {
		out[i] = &model.InsertedFile{ID: f.ID, Name: f.Name, ContentType: f.ContentType, Size: int(f.Size), Blob: f.Blob}
	}
	return out
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
func (r *Resolver) editEnv(ctx context.Context, s *ent.Space, cr *ent.ChangeRequest) edit.Env {
	return edit.Env{
		Now:   r.now(ctx),
		NewID: id.New,
		Version: func(revisionID string) (*tree.Tree, error) {
			if revisionID == "" {
				revisionID = changeRequestBase(cr)
			}
			rev, err := r.Client.Revision.Query().Where(revision.ID(revisionID), revision.SpaceID(s.ID)).Only(ctx)
			if err != nil {
				return nil, errors.New("no revision " + revisionID + " in the space")
			}
			return r.revisionTree(ctx, rev)
		},
	}
}

// changeRequestBase is the space revision a change request's content was last based on: the
// revision it last pulled in by an update, else the one it was created from.
func changeRequestBase(cr *ent.ChangeRequest) string {
	if cr.RevisionMergedAncestorID != nil {
		return *cr.RevisionMergedAncestorID
	}
	return cr.RevisionInitialID
}

// changeRequestTree returns a change request's active revision and its tree.
func (r *Resolver) changeRequestTree(ctx context.Context, cr *ent.ChangeRequest) (*ent.Revision, *tree.Tree, error) {
	return r.revisionAndTree(ctx, cr.RevisionID)
}

func (r *Resolver) revisionAndTree(ctx context.Context, revisionID string) (*ent.Revision, *tree.Tree, error) {
	rev, err := r.Client.Revision.Get(ctx, revisionID)
	if err != nil {
		return nil, nil, notFound(err, "revision")
	}
	t, err := r.revisionTree(ctx, rev)
	return rev, t, err
}

// contentTarget finds a change request to change the content of: the space must be readable
// (else 404) and the viewer's role on it at least min (else 403, saying what for).
func (r *Resolver) contentTarget(ctx context.Context, spaceID, crRef string, min viewer.Role, what string) (*ent.Space, *ent.ChangeRequest, error) {
	s, err := r.space(ctx, spaceID)
	if err != nil {
		return nil, nil, err
	}
	cr, err := r.changeRequest(ctx, s.ID, crRef)
	if err != nil {
		return nil, nil, err
	}
	return s, cr, rule.RequireSpaceRole(ctx, s, min, what)
}

// inLockedContent runs fn in a transaction on a change request the viewer may work on with role
// min (contentTarget), the change request and its space re-read and locked first (lockContent),
// and returns the change request as it was found.
func (r *Resolver) inLockedContent(ctx context.Context, spaceID, crRef string, min viewer.Role, what string,
	fn func(tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) error) (*ent.ChangeRequest, error) {
	s, cr, err := r.contentTarget(ctx, spaceID, crRef, min, what)
	if err != nil {
		return nil, err
	}
	return cr, txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		locked, lockedCR, err := lockContent(ctx, tx, s.ID, cr.ID)
		if err != nil {
			return err
		}
		return fn(tx, locked, lockedCR)
	})
}

// lockContent re-reads a space and one of its change requests in tx, locking both rows on
// PostgreSQL (SQLite's one writer already serializes), so that concurrent batches, updates and
// merges on them queue and each sees the others' results. It refuses a locked space (403) and a
// change request that is merged or archived (400).
func lockContent(ctx context.Context, tx *ent.Tx, spaceID, crID string) (*ent.Space, *ent.ChangeRequest, error) {
	s, err := lockSpace(ctx, tx, spaceID)
	if err != nil {
		return nil, nil, err
	}
	cr, err := tx.ChangeRequest.Query().Where(changerequest.ID(crID)).Modify(txn.ForUpdate).Only(ctx)
	if err != nil {
		return nil, nil, notFound(err, "change request")
	}
	return s, cr, contentEditable(s, cr)
}

// contentEditable refuses content changes to a locked space (403) and to a change request that
// is merged or archived (400); cr is nil for the space's main content.
func contentEditable(s *ent.Space, cr *ent.ChangeRequest) error {
	if s.EditMode == space.EditModeLocked {
		return apperr.Forbiddenf("the space is locked: its content cannot change until an admin sets editMode to live")
	}
	if cr != nil && (cr.Status == changerequest.StatusMerged || cr.Status == changerequest.StatusArchived) {
		return apperr.Invalidf("change request #%d is %s: its content can no longer change", cr.Number, cr.Status)
	}
	return nil
}

// changesFromInput converts the input form of a content batch. File bytes come as base64.
func changesFromInput(in []*model.ContentChangeInput) ([]edit.Change, error) {
	out := make([]edit.Change, len(in))
	for i, c := range in {
		ch := edit.Change{Op: string(c.Operation), Page: derefOr(c.Page, ""), Ref: derefOr(c.Ref, ""), At: c.At,
			IntoSet: c.Into.IsSet(), Version: derefOr(c.Revision, ""),
			Fields: edit.Fields{Title: c.Title, Slug: c.Slug, Emoji: c.Emoji, Description: c.Description,
				Hidden: c.Hidden, NoIndex: c.NoIndex, Condition: c.Condition, Markdown: c.Markdown}}
		if v := c.Into.Value(); v != nil {
			ch.Into = *v
		}
		for j, f := range c.Files {
			data, err := base64.StdEncoding.DecodeString(f.Base64)
			if err != nil {
				return nil, apperr.Invalidf("changes[%d].files[%d].base64: is not valid base64 (%v)", i, j, err)
			}
			ch.Files = append(ch.Files, edit.Upload{Ref: derefOr(f.Ref, ""), Name: f.Name, ContentType: f.ContentType, Data: data})
		}
		out[i] = ch
	}
	return out, nil
}
