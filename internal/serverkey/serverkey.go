// Package serverkey keeps the server's secrets, one per purpose (signed URLs, sealed secrets,
// visitor claims). They live in the database so every server process on one database signs with
// the same key.
package serverkey

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"sync"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/serverkey"
	"github.com/binderyhq/bindery/ent/viewer"
)

// Keys are the secrets read so far, by purpose. The zero value is ready.
type Keys struct {
	cache sync.Map // purpose → secret
}

// Get returns the secret kept for a purpose in the database of c, creating it on first use.
func (k *Keys) Get(ctx context.Context, c *ent.Client, purpose string) ([]byte, error) {
	if secret, ok := k.cache.Load(purpose); ok {
		return secret.([]byte), nil
	}
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	err := c.ServerKey.Create().SetPurpose(purpose).SetSecret(secret).
		OnConflictColumns(serverkey.FieldPurpose).DoNothing().Exec(sys)
	if err != nil && !errors.Is(err, sql.ErrNoRows) { // PostgreSQL's ON CONFLICT DO NOTHING returns no row
		return nil, err
	}
	row, err := c.ServerKey.Query().Where(serverkey.Purpose(purpose)).Only(sys)
	if err != nil {
		return nil, err
	}
	k.cache.Store(purpose, row.Secret)
	return row.Secret, nil
}
