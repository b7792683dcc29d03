package merge

import (
	"context"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/content/tree"
)

// store is content held in memory: every side changed the one page "p".
type store map[string]string

func (store) Diff(context.Context, string, string) ([]string, error) { return []string{"p"}, nil }

func (s store) Bodies(_ context.Context, hashes []string) (map[string]string, error) {
	out := map[string]string{}
	for _, h := range hashes {
		out[h] = s[h]
	}
	return out, nil
}

// side is a tree of one page whose body is text, kept in s.
func (s store) side(root, text, label string) Side {
	hash := tree.Hash([]byte(text))
	s[hash] = text
	return Side{Root: root, Label: label, Tree: tree.New([]tree.Entry{{Page: &tree.Page{ID: "p", Title: "P", Slug: "p", Body: hash}}})}
}

func TestThreeWay(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := store{}
		res, err := ThreeWay(context.Background(), s, s.side("b", "a\nb\nc\n", ""), s.side("o", "A\nb\nc\n", "ours"), s.side("t", "a\nb\nC\n", "theirs"))
		if err != nil || len(res.Conflicts) > 0 {
			t.Fatalf("err %v, conflicts %v", err, res.Conflicts)
		}
		if body := res.Bodies[res.Tree.Page("p").Body]; body != "A\nb\nC\n" {
			t.Fatalf("merged body %q", body)
		}
	})
	t.Run("ErrConflict", func(t *testing.T) {
		s := store{}
		res, err := ThreeWay(context.Background(), s, s.side("b", "a\n", ""), s.side("o", "ours\n", "ours"), s.side("t", "theirs\n", "theirs"))
		if err != nil || len(res.Conflicts) != 1 {
			t.Fatalf("err %v, conflicts %v", err, res.Conflicts)
		}
		if body := res.Bodies[res.Tree.Page("p").Body]; !strings.Contains(body, "<<<<<<< ours") {
			t.Fatalf("merged body %q has no markers", body)
		}
		if msg := ConflictError(7, res.Conflicts).Error(); !strings.Contains(msg, `#7 conflicts with the space's content: page "P"`) {
			t.Fatalf("refusal %q", msg)
		}
	})
}
