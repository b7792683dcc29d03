package revisions

import (
	"context"
	"fmt"
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/contentobject"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/sizedlru"
)

// Contents is the stored content of a server's spaces: revision trees and page bodies, both
// content-addressed and cached (they never change), and bodies parsed as documents. Build it once
// (NewContents) and share it.
type Contents struct {
	client    *ent.Client
	trees     *tree.Store
	bodies    *lru.Cache[string, string]
	documents *sizedlru.Cache[string, *document.Document] // by body hash
}

// bodyCacheSize is how many page bodies stay decoded in memory.
const bodyCacheSize = 4096

// ObjectBatch is how many content objects (or other rows named by id) one statement reads or
// writes (under every database's parameter limit).
const ObjectBatch = 500

// NewContents returns the content store of client, with empty caches.
func NewContents(client *ent.Client) *Contents {
	bodies, _ := lru.New[string, string](bodyCacheSize)
	c := &Contents{client: client, bodies: bodies, documents: sizedlru.New[string, *document.Document](documentCacheBytes)}
	c.trees = tree.NewStore(c.fetchObjects)
	return c
}

// ObjectsContext reads content objects for anyone: they are content-addressed and reached only
// through a revision whose space the viewer was allowed to read, so the policy decision on the
// revision already covers them.
func ObjectsContext(ctx context.Context) context.Context {
	return privacy.DecisionContext(ctx, privacy.Allow)
}

// fetchObjects reads the data of content objects by hash.
func (c *Contents) fetchObjects(ctx context.Context, hashes []string) (map[string][]byte, error) {
	return readObjects(ctx, c.client.ContentObject, hashes)
}

// readObjects reads the data of content objects by hash through objects (a client's or a
// transaction's).
func readObjects(ctx context.Context, objects *ent.ContentObjectClient, hashes []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(hashes))
	for chunk := range slices.Chunk(hashes, ObjectBatch) {
		objs, err := objects.Query().Where(contentobject.IDIn(chunk...)).
			Select(contentobject.FieldID, contentobject.FieldData).All(ObjectsContext(ctx))
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			out[o.ID] = o.Data
		}
	}
	return out, nil
}

// Diff lists the keys of the entries that differ between the trees at two roots (tree.Store.Diff).
func (c *Contents) Diff(ctx context.Context, a, b string) ([]string, error) {
	return c.trees.Diff(ctx, a, b)
}

// Tree returns the page tree of a revision the viewer has read.
func (c *Contents) Tree(ctx context.Context, rev *ent.Revision) (*tree.Tree, error) {
	return c.trees.Load(ctx, rev.RootTree)
}

// RevisionAndTree reads a revision and its tree. Returns NOT_FOUND when the viewer cannot read
// the revision.
func (c *Contents) RevisionAndTree(ctx context.Context, revisionID string) (*ent.Revision, *tree.Tree, error) {
	rev, err := c.client.Revision.Get(ctx, revisionID)
	if err != nil {
		return nil, nil, rule.NotFound(err, "revision")
	}
	t, err := c.Tree(ctx, rev)
	return rev, t, err
}

// Bodies returns the Markdown of page bodies by hash ("" maps to "").
func (c *Contents) Bodies(ctx context.Context, hashes []string) (map[string]string, error) {
	return c.bodiesThrough(ctx, hashes, c.fetchObjects)
}

// Body returns one page's stored Markdown body (without its title and front matter).
func (c *Contents) Body(ctx context.Context, p *tree.Page) (string, error) {
	bodies, err := c.Bodies(ctx, []string{p.Body})
	return bodies[p.Body], err
}

// bodiesIn returns page bodies by hash like Bodies, reading what the cache lacks through tx: the
// revision being written in tx (a merge's merged lines, an import's pages) has bodies that are
// not committed yet, which the client would not see.
func (c *Contents) bodiesIn(ctx context.Context, tx *ent.Tx, hashes []string) (map[string]string, error) {
	return c.bodiesThrough(ctx, hashes, func(ctx context.Context, missing []string) (map[string][]byte, error) {
		return readObjects(ctx, tx.ContentObject, missing)
	})
}

// bodiesThrough returns page bodies by hash, reading those the cache lacks with fetch and
// keeping them.
func (c *Contents) bodiesThrough(ctx context.Context, hashes []string,
	fetch func(context.Context, []string) (map[string][]byte, error)) (map[string]string, error) {
	out := make(map[string]string, len(hashes))
	var missing []string
	for _, h := range hashes {
		if body, ok := c.bodies.Get(h); ok || h == "" {
			out[h] = body
		} else {
			missing = append(missing, h)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	data, err := fetch(ctx, missing)
	if err != nil {
		return nil, err
	}
	for _, h := range missing {
		b, ok := data[h]
		if !ok {
			return nil, fmt.Errorf("page body %s is missing from the content store", h)
		}
		c.bodies.Add(h, string(b))
		out[h] = string(b)
	}
	return out, nil
}
