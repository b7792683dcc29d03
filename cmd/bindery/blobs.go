package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/store"
)

// blobFlags say where file bytes live; every command that opens the store takes them.
type blobFlags struct {
	where string
	s3    blobs.S3Options
}

func (b *blobFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&b.where, "blobs", envOr("BINDERY_BLOBS", ""),
		"where file bytes live: db, dir (DATA/blobs), an absolute directory or s3://bucket/prefix; default db on PostgreSQL, dir on SQLite (env BINDERY_BLOBS)")
	fs.StringVar(&b.s3.Endpoint, "s3-endpoint", envOr("BINDERY_S3_ENDPOINT", envOr("AWS_ENDPOINT_URL_S3", envOr("AWS_ENDPOINT_URL", ""))),
		"URL of an S3-compatible store, e.g. http://127.0.0.1:9000; default AWS (env BINDERY_S3_ENDPOINT, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL)")
	fs.StringVar(&b.s3.Region, "s3-region", envOr("AWS_REGION", envOr("AWS_DEFAULT_REGION", "")),
		"region of the S3 store; default us-east-1 (env AWS_REGION, AWS_DEFAULT_REGION)")
	fs.BoolVar(&b.s3.Presign, "s3-presign", envOr("BINDERY_S3_PRESIGN", "") == "1",
		"file downloads are presigned URLs of the S3 store instead of this server's (env BINDERY_S3_PRESIGN=1)")
}

// blobsMigrate copies every referenced blob to the store --to names (internal/blobs.Migrate).
func blobsMigrate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("blobs migrate", flag.ContinueOnError)
	var sf storeFlags
	sf.register(fs)
	to := fs.String("to", "", "the store to copy every referenced blob to: db, dir, an absolute directory or s3://bucket/prefix")
	if err := parse(fs, args, "to"); err != nil {
		return err
	}
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	dst, err := st.OpenBlobs(ctx, *to)
	if err != nil {
		return fmt.Errorf("--to: %w", err)
	}
	res, err := blobs.Migrate(ctx, st.Client, st.Blobs, dst)
	if err != nil {
		return fmt.Errorf("blobs migrate (run it again to resume): %w", err)
	}
	if err := printJSON(res); err != nil {
		return err
	}
	if len(res.Missing) > 0 {
		return fmt.Errorf("blobs migrate: %d blobs are missing or corrupt in the source store (listed above)", len(res.Missing))
	}
	return nil
}

// storeOptions are the store.Options of the store flags.
func (s *storeFlags) storeOptions() store.Options {
	return store.Options{DataDir: s.data, DSN: s.db, FullSync: s.fullSync, Hooks: s.hooks, Blobs: s.blobs.where, S3: s.blobs.s3}
}
