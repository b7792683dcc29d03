package rule

import (
	"context"
	"testing"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
)

func TestRequireViewer(t *testing.T) {
	for name, v := range map[string]*viewer.Viewer{
		"OKUser": viewer.NewUser("u1", "ada@example.com", nil), "OKSystem": viewer.System(), "OKVisitor": viewer.Visitor(),
	} {
		t.Run(name, func(t *testing.T) {
			got, err := RequireViewer(viewer.NewContext(context.Background(), v))
			if err != nil || got != v {
				t.Fatalf("RequireViewer = %v, %v; want the viewer", got, err)
			}
		})
	}
	for name, ctx := range map[string]context.Context{
		"ErrNone":      context.Background(),
		"ErrAnonymous": viewer.NewContext(context.Background(), &viewer.Viewer{}),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := RequireViewer(ctx)
			if e := apperr.As(err); e == nil || e.Kind != apperr.Unauthenticated {
				t.Fatalf("RequireViewer = %v, want UNAUTHENTICATED", err)
			}
		})
	}
}
