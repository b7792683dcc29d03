package sqlcols

import (
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// TestQualifiedAsEntWritesThem builds a query as ent's sqlgraph does, from the bare columns and
// from the qualified ones: the SQL must be the same.
func TestQualifiedAsEntWritesThem(t *testing.T) {
	columns := []string{"id", "title", "organization_id"}
	selectAll := func(d string, cols []string) string {
		s := sql.Dialect(d).Select().From(sql.Dialect(d).Table("spaces"))
		q, _ := s.Select(s.Columns(cols...)...).Query()
		return q
	}
	for _, d := range []string{dialect.SQLite, dialect.Postgres} {
		got := Qualified(d, "spaces", columns)
		if q, want := selectAll(d, got), selectAll(d, columns); q != want {
			t.Fatalf("%s: %s\nent writes %s", d, q, want)
		}
		_ = append(got, "extra") // as sqlgraph's AddColumnOnce would
		if again := Qualified(d, "spaces", columns); len(again) != len(columns) || &again[0] != &got[0] {
			t.Fatalf("%s: the remembered list changed: %q", d, again)
		}
	}
}
