package sqlscan

import (
	"database/sql"
	"testing"

	entsql "entgo.io/ent/dialect/sql"
	_ "github.com/mattn/go-sqlite3"
)

// TestReusedTargetsScanEachRowAfresh scans rows through reused targets as sqlgraph does (scan,
// then copy out): a NULL after a value reads NULL, a value after NULL reads the value, and every
// row's copy is its own.
func TestReusedTargetsScanEachRowAfresh(t *testing.T) {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT * FROM (VALUES ('a', 1, x'01'), (NULL, NULL, NULL), ('c', 3, x'03'))`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	columns, _ := rows.Columns()
	calls := 0
	scanValues := Reused(func([]string) ([]any, error) {
		calls++
		return []any{new(sql.NullString), new(sql.NullInt64), new([]byte)}, nil
	})
	type row struct {
		s     sql.NullString
		n     sql.NullInt64
		bytes []byte
	}
	var got []row
	var first []any
	for rows.Next() {
		values, _ := scanValues(columns)
		if first == nil {
			first = values
		} else if &values[0] != &first[0] {
			t.Fatal("the targets were not reused")
		}
		if err := rows.Scan(values...); err != nil {
			t.Fatal(err)
		}
		got = append(got, row{*values[0].(*sql.NullString), *values[1].(*sql.NullInt64), *values[2].(*[]byte)})
	}
	want := []row{{sql.NullString{String: "a", Valid: true}, sql.NullInt64{Int64: 1, Valid: true}, []byte{1}},
		{}, {sql.NullString{String: "c", Valid: true}, sql.NullInt64{Int64: 3, Valid: true}, []byte{3}}}
	for i := range want {
		if got[i].s != want[i].s || got[i].n != want[i].n || string(got[i].bytes) != string(want[i].bytes) {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if calls != 1 {
		t.Errorf("scanValues ran %d times, want once", calls)
	}
}

// TestKeptTargetsAreNotReused: a target assignValues keeps (entsql.UnknownType's, of a column a
// modifier added) is new for every row.
func TestKeptTargetsAreNotReused(t *testing.T) {
	scanValues := Reused(func([]string) ([]any, error) {
		return []any{new(sql.NullString), new(entsql.UnknownType)}, nil
	})
	a, _ := scanValues([]string{"id", "extra"})
	b, _ := scanValues([]string{"id", "extra"})
	if a[1] == b[1] {
		t.Error("an UnknownType target was reused")
	}
	if Reused(nil) != nil {
		t.Error("Reused(nil) is not nil")
	}
}
