package graph

import (
	"context"

	"github.com/binderyhq/bindery/internal/signedurl"
)

// serverKey returns the secret kept for a purpose (serverkey.Keys).
func (r *Resolver) serverKey(ctx context.Context, purpose string) ([]byte, error) {
	return r.keys.Get(ctx, r.Client, purpose)
}

// signer makes and checks this server's signed URLs.
func (r *Resolver) signer() signedurl.Signer {
	return signedurl.Signer{BaseURL: r.BaseURL, Now: r.now, Key: r.serverKey}
}
