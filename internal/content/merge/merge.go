// Package merge merges revisions of a space's content three ways: the entries either side changed
// since their base (tree.Merge), page bodies line by line with conflict markers (diff3). Data in,
// data out: the caller reads trees and bodies through Content and writes the result.
package merge

import (
	"context"
	"fmt"
	"strings"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/diff3"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Results of merge and update, as the reference client names them.
const (
	ResultMerge     = "merge"
	ResultUpdate    = "update"
	ResultConflicts = "conflicts"
)

// Content is what a merge reads of the content store.
type Content interface {
	// Diff lists the keys of the entries that differ between the trees at two roots.
	Diff(ctx context.Context, a, b string) ([]string, error)
	// Bodies returns page bodies by hash ("" maps to "").
	Bodies(ctx context.Context, hashes []string) (map[string]string, error)
}

// Side is a tree merged: its root hash, the tree, and its name in conflict markers.
type Side struct {
	Root  string
	Tree  *tree.Tree
	Label string
}

// Result is a merge's tree, what changed from ours and the conflicts, with the page bodies the
// merge made by merging lines (by hash), to store with the tree.
type Result struct {
	tree.Result
	Bodies map[string]string
}

// ThreeWay merges the tree theirs into the tree ours, from base. Only the entries either side
// changed are looked at, so the cost follows the size of the changes.
func ThreeWay(ctx context.Context, c Content, base, ours, theirs Side) (Result, error) {
	changed, err := changedKeys(ctx, c, base.Root, ours.Root, theirs.Root)
	if err != nil {
		return Result{}, err
	}
	out := Result{Bodies: map[string]string{}}
	out.Result, err = tree.Merge{Base: base.Tree, Ours: ours.Tree, Theirs: theirs.Tree, Changed: changed,
		Bodies: bodyMerger(ctx, c, out.Bodies, diff3.Labels{Ours: ours.Label, Theirs: theirs.Label})}.Run()
	return out, err
}

// changedKeys lists the entries that differ between base and either side.
func changedKeys(ctx context.Context, c Content, base, ours, theirs string) ([]string, error) {
	a, err := c.Diff(ctx, base, ours)
	if err != nil {
		return nil, err
	}
	b, err := c.Diff(ctx, base, theirs)
	return append(a, b...), err
}

// bodyMerger merges page bodies line by line, keeping each merged body in made.
func bodyMerger(ctx context.Context, c Content, made map[string]string, labels diff3.Labels) func(b, o, t string) (string, bool, error) {
	return func(b, o, t string) (string, bool, error) {
		texts, err := c.Bodies(ctx, []string{b, o, t})
		if err != nil {
			return "", false, err
		}
		res := diff3.Merge(texts[b], texts[o], texts[t], labels)
		if res.Text == "" {
			return "", res.Conflicts > 0, nil
		}
		hash := tree.Hash([]byte(res.Text))
		made[hash] = res.Text
		return hash, res.Conflicts > 0, nil
	}
}

// ConflictError is the refusal of a merge of change request number that conflicts with the
// space's content: CONFLICT naming the conflicts.
func ConflictError(number int, conflicts []tree.Conflict) error {
	return apperr.Conflictf("change request #%d conflicts with the space's content: %s; update it from the main content, resolve the conflicts and merge again",
		number, describe(conflicts))
}

// describe lists conflicts for a message, the first few in full.
func describe(conflicts []tree.Conflict) string {
	const shown = 5
	var parts []string
	for i, c := range conflicts {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more", len(conflicts)-shown))
			break
		}
		parts = append(parts, c.String())
	}
	return strings.Join(parts, "; ")
}
