package testenv

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/binderyhq/bindery/internal/blobs"
)

// S3 starts an S3-compatible server on loopback for the test (gofakes3, in memory, in this
// process) with a bucket, and returns the options of a blob store in it under prefix.
func S3(tb testing.TB, prefix string) blobs.S3Options {
	tb.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("bindery"); err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithIntegrityCheck(true)).Server())
	tb.Cleanup(srv.Close)
	return blobs.S3Options{URL: "s3://bindery/" + prefix, Endpoint: srv.URL, Region: "us-east-1",
		Creds: credentials.NewStaticV4("test-access-key", "test-secret-key", "")}
}

// OpenS3 opens a blob store in a fresh S3 server (S3).
func OpenS3(tb testing.TB, prefix string) *blobs.S3 {
	tb.Helper()
	s, err := blobs.NewS3(context.Background(), S3(tb, prefix))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
