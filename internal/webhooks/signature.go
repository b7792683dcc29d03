package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// secretPrefix starts every signing secret, as the Standard Webhooks specification writes them.
const secretPrefix = "whsec_"

// secretBytes is the length of a signing secret's random key (the specification asks for 24 to 64).
const secretBytes = 32

// newSecret returns a random signing key and its whsec_ form, the one shown to the webhook's admin.
func newSecret() (key []byte, shown string) {
	key = make([]byte, secretBytes)
	_, _ = rand.Read(key)
	return key, secretPrefix + base64.StdEncoding.EncodeToString(key)
}

// Signature is the webhook-signature header of a message under keys (the current one, then a
// previous one still honoured after a rotation): "v1,<base64 HMAC-SHA256>" for each, space
// separated. The signed content is the message id, its timestamp in Unix seconds and the body,
// joined by dots.
func Signature(keys [][]byte, msgID string, at time.Time, body []byte) string {
	signed := msgID + "." + strconv.FormatInt(at.Unix(), 10) + "." + string(body)
	sigs := make([]string, len(keys))
	for i, key := range keys {
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(signed))
		sigs[i] = "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	return strings.Join(sigs, " ")
}
