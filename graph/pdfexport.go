package graph

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/content/pdf"
	"github.com/binderyhq/bindery/graph/content/tree"
	"github.com/binderyhq/bindery/internal/apperr"
)

// pdfExport is the purpose of a change request's PDF link, valid an hour as the reference says.
var pdfExport = signedPurpose{name: "pdf-export", path: "/pdf/"}

const pdfTTL = time.Hour

// ChangeRequestPDF is getChangeRequestPDF: the PDF link of a change request (id or number) of a
// space the viewer reads.
func (r *Resolver) ChangeRequestPDF(ctx context.Context, spaceID, crRef string, page *string, only *bool) (string, error) {
	cr, err := r.spaceChangeRequest(ctx, spaceID, crRef)
	if err != nil {
		return "", err
	}
	return r.changeRequestPDF(ctx, cr, page, only)
}

// changeRequestPDF returns a link that serves a PDF of a change request the viewer read, its
// pages as they are now: all of them, one page with its subpages (page), or that page alone (page
// and only). Any reader may export it; the link works without a bearer token for an hour.
func (r *Resolver) changeRequestPDF(ctx context.Context, cr *ent.ChangeRequest, page *string, only *bool) (string, error) {
	pageID := derefOr(page, "")
	if derefOr(only, false) && pageID == "" {
		return "", apperr.Invalidf("page: is required with only=true")
	}
	if pageID != "" {
		_, t, err := r.changeRequestTree(ctx, cr)
		if err != nil {
			return "", err
		}
		if t.Page(pageID) == nil {
			return "", apperr.NotFoundf("no page %q in change request #%d", pageID, cr.Number)
		}
	}
	subject := strings.Join([]string{cr.ID, cr.RevisionID, pageID, fmt.Sprint(derefOr(only, false))}, "/")
	return r.signURL(ctx, pdfExport, subject, pdfTTL)
}

// WritePDF renders the PDF a link of changeRequestPDF names. The link is the authority (it was
// issued to a reader), so the content is read by the system viewer.
func (r *Resolver) WritePDF(ctx context.Context, token string, w io.Writer) error {
	subject, err := r.verifySigned(ctx, pdfExport, token)
	if err != nil {
		return err
	}
	parts := strings.Split(subject, "/")
	if len(parts) != 4 {
		return apperr.NotFoundf("no such link")
	}
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	doc, err := r.pdfDocument(sys, parts[0], parts[1], parts[2], parts[3] == "true")
	if err != nil {
		return err
	}
	return pdf.Render(w, doc)
}

// pdfDocument gathers the pages to print, in tree order, with their bodies.
func (r *Resolver) pdfDocument(ctx context.Context, crID, revisionID, pageID string, only bool) (pdf.Document, error) {
	cr, err := r.Client.ChangeRequest.Query().Where(changerequest.ID(crID)).WithSpace().Only(ctx)
	if err != nil {
		return pdf.Document{}, notFound(err, "change request")
	}
	_, t, err := r.revisionAndTree(ctx, revisionID)
	if err != nil {
		return pdf.Document{}, err
	}
	pages := pagesToPrint(t, pageID, only)
	hashes := make([]string, len(pages))
	for i, p := range pages {
		hashes[i] = p.page.Body
	}
	bodies, err := r.pageBodies(ctx, hashes)
	if err != nil {
		return pdf.Document{}, err
	}
	doc := pdf.Document{Title: pdfTitle(cr)}
	for _, p := range pages {
		doc.Pages = append(doc.Pages, pdf.Page{Title: p.page.Title, Depth: p.depth, Markdown: bodies[p.page.Body]})
	}
	return doc, nil
}

func pdfTitle(cr *ent.ChangeRequest) string {
	title := fmt.Sprintf("#%d", cr.Number)
	if cr.Subject != "" {
		title += " " + cr.Subject
	}
	if cr.Edges.Space != nil {
		title = cr.Edges.Space.Title + " — " + title
	}
	return title
}

type printedPage struct {
	page  *tree.Page
	depth int
}

// pagesToPrint is every page in tree order, or the subtree of pageID, or that page alone.
func pagesToPrint(t *tree.Tree, pageID string, only bool) []printedPage {
	var out []printedPage
	t.Walk(func(p *tree.Page, path string) {
		depth := strings.Count(path, "/")
		switch {
		case pageID == "":
			out = append(out, printedPage{p, depth})
		case p.ID == pageID || (!only && t.IsUnder(p.ID, pageID)):
			out = append(out, printedPage{p, depth})
		}
	})
	if len(out) > 0 && pageID != "" { // the chosen page prints as the top level
		top := out[0].depth
		for i := range out {
			out[i].depth -= top
		}
	}
	return out
}
