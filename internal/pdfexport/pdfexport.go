// Package pdfexport exports a change request's pages as one PDF through a signed link: a reader
// of the change request gets a link (Link) that works without a bearer token for an hour, as the
// reference says, and whoever holds it gets the PDF of the pages as they were when the link was
// made (Write), rendered by internal/content/pdf.
package pdfexport

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
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/pdf"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/signedurl"
)

// ttl is how long a PDF link works.
const ttl = time.Hour

// Exporter makes and serves the PDF links of one server.
type Exporter struct {
	Client *ent.Client
	Signer signedurl.Signer
	// Tree is the page tree of a revision, read as ctx's viewer. Returns NOT_FOUND for a revision
	// they cannot read.
	Tree func(ctx context.Context, revisionID string) (*tree.Tree, error)
	// Bodies returns page bodies by hash ("" maps to "").
	Bodies func(ctx context.Context, hashes []string) (map[string]string, error)
	// Placed returns a page's body with the reusable contents of t it places put in; called only
	// for bodies that may place some (document.MayPlace). Nil prints bodies as stored.
	Placed func(ctx context.Context, t *tree.Tree, p *tree.Page) (string, error)
}

// Link returns a link that serves a PDF of a change request the viewer read, its pages as they
// are now: all of them, one page with its subpages (pageID), or that page alone (pageID and
// only). Any reader may export it. Returns INVALID for only without a page, NOT_FOUND for a page
// the change request does not have.
func (e Exporter) Link(ctx context.Context, cr *ent.ChangeRequest, pageID string, only bool) (string, error) {
	if only && pageID == "" {
		return "", apperr.Invalidf("page: is required with only=true")
	}
	if pageID != "" {
		t, err := e.Tree(ctx, cr.RevisionID)
		if err != nil {
			return "", err
		}
		if t.Page(pageID) == nil {
			return "", apperr.NotFoundf("no page %q in change request #%d", pageID, cr.Number)
		}
	}
	subject := strings.Join([]string{cr.ID, cr.RevisionID, pageID, fmt.Sprint(only)}, "/")
	return e.Signer.Sign(ctx, signedurl.PDFExport, subject, ttl)
}

// Write renders the PDF a link of Link names (its token). The link is the authority (it was
// issued to a reader), so the content is read by the system viewer. Returns NOT_FOUND for a token
// this server did not sign, FORBIDDEN for an expired one.
func (e Exporter) Write(ctx context.Context, token string, w io.Writer) error {
	subject, err := e.Signer.Verify(ctx, signedurl.PDFExport, token)
	if err != nil {
		return err
	}
	parts := strings.Split(subject, "/")
	if len(parts) != 4 {
		return apperr.NotFoundf("no such link")
	}
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	doc, err := e.document(sys, parts[0], parts[1], parts[2], parts[3] == "true")
	if err != nil {
		return err
	}
	return pdf.Render(w, doc)
}

// document gathers the pages to print, in tree order, with their bodies.
func (e Exporter) document(ctx context.Context, crID, revisionID, pageID string, only bool) (pdf.Document, error) {
	cr, err := e.Client.ChangeRequest.Query().Where(changerequest.ID(crID)).WithSpace().Only(ctx)
	if ent.IsNotFound(err) {
		return pdf.Document{}, apperr.NotFoundf("change request not found")
	}
	if err != nil {
		return pdf.Document{}, err
	}
	t, err := e.Tree(ctx, revisionID)
	if err != nil {
		return pdf.Document{}, err
	}
	pages := pagesToPrint(t, pageID, only)
	hashes := make([]string, len(pages))
	for i, p := range pages {
		hashes[i] = p.page.Body
	}
	bodies, err := e.Bodies(ctx, hashes)
	if err != nil {
		return pdf.Document{}, err
	}
	doc := pdf.Document{Title: title(cr)}
	for _, p := range pages {
		md := bodies[p.page.Body]
		if e.Placed != nil && document.MayPlace(md) {
			if md, err = e.Placed(ctx, t, p.page); err != nil {
				return pdf.Document{}, err
			}
		}
		doc.Pages = append(doc.Pages, pdf.Page{Title: p.page.Title, Depth: p.depth, Markdown: md})
	}
	return doc, nil
}

func title(cr *ent.ChangeRequest) string {
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
