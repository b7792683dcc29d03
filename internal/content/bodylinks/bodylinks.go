// Package bodylinks keeps the links of page bodies: a body is content-addressed, so its links are
// a pure function of its hash. They are extracted once (internal/content/links), when a revision
// stores a new body, into BodyLink rows, which answer a whole revision's links and a file's
// backlinks without reading the bodies.
package bodylinks

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"maps"
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/bodylink"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/internal/content/links"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Bounds of one statement: the rows written (6 values each) and the hashes or ids read.
const (
	rowBatch  = 100
	readBatch = 500
)

// allowed reads body links for anyone: like the bodies, they are content-addressed and reached
// only through a revision whose space the viewer was allowed to read, so the policy decision on
// the revision already covers them.
func allowed(ctx context.Context) context.Context {
	return privacy.DecisionContext(ctx, privacy.Allow)
}

// Store records, in tx, the link targets of the page bodies a write stores (by hash).
// A body stored before keeps its rows: each row's id is the hash of its body and target.
func Store(ctx context.Context, tx *ent.Tx, bodies map[string]string) error {
	var rows []*ent.BodyLinkCreate
	for hash, body := range bodies {
		targets := links.Extract(body)
		targetCache.Add(hash, targets) // the text's targets, whether or not this write commits
		for _, t := range targets {
			rows = append(rows, tx.BodyLink.Create().SetID(bodyLinkID(hash, t)).SetBodyHash(hash).
				SetKind(bodylink.Kind(t.Kind)).SetRef(refOf(t)).SetAnchor(t.Anchor).SetURL(urlOf(t)))
		}
	}
	for chunk := range slices.Chunk(rows, rowBatch) {
		err := tx.BodyLink.CreateBulk(chunk...).OnConflictColumns(bodylink.FieldID).DoNothing().Exec(ctx)
		if err != nil && !errors.Is(err, sql.ErrNoRows) { // PostgreSQL's ON CONFLICT DO NOTHING returns no row
			return err
		}
	}
	return nil
}

// bodyLinkID names the row of one target of one body.
func bodyLinkID(bodyHash string, t links.Target) string {
	sum := sha256.Sum256([]byte(bodyHash + "\x00" + string(t.Kind) + "\x00" + t.ID()))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// refOf and urlOf split a target's ref into the row's indexed id column and its URL column.
func refOf(t links.Target) string {
	if t.Kind == links.URL {
		return ""
	}
	return t.Ref
}

func urlOf(t links.Target) string {
	if t.Kind == links.URL {
		return t.Ref
	}
	return ""
}

// targetCacheSize is how many bodies' link targets stay in memory.
const targetCacheSize = 1 << 16

// targetCache holds link targets by body hash. A body's targets are a function of its text, which
// its hash names, so the cache is right for every database and never goes stale.
var targetCache, _ = lru.New[string, []links.Target](targetCacheSize)

// Targets returns the stored link targets of page bodies, by body hash.
func Targets(ctx context.Context, c *ent.Client, hashes []string) (map[string][]links.Target, error) {
	out := make(map[string][]links.Target, len(hashes))
	var missing []string
	for _, h := range hashes {
		if targets, ok := targetCache.Get(h); ok {
			out[h] = targets
		} else {
			missing = append(missing, h)
		}
	}
	for chunk := range slices.Chunk(missing, readBatch) {
		rows, err := c.BodyLink.Query().Where(bodylink.BodyHashIn(chunk...)).
			Select(bodylink.FieldBodyHash, bodylink.FieldKind, bodylink.FieldRef, bodylink.FieldAnchor, bodylink.FieldURL).
			All(allowed(ctx))
		if err != nil {
			return nil, err
		}
		for _, row := range rows {
			t := links.Target{Kind: links.Kind(row.Kind), Ref: row.Ref + row.URL, Anchor: row.Anchor}
			out[row.BodyHash] = append(out[row.BodyHash], t)
		}
		for _, h := range chunk {
			targetCache.Add(h, out[h])
		}
	}
	return out, nil
}

// LinkingTo returns the hashes of the stored bodies that link to a file.
func LinkingTo(ctx context.Context, c *ent.Client, fileID string) (map[string]bool, error) {
	hashes, err := c.BodyLink.Query().
		Where(bodylink.KindEQ(bodylink.KindFile), bodylink.Ref(fileID)).
		Select(bodylink.FieldBodyHash).Strings(allowed(ctx))
	out := make(map[string]bool, len(hashes))
	for _, h := range hashes {
		out[h] = true
	}
	return out, err
}

// FilesLinkedOnlyFrom returns the files of visible that the bodies of the pages hidden link to
// and the body of no page of visible does: those a reader who does not see the hidden pages may
// not fetch (a published site's pages with a condition). Files nobody links to are not in it.
// It reads the hidden bodies' links (cached), then the bodies linking to those files only.
func FilesLinkedOnlyFrom(ctx context.Context, c *ent.Client, hidden []*tree.Page, visible *tree.Tree) (map[string]bool, error) {
	hashes := make([]string, 0, len(hidden))
	for _, p := range hidden {
		if p.Body != "" {
			hashes = append(hashes, p.Body)
		}
	}
	targets, err := Targets(ctx, c, hashes)
	if err != nil {
		return nil, err
	}
	only := map[string]bool{}
	for _, list := range targets {
		for _, t := range list {
			if t.Kind == links.File && visible.File(t.Ref) != nil {
				only[t.Ref] = true
			}
		}
	}
	if len(only) == 0 {
		return only, nil
	}
	shown := map[string]bool{}
	for _, e := range visible.Entries() {
		if e.Page != nil && e.Page.Body != "" {
			shown[e.Page.Body] = true
		}
	}
	for chunk := range slices.Chunk(slices.Collect(maps.Keys(only)), readBatch) {
		rows, err := c.BodyLink.Query().Where(bodylink.KindEQ(bodylink.KindFile), bodylink.RefIn(chunk...)).
			Select(bodylink.FieldBodyHash, bodylink.FieldRef).All(allowed(ctx))
		if err != nil {
			return nil, err
		}
		for _, row := range rows {
			if shown[row.BodyHash] {
				delete(only, row.Ref)
			}
		}
	}
	return only, nil
}
