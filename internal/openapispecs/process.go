package openapispecs

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/openapispec"
	"github.com/binderyhq/bindery/ent/openapispecversion"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/txn"
)

// Process is the handler of Job: it processes the spec named by the job's key and records the
// outcome — a new version when the content changed, or the error — in one transaction that
// holds the job's lease. With a refresh interval a URL source is due again after it.
func (svc *Service) Process(ctx context.Context, j *jobs.Job) (time.Time, error) {
	s, err := svc.Client.OpenAPISpec.Get(ctx, j.Key)
	if ent.IsNotFound(err) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	if err := svc.Client.OpenAPISpec.UpdateOne(s).SetProcessingState(openapispec.ProcessingStateProgress).Exec(ctx); err != nil {
		return time.Time{}, err
	}
	doc, failure, err := svc.processSource(ctx, s)
	if err != nil {
		return time.Time{}, err
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := j.Hold(ctx, tx); err != nil {
			return err
		}
		cur, err := tx.OpenAPISpec.Get(ctx, s.ID)
		if ent.IsNotFound(err) || err == nil && !sameSource(cur, s) {
			return nil // deleted, or a new source is queued
		}
		if err != nil {
			return err
		}
		return svc.recordProcessing(ctx, tx, cur, doc, failure)
	})
	if err != nil || s.SourceURL == nil || svc.Refresh <= 0 {
		return time.Time{}, err
	}
	return svc.Now(ctx).Add(svc.Refresh), nil
}

// processSource fetches and processes a spec's source. A document that cannot be processed is a
// failure to record; an error is the run's (it was cancelled) and is retried.
func (svc *Service) processSource(ctx context.Context, s *ent.OpenAPISpec) (*openapi.Document, *openapi.Error, error) {
	var doc *openapi.Document
	var err error
	if s.SourceURL != nil {
		doc, err = openapi.FromURL(ctx, svc.Fetcher, *s.SourceURL, svc.Limits)
	} else {
		doc, err = openapi.FromText(ctx, valueOf(s.SourceText), svc.Limits)
	}
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	var failure *openapi.Error
	if errors.As(err, &failure) {
		return nil, failure, nil
	}
	return doc, nil, err
}

// versionURL is where a version's entry document was found, or the spec's source URL when that
// place (after redirects) is longer than a URL may be.
func versionURL(doc *openapi.Document, s *ent.OpenAPISpec) string {
	if len(doc.URL) > sourceMax {
		return valueOf(s.SourceURL)
	}
	return doc.URL
}

// sameSource reports whether two reads of a spec have the same source.
func sameSource(a, b *ent.OpenAPISpec) bool {
	return valueOf(a.SourceURL) == valueOf(b.SourceURL) && string(valueOf(a.SourceText)) == string(valueOf(b.SourceText))
}

// valueOf is the value p points to, the zero value for nil.
func valueOf[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}

// recordProcessing records a processing's outcome on the spec: the failure, or success with a
// new version when the content differs from the latest version's.
func (svc *Service) recordProcessing(ctx context.Context, tx *ent.Tx, s *ent.OpenAPISpec, doc *openapi.Document, failure *openapi.Error) error {
	upd := tx.OpenAPISpec.UpdateOne(s).SetProcessingState(openapispec.ProcessingStateComplete).SetLastProcessedAt(svc.Now(ctx))
	if failure != nil {
		err := upd.SetLastProcessErrorCode(openapispec.LastProcessErrorCode(failure.Code)).
			SetLastProcessError(check.Truncate(failure.Message, 500)).SetLastProcessErrors(failure.Errors).
			SetLastProcessErrorCount(failure.Count).Exec(ctx)
		if err != nil {
			return err
		}
		return recordSpec(ctx, tx, events.OpenAPISpecFailed, s, map[string]any{"code": failure.Code, "message": check.Truncate(failure.Message, 500)})
	}
	upd.ClearLastProcessErrorCode().ClearLastProcessError().ClearLastProcessErrors().SetLastProcessErrorCount(0)
	if s.LastVersionID != nil {
		last, err := tx.OpenAPISpecVersion.Query().Where(openapispecversion.ID(*s.LastVersionID)).
			Select(openapispecversion.FieldDigest).String(ctx)
		if err != nil {
			return err
		}
		if last == doc.Digest {
			return upd.Exec(ctx)
		}
	}
	filesystem, err := json.Marshal(doc.Filesystem)
	if err != nil {
		return err
	}
	v, err := tx.OpenAPISpecVersion.Create().SetOrganizationID(s.OrganizationID).SetSpecID(s.ID).
		SetURL(versionURL(doc, s)).SetRaw(doc.Raw).SetFormat(openapispecversion.Format(doc.Format)).
		SetFilesystem(filesystem).SetDigest(doc.Digest).SetWarnings(doc.Warnings).SetWarningCount(doc.WarningCount).
		SetCreatedAt(svc.Now(ctx)).Save(ctx)
	if err != nil {
		return err
	}
	if err := upd.SetLastVersionID(v.ID).Exec(ctx); err != nil {
		return err
	}
	return recordSpec(ctx, tx, events.OpenAPISpecProcessed, s, map[string]any{"version": v.ID, "warningCount": doc.WarningCount})
}

// recordSpec records an event about a spec (by its slug) in the transaction that changes it.
func recordSpec(ctx context.Context, tx *ent.Tx, typ string, s *ent.OpenAPISpec, details map[string]any) error {
	details["slug"] = s.Slug
	return events.Record(ctx, tx.Client(), events.Event{Type: typ, Organization: s.OrganizationID,
		ObjectKind: "openapi-spec", ObjectID: s.ID, Details: details})
}
