package blobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3Options say how to reach an S3-compatible object store. Credentials come the usual AWS ways:
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN; else the shared credentials
// file (AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials, profile AWS_PROFILE); else the
// instance's or task's IAM role (EC2, ECS, web identity).
type S3Options struct {
	URL      string // s3://bucket/prefix
	Endpoint string // https://host[:port] (http:// for a store without TLS); empty for AWS
	Region   string // default us-east-1
	Presign  bool   // downloads are presigned URLs of the store rather than served through the server
	// Creds replaces the AWS chain (tests).
	Creds *credentials.Credentials
}

// S3 is a Store in a bucket of an S3-compatible object store: each blob is the object
// <prefix>sha256/<hex>, whose last-modified time is when it was last written.
type S3 struct {
	c       *minio.Client
	bucket  string
	prefix  string // "" or ending in "/"
	presign bool
}

// NewS3 returns the store the options name, after checking that its bucket exists.
func NewS3(ctx context.Context, o S3Options) (*S3, error) {
	u, err := url.Parse(o.URL)
	if err != nil || u.Scheme != "s3" || u.Host == "" || u.RawQuery != "" {
		return nil, fmt.Errorf("--blobs: %q is not s3://bucket or s3://bucket/prefix", o.URL)
	}
	host, secure, err := s3Endpoint(o.Endpoint)
	if err != nil {
		return nil, err
	}
	creds := o.Creds
	if creds == nil {
		creds = credentials.NewChainCredentials([]credentials.Provider{
			&credentials.EnvAWS{}, &credentials.FileAWSCredentials{}, &credentials.IAM{Client: &http.Client{Timeout: 10 * time.Second}},
		})
	}
	region := o.Region
	if region == "" {
		region = "us-east-1" // set, so presigning never asks the store for the bucket's location
	}
	c, err := minio.New(host, &minio.Options{Creds: creds, Secure: secure, Region: region})
	if err != nil {
		return nil, fmt.Errorf("S3 store: %w", err)
	}
	s := &S3{c: c, bucket: u.Host, prefix: strings.Trim(u.Path, "/"), presign: o.Presign}
	if s.prefix != "" {
		s.prefix += "/"
	}
	ok, err := c.BucketExists(ctx, s.bucket)
	if err == nil && !ok {
		err = errors.New("no such bucket")
	}
	if err != nil {
		return nil, fmt.Errorf("S3 store: bucket %q at %s: %w", s.bucket, host, err)
	}
	return s, nil
}

// s3Endpoint is the host of an endpoint URL and whether it speaks TLS.
func s3Endpoint(endpoint string) (host string, secure bool, err error) {
	if endpoint == "" {
		return "s3.amazonaws.com", true, nil
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.Trim(u.Path, "/") != "" {
		return "", false, fmt.Errorf("--s3-endpoint: %q is not http(s)://host[:port]", endpoint)
	}
	return u.Host, u.Scheme == "https", nil
}

func (s *S3) key(hash string) (string, error) {
	hex, err := hexOf(hash)
	return s.prefix + "sha256/" + hex, err
}

// singlePut is the largest blob uploaded in one PUT rather than in parts: more than any file may
// have, so every upload is one request (fewer round trips; and the test server, gofakes3, stores a
// part's signed chunks undecoded).
const singlePut = 64 << 20

// Put uploads the bytes under their hash. A blob already stored is uploaded again, which an
// object store makes atomic and which marks it written now.
func (s *S3) Put(ctx context.Context, hash string, data []byte) error {
	key, err := s.key(hash)
	if err != nil {
		return err
	}
	_, err = s.c.PutObject(ctx, s.bucket, key, bytes.NewReader(data), int64(len(data)),
		minio.PutObjectOptions{ContentType: "application/octet-stream", PartSize: singlePut})
	return err
}

// Open returns the object, read with ranged GETs from wherever it is sought to.
func (s *S3) Open(ctx context.Context, hash string) (io.ReadSeekCloser, error) {
	key, err := s.key(hash)
	if err != nil {
		return nil, err
	}
	obj, err := s.c.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err == nil {
		_, err = obj.Stat()
	}
	if isNoSuchKey(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return obj, nil
}

func isNoSuchKey(err error) bool {
	return err != nil && minio.ToErrorResponse(err).Code == minio.NoSuchKey
}

// List lists the objects under the prefix.
func (s *S3) List(ctx context.Context, before time.Time, fn func(hash string) error) error {
	ctx, cancel := context.WithCancel(ctx) // ends the listing when fn fails
	defer cancel()
	for obj := range s.c.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: s.prefix + "sha256/", Recursive: true}) {
		if obj.Err != nil {
			return obj.Err
		}
		hash := "sha256:" + strings.TrimPrefix(obj.Key, s.prefix+"sha256/")
		if _, err := hexOf(hash); err != nil || !obj.LastModified.Before(before) {
			continue
		}
		if err := fn(hash); err != nil {
			return err
		}
	}
	return nil
}

// Delete removes the object unless it was written at or after before. (As with Dir, a Put between
// the check and the removal loses it; Collect's grace period makes that all but impossible.)
func (s *S3) Delete(ctx context.Context, hash string, before time.Time) error {
	key, err := s.key(hash)
	if err != nil {
		return err
	}
	info, err := s.c.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if isNoSuchKey(err) {
		return nil
	}
	if err != nil || !info.LastModified.Before(before) {
		return err
	}
	return s.c.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{})
}

// Link presigns a GET of the object that answers it as an attachment with the file's name and
// type, when the store was configured to presign.
func (s *S3) Link(ctx context.Context, hash, name, contentType string, ttl time.Duration) (string, error) {
	if !s.presign {
		return "", nil
	}
	key, err := s.key(hash)
	if err != nil {
		return "", err
	}
	params := url.Values{"response-content-type": {contentType}, "response-content-disposition": {Attachment(name)}}
	u, err := s.c.PresignedGetObject(ctx, s.bucket, key, ttl, params)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}
