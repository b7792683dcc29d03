package revisions

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/readcache"
	"github.com/binderyhq/bindery/internal/signedurl"
)

// downloadTTL is how long a file's download URL opens its bytes.
const downloadTTL = time.Hour

// Downloads are the links that serve the bytes of revisions' files, and what opens them.
type Downloads struct {
	Contents *Contents
	Blobs    blobs.Store
	Signer   signedurl.Signer
}

// URL returns a URL that serves a file's bytes for downloadTTL: the blob store's own (presigned)
// URL when it gives one, else one this server signed. Callers pass a file of a revision the
// viewer read.
func (d Downloads) URL(ctx context.Context, revisionID string, f *tree.File) (string, error) {
	if l, ok := d.Blobs.(blobs.Linker); ok {
		readcache.DependsOnTime(ctx) // the store's clock signs the link
		if u, err := l.Link(ctx, f.Blob, f.Name, f.ContentType, downloadTTL); u != "" || err != nil {
			return u, err
		}
	}
	return d.Signer.Sign(ctx, signedurl.FileDownload, revisionID+"/"+f.ID, downloadTTL)
}

// Download is a file's bytes to serve, with what a response says of them.
type Download struct {
	Name        string
	ContentType string
	ModTime     time.Time // when the file was added
	Body        io.ReadSeekCloser
}

// Open opens the file that a download URL's token names. No viewer is needed: the token is the
// authority, and it is issued only to readers of the revision. Returns NOT_FOUND for a token
// this server did not sign (or a file gone with its space), FORBIDDEN for an expired one.
func (d Downloads) Open(ctx context.Context, token string) (*Download, error) {
	subject, err := d.Signer.Verify(ctx, signedurl.FileDownload, token)
	if err != nil {
		return nil, err
	}
	revisionID, fileID, _ := strings.Cut(subject, "/")
	// The system reads what the signed token names: the decision was made when it was issued.
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	rev, err := d.Contents.client.Revision.Get(sys, revisionID)
	if err != nil {
		return nil, rule.NotFound(err, "file")
	}
	t, err := d.Contents.Tree(sys, rev)
	if err != nil {
		return nil, err
	}
	f, err := InRevision(t.File(fileID), "file "+fileID)
	if err != nil {
		return nil, err
	}
	body, err := d.Blobs.Open(ctx, f.Blob)
	if errors.Is(err, blobs.ErrNotFound) {
		return nil, apperr.Internalw(errors.New("the bytes of file " + f.ID + " (" + f.Blob + ") are missing from the blob store"))
	}
	if err != nil {
		return nil, err
	}
	return &Download{Name: f.Name, ContentType: f.ContentType, ModTime: f.CreatedAt, Body: body}, nil
}

// InRevision returns v, an entry a revision's tree was asked for, or NOT_FOUND naming what when
// the revision has none (v is nil).
func InRevision[T any](v *T, what string) (*T, error) {
	if v == nil {
		return nil, apperr.NotFoundf("%s not found in the revision", check.Truncate(what, 200))
	}
	return v, nil
}
