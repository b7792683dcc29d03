package rule

import (
	"testing"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent/viewer"
)

// TestAccessPredicateLeavesOutWhatHoldsNowhere: an admin of every organization they belong to,
// with no share key, reads spaces by organization and visibility alone; a member of another
// organization also by the member terms. (Which rows each viewer reads, the database against
// ContentRole, is TestAccessAgreesWithContentRole's.)
func TestAccessPredicateLeavesOutWhatHoldsNowhere(t *testing.T) {
	admin, read := viewer.RoleAdmin, viewer.RoleRead
	where := func(v *viewer.Viewer) string {
		s := sql.Dialect(dialect.SQLite).Select("id").From(sql.Table("spaces"))
		s.Where(hasRoleOrOrgAdmin(v, viewer.RoleRead, true, selectorColumns(s)).predicate())
		q, _ := s.Query()
		return q
	}
	got := where(viewer.NewUser("u", "u@example.com", map[string]*viewer.Role{"o": &admin}))
	want := "SELECT `id` FROM `spaces` WHERE ((`spaces`.`organization_id` IN (?)) OR `spaces`.`visibility` IN ('public', 'unlisted'))"
	if got != want {
		t.Fatalf("admin reads spaces by\n%s\nwant\n%s", got, want)
	}
	member := where(viewer.NewUser("u", "u@example.com", map[string]*viewer.Role{"o": &admin, "p": &read}))
	if len(member) <= len(want) {
		t.Fatalf("a member of another organization reads spaces by\n%s\nwithout the member terms", member)
	}
}
