package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// contentBatchBody is the body of updateChangeRequestContent.
type contentBatchBody struct {
	Changes []contentChange `json:"changes"`
}

// contentChange is one ChangeRequestContentChange of the reference client.
type contentChange struct {
	Operation   string           `json:"operation" doc:"The reference's operations, and Bindery's insert_reusable_content, update_reusable_content and delete_reusable_content (title and document only)."`
	Page        string           `json:"page"`
	Ref         string           `json:"ref"`
	Into        nullable[string] `json:"into"`
	At          *int             `json:"at"`
	Title       *string          `json:"title" doc:"The page's title (1..256 characters, trimmed). It wins over a leading heading of document.markdown: a heading that repeats it (letter case aside) is dropped from the body, any other stays in the body. A title in the Markdown's front matter wins over it. An inserted page without any is Untitled."`
	Slug        *string          `json:"slug"`
	Emoji       *string          `json:"emoji"`
	Description *string          `json:"description" doc:"The page's description; a description in the Markdown's front matter wins over it."`
	Hidden      *bool            `json:"hidden"`
	NoIndex     *bool            `json:"noIndex"`
	Condition   *string          `json:"condition"`
	Document    *document        `json:"document" doc:"The page as document.markdown or as document.document (the reference's JSON document). Markdown's front matter (title, description) sets those fields; without a title (neither the change's nor the front matter's) a leading level-1 heading is the title and leaves the body. A JSON document is the body alone; one holding a node Bindery does not support, or that its Markdown would not keep, is refused naming the node's path."`
	Files       []fileUpload     `json:"files"`
	Revision    string           `json:"revision"`
	Block       []string         `json:"block"`

	// ReusableContent is Bindery's: the reusable content an update_reusable_content or
	// delete_reusable_content changes (its id, or the ref of one inserted earlier in the batch).
	ReusableContent string `json:"reusableContent" doc:"Bindery's: the reusable content updated or deleted, by id or by the ref an insert_reusable_content of the batch gave it."`
}

// document is a page Document: Markdown, or the reference's JSON document.
type document struct {
	Markdown *string         `json:"markdown"`
	Document json.RawMessage `json:"document"`
}

// fileUpload is a file of an insert_files change.
type fileUpload struct {
	Ref         string  `json:"ref"`
	Name        string  `json:"name"`
	ContentType string  `json:"contentType"`
	Base64      *string `json:"base64"`
	URL         *string `json:"url"`
}

// inputs converts the body to the batch's changes, naming the change of any bad field.
func (b contentBatchBody) inputs() ([]*model.ContentChangeInput, error) {
	in := make([]*model.ContentChangeInput, len(b.Changes))
	for i, c := range b.Changes {
		var err error
		if in[i], err = c.input(); err != nil {
			return nil, apperr.Invalidf("changes[%d].%v", i, err)
		}
	}
	return in, nil
}

// input is the change in the GraphQL input form both surfaces convert from.
func (c contentChange) input() (*model.ContentChangeInput, error) {
	in := &model.ContentChangeInput{Operation: model.ContentOperation(c.Operation), Page: &c.Page,
		ReusableContent: &c.ReusableContent, Ref: &c.Ref,
		At: c.At, Title: c.Title, Slug: c.Slug, Emoji: c.Emoji, Description: c.Description, Hidden: c.Hidden,
		NoIndex: c.NoIndex, Condition: c.Condition, Revision: &c.Revision}
	if c.Into.Set {
		in.Into = graphql.OmittableOf(c.Into.Value)
	}
	if len(c.Block) > 0 {
		return nil, fmt.Errorf("block: reverting single blocks is not supported; revert the whole page")
	}
	if err := c.Document.into(in, c.Operation); err != nil {
		return nil, err
	}
	for i, f := range c.Files {
		if f.URL != nil {
			return nil, fmt.Errorf("files[%d].url: fetching files by URL is not supported; send the bytes as base64", i)
		}
		if f.Base64 == nil {
			return nil, fmt.Errorf("files[%d].base64: is required", i)
		}
		in.Files = append(in.Files, &model.FileUploadInput{Ref: &f.Ref, Name: f.Name, ContentType: f.ContentType, Base64: *f.Base64})
	}
	return in, nil
}

// into sets the page body a Document carries: its Markdown, or its JSON document, which graph
// encodes (nil for no document, required to insert a page; "" for the empty document).
func (d *document) into(in *model.ContentChangeInput, op string) error {
	switch {
	case d == nil && op == edit.OpInsertPage:
		return fmt.Errorf("document: is required to insert a page")
	case d == nil:
		return nil
	case len(d.Document) > 0 && d.Markdown != nil:
		return fmt.Errorf("document: give markdown or document, not both")
	case len(d.Document) > 0:
		in.Document = d.Document
	case d.Markdown == nil:
		empty := ""
		in.Markdown = &empty
	default:
		in.Markdown = d.Markdown
	}
	return nil
}

// postChangeRequestContent is updateChangeRequestContent: with compat=false (the reference's
// coming default) it answers the change request with the pages touched and files inserted; with
// compat=true (today's default) the change request alone.
func (a *api) postChangeRequestContent(w http.ResponseWriter, r *http.Request) {
	compat, err := query{r}.boolean("compat")
	if err != nil {
		writeError(w, r, err)
		return
	}
	var body contentBatchBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	changes, err := body.inputs()
	if err != nil {
		writeError(w, r, err)
		return
	}
	out, err := a.r.Mutation().EditChangeRequestContent(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"), changes)
	respondWith(w, r, http.StatusOK, out, err, func(ctx context.Context, u *model.ContentUpdate) (any, error) {
		return a.contentUpdateWire(ctx, u, compat == nil || *compat)
	})
}

// mergeResult is the answer of merge and update. Conflicts are not in the reference client,
// which names only the result; they are listed so a person knows which pages to resolve.
type mergeResult struct {
	Revision  string                 `json:"revision"`
	Result    string                 `json:"result"`
	Conflicts []*model.MergeConflict `json:"conflicts,omitempty"`
}

func (a *api) mergeChangeRequest(w http.ResponseWriter, r *http.Request) {
	out, err := a.r.Mutation().MergeChangeRequest(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"))
	respondWith(w, r, http.StatusOK, out, err, mergeResultWire)
}

func (a *api) updateChangeRequestFromMain(w http.ResponseWriter, r *http.Request) {
	out, err := a.r.Mutation().UpdateChangeRequestFromMain(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"))
	respondWith(w, r, http.StatusOK, out, err, mergeResultWire)
}

func mergeResultWire(_ context.Context, m *model.MergeResult) (mergeResult, error) {
	return mergeResult{Revision: m.Revision, Result: m.Result, Conflicts: m.Conflicts}, nil
}

// contentUpdate is ChangeRequestContentUpdate, the compat=false answer of a content batch.
type contentUpdate struct {
	ChangeRequest ChangeRequest       `json:"changeRequest"`
	Changes       []contentPageChange `json:"changes"`
	InsertedFiles []RevisionFile      `json:"insertedFiles"`
	// ReusableContents is Bindery's: the reusable contents the batch touched.
	ReusableContents []reusableContentChange `json:"reusableContents,omitempty"`
}

// reusableContentChange is a reusable content a batch created, updated or deleted.
type reusableContentChange struct {
	Object          string `json:"object" doc:"created_reusable_content, updated_reusable_content or deleted_reusable_content"`
	Ref             string `json:"ref,omitempty"`
	ReusableContent string `json:"reusableContent"`
}

// contentPageChange is a created_page, updated_page (page is a reference with its location) or
// deleted_page (page is the id).
type contentPageChange struct {
	Object string `json:"object"`
	Ref    string `json:"ref,omitempty"`
	Page   any    `json:"page"`
}

type pageRef struct {
	Object string       `json:"object"`
	ID     string       `json:"id"`
	URLs   locationURLs `json:"urls"`
}

type locationURLs struct {
	Location string `json:"location"`
}

// contentUpdateWire is the change request (compat) or the change request with the pages touched
// and the files inserted.
func (a *api) contentUpdateWire(ctx context.Context, u *model.ContentUpdate, compat bool) (any, error) {
	cr, err := a.changeRequest(ctx, u.ChangeRequest)
	if err != nil || compat {
		return cr, err
	}
	out := contentUpdate{ChangeRequest: cr, Changes: []contentPageChange{}, InsertedFiles: []RevisionFile{}}
	for _, c := range u.Changes {
		change := contentPageChange{Object: c.Kind, Page: c.PageID}
		if c.Ref != nil {
			change.Ref = *c.Ref
		}
		if c.Kind != "deleted_page" {
			change.Page = pageRef{Object: "page", ID: c.PageID,
				URLs: locationURLs{Location: a.changeRequestLocation(u.ChangeRequest) + "/content/page/" + c.PageID}}
		}
		out.Changes = append(out.Changes, change)
	}
	for _, f := range u.InsertedFiles {
		file := &tree.File{ID: f.ID, Name: f.Name, ContentType: f.ContentType, Size: int64(f.Size), Blob: f.Blob}
		wire, err := a.revisionFile(ctx, u.Revision.ID, file)
		if err != nil {
			return nil, err
		}
		out.InsertedFiles = append(out.InsertedFiles, wire)
	}
	for _, c := range u.ReusableContentChanges {
		change := reusableContentChange{Object: c.Kind, ReusableContent: c.ReusableContentID}
		if c.Ref != nil {
			change.Ref = *c.Ref
		}
		out.ReusableContents = append(out.ReusableContents, change)
	}
	return out, nil
}

// changeRequestPDF answers getChangeRequestPDF: a link to the PDF, valid for an hour.
func (a *api) changeRequestPDF(w http.ResponseWriter, r *http.Request) {
	q := query{r}
	only, err := q.boolean("only")
	if err != nil {
		writeError(w, r, err)
		return
	}
	url, err := a.r.ChangeRequestPDF(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"), q.str("page"), only)
	respond(w, r, http.StatusOK, map[string]string{"url": url}, err)
}

// servePDF renders the PDF a signed link names. It renders into memory first, so a failure is a
// JSON error rather than half a document.
func (a *api) servePDF(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	if err := a.r.PDFExport().Write(r.Context(), chi.URLParam(r, "token"), &buf); err != nil {
		writeError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", `inline; filename="change-request.pdf"`)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	_, _ = buf.WriteTo(w)
}
