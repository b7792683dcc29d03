package serverkey

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"

	"github.com/binderyhq/bindery/ent"
)

// sealPurpose names the server key (server_keys) that seals the secrets the server must show
// again, such as a site's JWT signing key (decision 163).
const sealPurpose = "sealed-secrets"

// Seal encrypts a secret the server must be able to show again, with AES-256-GCM under a server
// key, bound to label: a sealed value copied under another label (another site's row) does not
// open. The result is the random nonce followed by the ciphertext and its tag.
func (k *Keys) Seal(ctx context.Context, c *ent.Client, label string, secret []byte) ([]byte, error) {
	aead, err := k.sealer(ctx, c)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return aead.Seal(nonce, nonce, secret, []byte(label)), nil
}

// ErrUnsealable is the error of a sealed value that does not open: it was changed or truncated,
// or sealed under another label or server key. Only a new secret mends it.
var ErrUnsealable = errors.New("unseal: the sealed value does not open under this server's key")

// Unseal opens what Seal sealed under label. Fails with ErrUnsealable when the value was
// changed, truncated, or sealed under another label or key.
func (k *Keys) Unseal(ctx context.Context, c *ent.Client, label string, sealed []byte) ([]byte, error) {
	aead, err := k.sealer(ctx, c)
	if err != nil {
		return nil, err
	}
	n := aead.NonceSize()
	if len(sealed) < n+aead.Overhead() {
		return nil, ErrUnsealable
	}
	plain, err := aead.Open(nil, sealed[:n], sealed[n:], []byte(label))
	if err != nil {
		return nil, ErrUnsealable
	}
	return plain, nil
}

func (k *Keys) sealer(ctx context.Context, c *ent.Client) (cipher.AEAD, error) {
	key, err := k.Get(ctx, c, sealPurpose)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
