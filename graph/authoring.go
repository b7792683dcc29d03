package graph

import (
	"context"
	"encoding/base64"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
)

// editChangeRequestContent applies a batch of content changes to a change request as one new
// revision of it (revisions.Service.EditChangeRequest).
func (r *Resolver) editChangeRequestContent(ctx context.Context, spaceID, crRef string, in []*model.ContentChangeInput) (*model.ContentUpdate, error) {
	changes, err := changesFromInput(in)
	if err != nil {
		return nil, err
	}
	e, err := r.revisions().EditChangeRequest(ctx, spaceID, crRef, changes)
	if err != nil {
		return nil, err
	}
	return &model.ContentUpdate{ChangeRequest: e.ChangeRequest, Revision: e.Revision,
		Changes: pageChanges(e.Pages), InsertedFiles: insertedFiles(e.InsertedFiles),
		ReusableContentChanges: reusableContentChanges(e.Reusables)}, nil
}

// mergeChangeRequest merges a change request into its space's content (revisions.Service.Merge).
func (r *Resolver) mergeChangeRequest(ctx context.Context, spaceID, crRef string) (*model.MergeResult, error) {
	return mergeResult(r.revisions().Merge(ctx, spaceID, crRef))
}

// updateChangeRequestFromMain brings the space's current content into a change request
// (revisions.Service.UpdateFromMain).
func (r *Resolver) updateChangeRequestFromMain(ctx context.Context, spaceID, crRef string) (*model.MergeResult, error) {
	return mergeResult(r.revisions().UpdateFromMain(ctx, spaceID, crRef))
}

func mergeResult(m *revisions.MergeResult, err error) (*model.MergeResult, error) {
	if err != nil {
		return nil, err
	}
	return &model.MergeResult{Revision: m.Revision, Result: m.Result, Conflicts: conflictsOf(m.Conflicts)}, nil
}

func conflictsOf(conflicts []tree.Conflict) []*model.MergeConflict {
	out := make([]*model.MergeConflict, len(conflicts))
	for i, c := range conflicts {
		out[i] = &model.MergeConflict{Title: c.Title, Reason: c.Reason}
		if c.Page != "" {
			out[i].Page = &c.Page
		}
		if c.File != "" {
			out[i].File = &c.File
		}
		if c.Reusable != "" {
			out[i].ReusableContent = &c.Reusable
		}
	}
	return out
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

// spaceTarget finds a space to change the content of: it must be readable (else 404) and the
// viewer's role on it at least min (else 403, saying what for).
func (r *Resolver) spaceTarget(ctx context.Context, spaceID string, min viewer.Role, what string) (*ent.Space, error) {
	s, err := r.space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	return s, rule.RequireSpaceRole(ctx, s, min, what)
}

// changesFromInput converts the input form of a content batch. File bytes come as base64.
func changesFromInput(in []*model.ContentChangeInput) ([]edit.Change, error) {
	out := make([]edit.Change, len(in))
	for i, c := range in {
		ch := edit.Change{Op: string(c.Operation), Page: derefOr(c.Page, ""), Reusable: derefOr(c.ReusableContent, ""),
			Ref: derefOr(c.Ref, ""), At: c.At,
			IntoSet: c.Into.IsSet(), Version: derefOr(c.Revision, ""),
			Fields: edit.Fields{Title: c.Title, Slug: c.Slug, Emoji: c.Emoji, Description: c.Description,
				Hidden: c.Hidden, NoIndex: c.NoIndex, Condition: c.Condition, Markdown: c.Markdown}}
		if v := c.Into.Value(); v != nil {
			ch.Into = *v
		}
		if c.Document != nil {
			body, err := document.MarkdownOf(c.Document)
			if err != nil {
				return nil, apperr.Invalidf("changes[%d].document: %v", i, err)
			}
			ch.Fields.Body = &body
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
