package graph

import (
	"context"
	"encoding/base64"

	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/content/revisions"
)

// importContent imports a website or uploaded Markdown into a space's main content
// (revisions.Service.ImportIntoSpace). Returns INVALID for a bad input, a refused address or a
// site that cannot be fetched.
func (r *Resolver) importContent(ctx context.Context, spaceID string, in model.ContentImportInput) (*model.ContentImport, error) {
	svc := r.revisions()
	return contentImport(svc.ImportIntoSpace(ctx, spaceID, importSource(svc, in)))
}

// importChangeRequestContent imports a website or uploaded Markdown into a change request
// (revisions.Service.ImportIntoChangeRequest).
func (r *Resolver) importChangeRequestContent(ctx context.Context, spaceID, crRef string, in model.ContentImportInput) (*model.ContentImport, error) {
	svc := r.revisions()
	return contentImport(svc.ImportIntoChangeRequest(ctx, spaceID, crRef, importSource(svc, in)))
}

func contentImport(i *revisions.Imported, err error) (*model.ContentImport, error) {
	if err != nil {
		return nil, err
	}
	out := &model.ContentImport{Revision: i.Revision, ImportedResources: i.ImportedResources, TotalResources: i.TotalResources,
		Dialect: model.ContentImportDialect(i.Dialect)}
	for _, r := range i.Report {
		out.Report = append(out.Report, &model.ContentImportFileReport{Path: r.Path, Result: model.ContentImportFileResult(r.Result),
			Converted: r.Converted, Warnings: r.Warnings})
	}
	return out, nil
}

// importSource gathers the content an import brings in: a website crawled, or uploaded Markdown
// read.
func importSource(svc *revisions.Service, in model.ContentImportInput) revisions.Gather {
	return func(ctx context.Context) (*revisions.Source, error) {
		switch in.Source {
		case model.ContentImportSourceWebsite:
			if in.Files != nil || in.Zip != nil {
				return nil, apperr.Invalidf("files, zip: only with source markdown")
			}
			return svc.Website(ctx, derefOr(in.URL, ""))
		case model.ContentImportSourceMarkdown:
			if in.URL != nil {
				return nil, apperr.Invalidf("url: only with source website")
			}
			return markdownUpload(in.Files, in.Zip)
		}
		return nil, apperr.Invalidf("source: %q is not one of website, markdown", in.Source)
	}
}

// markdownUpload reads uploaded Markdown: a list of files or a zip archive, both in base64.
func markdownUpload(files []*model.ImportFileInput, zip *string) (*revisions.Source, error) {
	if (files == nil) == (zip == nil) {
		return nil, apperr.Invalidf("files, zip: source markdown takes one of them")
	}
	var uploads []importer.Upload
	field := "files"
	if zip != nil {
		field = "zip"
		data, err := base64.StdEncoding.DecodeString(*zip)
		if err != nil {
			return nil, apperr.Invalidf("zip: is not valid base64 (%v)", err)
		}
		if uploads, err = importer.Unzip(data); err != nil {
			return nil, apperr.Invalidf("zip: %v", err)
		}
	}
	for i, f := range files {
		data, err := base64.StdEncoding.DecodeString(f.Base64)
		if err != nil {
			return nil, apperr.Invalidf("files[%d].base64: is not valid base64 (%v)", i, err)
		}
		uploads = append(uploads, importer.Upload{Path: f.Path, Data: data})
	}
	return revisions.Markdown(field, uploads)
}
