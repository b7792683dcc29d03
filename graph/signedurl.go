package graph

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

// signedPurpose is what a kind of signed URL opens: its name keys the HMAC secret (a token made
// for one purpose never verifies for another) and its path is where the server serves it.
type signedPurpose struct {
	name string
	path string // prefix of the URL path, the token follows it
}

// fileDownload is the purpose of the downloadURL of a revision's file.
var fileDownload = signedPurpose{name: "file-download", path: "/files/"}

// signURL returns an absolute URL of this server that opens subject for purpose until ttl from
// now, without a bearer token: whoever holds it may use it, like a presigned object-store URL.
// Callers issue it only to viewers allowed to read subject.
func (r *Resolver) signURL(ctx context.Context, p signedPurpose, subject string, ttl time.Duration) (string, error) {
	key, err := r.serverKey(ctx, "signed-url:"+p.name)
	if err != nil {
		return "", err
	}
	payload := strconv.FormatInt(r.now(ctx).Add(ttl).Unix(), 10) + ":" + subject
	token := encodeToken([]byte(payload)) + "." + encodeToken(mac(key, payload))
	return strings.TrimRight(r.BaseURL, "/") + p.path + token, nil
}

// verifySigned returns the subject of a token made by signURL for purpose (the URL's last path
// segment). Returns NOT_FOUND when the token was not made by this server for that purpose
// (tampered, truncated, another purpose's), FORBIDDEN when it expired.
func (r *Resolver) verifySigned(ctx context.Context, p signedPurpose, token string) (string, error) {
	invalid := apperr.NotFoundf("no such link: it is not one this server signed")
	encoded, sig, ok := strings.Cut(token, ".")
	payload, err1 := tokenEncoding.DecodeString(encoded)
	got, err2 := tokenEncoding.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil {
		return "", invalid
	}
	key, err := r.serverKey(ctx, "signed-url:"+p.name)
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
	if r.now(ctx).Unix() >= expires {
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
