package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/pdfexport"
)

// PDFExport makes and serves the PDF links of change requests, reading as ctx's viewer.
func (r *Resolver) PDFExport() pdfexport.Exporter {
	return pdfexport.Exporter{Client: r.Client, Signer: r.signer(), Bodies: r.content().Bodies,
		Placed: r.content().PlacedMarkdown,
		Tree: func(ctx context.Context, revisionID string) (*tree.Tree, error) {
			_, t, err := r.content().RevisionAndTree(ctx, revisionID)
			return t, err
		}}
}

// ChangeRequestPDF is getChangeRequestPDF: the PDF link of a change request (id or number) of a
// space the viewer reads.
func (r *Resolver) ChangeRequestPDF(ctx context.Context, spaceID, crRef string, page *string, only *bool) (string, error) {
	cr, err := r.spaceChangeRequest(ctx, spaceID, crRef)
	if err != nil {
		return "", err
	}
	return r.changeRequestPDF(ctx, cr, page, only)
}

// changeRequestPDF is ChangeRequest.pdf (pdfexport.Exporter.Link).
func (r *Resolver) changeRequestPDF(ctx context.Context, cr *ent.ChangeRequest, page *string, only *bool) (string, error) {
	return r.PDFExport().Link(ctx, cr, derefOr(page, ""), derefOr(only, false))
}
