package blobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"time"
)

// ChunkSize is how many bytes of a blob one row of the DB store holds. A reader holds one chunk in
// memory at a time, a range reads only the chunks it covers, and no statement carries more than
// this many bytes, well inside PostgreSQL's 1 GB field and SQLite's 1 GB blob limits.
const ChunkSize = 1 << 20

// Execer runs statements: a *sql.DB, a *sql.Tx or an ent transaction (sql/execquery).
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// DB is a Store in the database: a blob_objects row per blob (its size and when it was last
// written, in Unix microseconds) and its bytes in blob_chunks rows of ChunkSize bytes. Several
// servers that share the database share the blobs, with no shared disk. Writes take the writer
// connection; reads take the readers (the same pool on PostgreSQL).
type DB struct {
	writer, reader *sql.DB
}

// NewDB returns the store over a database whose tables CreateDBTables created.
func NewDB(writer, reader *sql.DB) *DB { return &DB{writer: writer, reader: reader} }

// CreateDBTables creates the DB store's tables (idempotent). postgres chooses bytea over SQLite's blob.
func CreateDBTables(ctx context.Context, db Execer, postgres bool) error {
	bytesType := "BLOB"
	if postgres {
		bytesType = "BYTEA"
	}
	for _, stmt := range []string{
		`CREATE TABLE IF NOT EXISTS blob_objects (hash TEXT PRIMARY KEY, size BIGINT NOT NULL, written_at BIGINT NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS blob_objects_written_at ON blob_objects (written_at)`,
		`CREATE TABLE IF NOT EXISTS blob_chunks (hash TEXT NOT NULL REFERENCES blob_objects (hash) ON DELETE CASCADE,
			seq INTEGER NOT NULL, data ` + bytesType + ` NOT NULL, PRIMARY KEY (hash, seq))`,
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("create the blob tables: %w", err)
		}
	}
	return nil
}

// Put stores the bytes in a transaction of its own.
func (d *DB) Put(ctx context.Context, hash string, data []byte) error {
	tx, err := d.writer.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := d.PutIn(ctx, tx, hash, data); err != nil {
		return err
	}
	return tx.Commit()
}

// PutIn stores the bytes through db, the transaction of the rows that reference them: if it
// fails, the bytes go with it. A blob already stored is only marked written now. Of two
// transactions storing the same new blob, the second waits on the first's row and, once it
// committed, writes nothing.
func (d *DB) PutIn(ctx context.Context, db Execer, hash string, data []byte) error {
	if _, err := hexOf(hash); err != nil {
		return err
	}
	now := time.Now().UnixMicro()
	res, err := db.ExecContext(ctx, `UPDATE blob_objects SET written_at = $1 WHERE hash = $2`, now, hash)
	if n, _ := rowsAffected(res, err); n == 1 || err != nil {
		return err
	}
	res, err = db.ExecContext(ctx, `INSERT INTO blob_objects (hash, size, written_at) VALUES ($1, $2, $3)
		ON CONFLICT (hash) DO NOTHING`, hash, len(data), now)
	if n, err := rowsAffected(res, err); n == 0 || err != nil {
		return err
	}
	for seq := 0; seq == 0 || seq*ChunkSize < len(data); seq++ {
		chunk := data[seq*ChunkSize : min(len(data), (seq+1)*ChunkSize)]
		if _, err := db.ExecContext(ctx, `INSERT INTO blob_chunks (hash, seq, data) VALUES ($1, $2, $3)`, hash, seq, chunk); err != nil {
			return err
		}
	}
	return nil
}

func rowsAffected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Open reads the blob's size; its chunks are read as the reader reaches them.
func (d *DB) Open(ctx context.Context, hash string) (io.ReadSeekCloser, error) {
	if _, err := hexOf(hash); err != nil {
		return nil, err
	}
	var size int64
	err := d.reader.QueryRowContext(ctx, `SELECT size FROM blob_objects WHERE hash = $1`, hash).Scan(&size)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return &chunkReader{ctx: ctx, db: d.reader, hash: hash, size: size, seq: -1}, nil
}

// List pages through the blobs by hash, 500 at a time, so no cursor stays open while fn runs.
func (d *DB) List(ctx context.Context, before time.Time, fn func(hash string) error) error {
	after := ""
	for {
		hashes, err := d.page(ctx, before, after)
		if err != nil {
			return err
		}
		for _, h := range hashes {
			if err := fn(h); err != nil {
				return err
			}
		}
		if len(hashes) < listPage {
			return nil
		}
		after = hashes[len(hashes)-1]
	}
}

const listPage = 500

func (d *DB) page(ctx context.Context, before time.Time, after string) ([]string, error) {
	rows, err := d.reader.QueryContext(ctx, `SELECT hash FROM blob_objects WHERE written_at < $1 AND hash > $2
		ORDER BY hash LIMIT $3`, before.UnixMicro(), after, listPage)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hashes []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		hashes = append(hashes, h)
	}
	return hashes, rows.Err()
}

// Delete removes the blob and its chunks in one statement, which a Put of the same blob in
// progress orders before or after: a blob written again is never removed.
func (d *DB) Delete(ctx context.Context, hash string, before time.Time) error {
	_, err := d.writer.ExecContext(ctx, `DELETE FROM blob_objects WHERE hash = $1 AND written_at < $2`, hash, before.UnixMicro())
	return err
}

// chunkReader reads a blob of the DB store a chunk at a time, from where it was sought.
type chunkReader struct {
	ctx    context.Context
	db     *sql.DB
	hash   string
	size   int64
	pos    int64
	seq    int64  // the chunk in buf, -1 for none
	buf    []byte // its bytes
	closed bool
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if c.closed {
		return 0, errors.New("blob: read after close")
	}
	if c.pos >= c.size {
		return 0, io.EOF
	}
	if seq := c.pos / ChunkSize; seq != c.seq {
		if err := c.load(seq); err != nil {
			return 0, err
		}
	}
	n := copy(p, c.buf[c.pos-c.seq*ChunkSize:])
	c.pos += int64(n)
	return n, nil
}

func (c *chunkReader) load(seq int64) error {
	c.buf = c.buf[:0]
	err := c.db.QueryRowContext(c.ctx, `SELECT data FROM blob_chunks WHERE hash = $1 AND seq = $2`, c.hash, seq).Scan(&c.buf)
	if errors.Is(err, sql.ErrNoRows) || err == nil && int64(len(c.buf)) != min(ChunkSize, c.size-seq*ChunkSize) {
		return fmt.Errorf("blob %s: chunk %d is missing or short", c.hash, seq)
	}
	if err != nil {
		return err
	}
	c.seq = seq
	return nil
}

func (c *chunkReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += c.pos
	case io.SeekEnd:
		offset += c.size
	}
	if offset < 0 {
		return 0, errors.New("blob: seek before the start")
	}
	c.pos = offset
	return offset, nil
}

func (c *chunkReader) Close() error {
	c.closed, c.buf = true, nil
	return nil
}
