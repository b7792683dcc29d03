// Package signedurl makes and checks the signed URLs of this server: an absolute URL that opens
// a subject for a purpose until it expires, without a bearer token — whoever holds it may use it,
// like a presigned object-store URL. Callers issue one only to viewers allowed to read its
// subject.
package signedurl

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/binderyhq/bindery/internal/apperr"
)

// Purpose is what a kind of signed URL opens: its name keys the HMAC secret (a token made for
// one purpose never verifies for another) and its path is where the server serves it.
type Purpose struct {
	Name string
	Path string // prefix of the URL path, the token follows it
}

// The purposes of this server's signed URLs.
var (
	// FileDownload is the downloadURL of a revision's file.
	FileDownload = Purpose{Name: "file-download", Path: "/files/"}
	// PDFExport is the PDF link of a change request.
	PDFExport = Purpose{Name: "pdf-export", Path: "/pdf/"}
)

// Signer makes and checks the signed URLs of one server.
type Signer struct {
	BaseURL string // absolute URL of this server
	// Now is the current time.
	Now func(context.Context) time.Time
	// Key is the server's secret for a purpose (serverkey.Keys).
	Key func(ctx context.Context, purpose string) ([]byte, error)
}

// Sign returns an absolute URL of this server that opens subject for purpose until ttl from now.
func (s Signer) Sign(ctx context.Context, p Purpose, subject string, ttl time.Duration) (string, error) {
	key, err := s.Key(ctx, "signed-url:"+p.Name)
	if err != nil {
		return "", err
	}
	payload := strconv.FormatInt(s.Now(ctx).Add(ttl).Unix(), 10) + ":" + subject
	token := encodeToken([]byte(payload)) + "." + encodeToken(mac(key, payload))
	return strings.TrimRight(s.BaseURL, "/") + p.Path + token, nil
}

// Verify returns the subject of a token made by Sign for purpose (the URL's last path segment).
// Returns NOT_FOUND when the token was not made by this server for that purpose (tampered,
// truncated, another purpose's), FORBIDDEN when it expired.
func (s Signer) Verify(ctx context.Context, p Purpose, token string) (string, error) {
	invalid := apperr.NotFoundf("no such link: it is not one this server signed")
	encoded, sig, ok := strings.Cut(token, ".")
	payload, err1 := tokenEncoding.DecodeString(encoded)
	got, err2 := tokenEncoding.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil {
		return "", invalid
	}
	key, err := s.Key(ctx, "signed-url:"+p.Name)
	if err != nil {
		return "", err
	}
	if !hmac.Equal(got, mac(key, string(payload))) { // constant time
		return "", invalid
	}
	exp, subject, ok := strings.Cut(string(payload), ":")
	expires, err := strconv.ParseInt(exp, 10, 64)
	if !ok || err != nil {
		return "", invalid
	}
	if s.Now(ctx).Unix() >= expires {
		return "", apperr.Forbiddenf("the link expired at %s: read the object again for a fresh one",
			time.Unix(expires, 0).UTC().Format(time.RFC3339))
	}
	return subject, nil
}

func mac(key []byte, payload string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(payload))
	return h.Sum(nil)
}

// tokenEncoding is unpadded URL-safe base64 that refuses stray bits in the last character, so
// each token has exactly one spelling.
var tokenEncoding = base64.RawURLEncoding.Strict()

func encodeToken(b []byte) string { return tokenEncoding.EncodeToString(b) }
