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

// TestQualifyEachAsEntWritesThem: a query of some columns, and a column that is not the table's,
// is the same SQL with the columns QualifyEach qualified.
func TestQualifyEachAsEntWritesThem(t *testing.T) {
	all := []string{"id", "title", "organization_id"}
	selectSome := func(d string, cols []string) string {
		s := sql.Dialect(d).Select().From(sql.Dialect(d).Table("spaces"))
		q, _ := s.Select(s.Columns(cols...)...).Query()
		return q
	}
	for _, d := range []string{dialect.SQLite, dialect.Postgres} {
		some := []string{"id", "organization_id", "parent_id"}
		want := selectSome(d, some)
		QualifyEach(d, "spaces", all, some)
		if some[2] != "parent_id" {
			t.Fatalf("%s: a column not of the table became %q", d, some[2])
		}
		if q := selectSome(d, some); q != want {
			t.Fatalf("%s: %s\nent writes %s", d, q, want)
		}
	}
}
