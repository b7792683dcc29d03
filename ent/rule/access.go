package rule

import (
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent/viewer"
)

// The content filters decide access in the database, from the row itself: a predicate over a
// space or collection that holds exactly where ContentRole gives the viewer at least a role.
// It reads the row's columns (organization, resolved level, parent, visibility), the viewer's
// organization roles (bound as parameters) and, in subqueries the database answers from
// indexes, the grants made to the viewer or their teams with the collections below them. So
// a point read costs what the object costs, and a list is filtered while it is read, whatever
// the organization holds (decision 125).

// cond writes one SQL condition. Columns are written as given: the outer row's as its selector
// quotes them (Selector.C), a subquery's as plain alias.column names.
type cond func(b *sql.Builder)

// predicate turns a condition into an ent predicate.
func (c cond) predicate() *sql.Predicate { return sql.P(func(b *sql.Builder) { c(b) }) }

func raw(s string) cond { return func(b *sql.Builder) { b.WriteString(s) } }

// join writes the conditions between op, in parentheses; an empty list is the given constant.
func join(op, empty string, cs []cond) cond {
	return func(b *sql.Builder) {
		if len(cs) == 0 {
			b.WriteString(empty)
			return
		}
		b.WriteByte('(')
		for i, c := range cs {
			if i > 0 {
				b.WriteString(" " + op + " ")
			}
			c(b)
		}
		b.WriteByte(')')
	}
}

func or(cs ...cond) cond  { return join("OR", "FALSE", cs) }
func and(cs ...cond) cond { return join("AND", "TRUE", cs) }

// orSome is or of the conditions that are not nil: a nil condition holds nowhere for the viewer
// (memberRole), and leaving it out keeps the statement to what can hold.
func orSome(cs ...cond) cond {
	kept := cs[:0] // cs is the call's own argument array
	for _, c := range cs {
		if c != nil {
			kept = append(kept, c)
		}
	}
	return or(kept...)
}

// in is column IN (values…); FALSE for no values.
func in(column string, values []string) cond {
	return func(b *sql.Builder) {
		if len(values) == 0 {
			b.WriteString("FALSE")
			return
		}
		b.WriteString(column + " IN (")
		for i, v := range values {
			if i > 0 {
				b.WriteString(", ")
			}
			b.Arg(v)
		}
		b.WriteByte(')')
	}
}

// inQuery is column IN (subquery).
func inQuery(column string, query cond) cond {
	return func(b *sql.Builder) {
		b.WriteString(column + " IN (")
		query(b)
		b.WriteByte(')')
	}
}

// rolesAtLeast lists the roles that include min, as stored.
func rolesAtLeast(min viewer.Role) []string {
	var out []string
	for _, r := range viewer.Role("").Values() {
		if viewer.Role(r).AtLeast(min) {
			out = append(out, r)
		}
	}
	return out
}

// columns names the columns of a row in a query: the outer row's through its selector, or an
// alias's in a subquery.
type columns func(name string) string

func alias(name string) columns { return func(c string) string { return name + "." + c } }

// hasRole holds for the spaces (spaces true) or collections on which v's role is at least min
// (ContentRole), and for spaces only, live ones but for what their visibility opens to anyone.
func hasRole(v *viewer.Viewer, min viewer.Role, spaces bool, col columns) cond {
	admin := in(col("organization_id"), v.OrganizationIDs(viewer.RoleAdmin))
	member := memberRole(v, min, spaces, col)
	if !spaces {
		return orSome(admin, member)
	}
	return orOpen(v, min, col, and(raw(col("deleted_at")+" IS NULL"), orSome(admin, member)))
}

// hasRoleOrOrgAdmin is hasRole, and every row of the organizations where v is admin: deleted
// spaces too, which organization admins also read and write (restore, transfer) though no role
// reaches them.
func hasRoleOrOrgAdmin(v *viewer.Viewer, min viewer.Role, spaces bool, col columns) cond {
	admin := in(col("organization_id"), v.OrganizationIDs(viewer.RoleAdmin))
	member := memberRole(v, min, spaces, col)
	if !spaces {
		return orSome(admin, member)
	}
	if member != nil {
		member = and(raw(col("deleted_at")+" IS NULL"), member)
	}
	return orOpen(v, min, col, orSome(admin, member))
}

// orOpen adds, for reads, the spaces whose visibility opens them to anyone, and those a published
// site admitted its visitor to.
func orOpen(v *viewer.Viewer, min viewer.Role, col columns, c cond) cond {
	if min != viewer.RoleRead {
		return c
	}
	open := or(c, openToAnyone(v.ShareKeys(), col))
	if admitted := v.Admitted(); len(admitted) > 0 { // members' statements stay as they were
		return or(open, in(col("id"), admitted))
	}
	return open
}

// memberRole holds where v's role as a member who is no admin of the row's organization — by
// default levels, grants, and for spaces in-collection visibility — is at least min. Admins
// hold every role already, so for an admin of all their organizations (and for no user) it is
// nil, holding nowhere, and the statement leaves it out (orSome).
func memberRole(v *viewer.Viewer, min viewer.Role, spaces bool, col columns) cond {
	orgs := notAdministered(v, "")
	if len(orgs) == 0 || v.UserID == "" {
		return nil
	}
	terms := []cond{memberDefault(v, min, col), granted(v.UserID, orgs, min, spaces, col)}
	if spaces && min == viewer.RoleRead {
		terms = append(terms, inReadableCollection(v, col))
	}
	return or(terms...)
}

// notAdministered lists the organizations where v's role is at least min (with min empty: where v
// is a member, guests included) and is not admin.
func notAdministered(v *viewer.Viewer, min viewer.Role) []string {
	var out []string
	for _, org := range v.OrganizationIDs(min) {
		if role, _ := v.Membership(org); role != viewer.RoleAdmin {
			out = append(out, org)
		}
	}
	return out
}

// memberDefault holds where the object's default level gives v, a member with a role, at least
// min: the level itself, or the organization role where the levels inherit up to the top.
func memberDefault(v *viewer.Viewer, min viewer.Role, col columns) cond {
	withRole, atLeastMin := notAdministered(v, viewer.RoleRead), notAdministered(v, min)
	if len(withRole) == len(atLeastMin) { // every role v has is at least min: inheriting gives min too
		return and(in(col("organization_id"), withRole), in(col("resolved_level"), append(rolesAtLeast(min), Inherit)))
	}
	return or(
		and(in(col("organization_id"), atLeastMin), in(col("resolved_level"), []string{Inherit})),
		and(in(col("organization_id"), withRole), in(col("resolved_level"), rolesAtLeast(min))))
}

// granted holds where a grant of at least min to the user or one of their teams covers the
// object: on it, or on a collection above it. Each is looked up for the object through the
// grants' target indexes, so an object costs the same whatever the user holds elsewhere. Grants
// count in the user's organizations only.
func granted(userID string, orgs []string, min viewer.Role, spaces bool, col columns) cond {
	roles := rolesAtLeast(min)
	if !spaces {
		return and(in(col("organization_id"), orgs), grantedAbove(col("id"), userID, roles))
	}
	return and(in(col("organization_id"), orgs), or(grantedOnSpace(col("id"), userID, roles),
		grantedAbove(col("parent_id"), userID, roles)))
}

// grantedOnSpace holds when a grant of one of roles to the user or to a team they belong to is on
// the space in column.
func grantedOnSpace(column, userID string, roles []string) cond {
	return func(b *sql.Builder) {
		b.WriteString("EXISTS (SELECT 1 FROM permission_grants gs WHERE gs.space_id = " + column + " AND ")
		grantOf("gs", userID, roles)(b)
		b.WriteByte(')')
	}
}

// grantedAbove holds when such a grant is on the collection in column or on one above it: a
// recursive walk up from it through the collections' primary key.
func grantedAbove(column, userID string, roles []string) cond {
	return func(b *sql.Builder) {
		b.WriteString("EXISTS (WITH RECURSIVE above(id) AS (SELECT " + column +
			" UNION SELECT ca.parent_id FROM collections ca JOIN above ON ca.id = above.id WHERE ca.parent_id IS NOT NULL)" +
			" SELECT 1 FROM above JOIN permission_grants gc ON gc.collection_id = above.id WHERE ")
		grantOf("gc", userID, roles)(b)
		b.WriteByte(')')
	}
}

// grantOf holds for the grants (of alias g) of one of roles made to the user or to a team they
// belong to.
func grantOf(g, userID string, roles []string) cond {
	return func(b *sql.Builder) {
		in(g+".role", roles)(b)
		b.WriteString(" AND (" + g + ".user_id = ")
		b.Arg(userID)
		b.WriteString(" OR " + g + ".team_id IN (SELECT tm.team_id FROM team_members tm WHERE tm.user_id = ")
		b.Arg(userID)
		b.WriteString("))")
	}
}

// inReadableCollection holds for in-collection spaces whose parent collection v reads as a
// member with a role, by its default level. (A grant on the parent or above opens the space
// itself already, and organization admins read everything.)
func inReadableCollection(v *viewer.Viewer, col columns) cond {
	readableParent := func(b *sql.Builder) {
		b.WriteString("EXISTS (SELECT 1 FROM collections rc WHERE rc.id = " + col("parent_id") + " AND ")
		in("rc.resolved_level", append(rolesAtLeast(viewer.RoleRead), Inherit))(b)
		b.WriteByte(')')
	}
	return and(raw(col("visibility")+" = 'in-collection'"), in(col("organization_id"), notAdministered(v, viewer.RoleRead)),
		readableParent)
}

// openToAnyone holds for the spaces whose visibility opens them to every viewer: public and
// unlisted ones, and share-link ones whose key the viewer presented (none when they presented
// no key, which the statement then leaves out).
func openToAnyone(shareKeys []string, col columns) cond {
	public := raw(col("visibility") + " IN ('public', 'unlisted')")
	if len(shareKeys) == 0 {
		return public
	}
	return or(public, and(raw(col("visibility")+" = 'share-link'"), in(col("share_key"), shareKeys)))
}

// spaceWithRole holds for rows whose column spaceColumn names a space on which v's role is at
// least min (hasRole): a correlated lookup of that one space by its primary key.
func spaceWithRole(v *viewer.Viewer, min viewer.Role, spaceColumn string) cond {
	return existsRow("spaces", "rs", spaceColumn, func(col columns) cond { return hasRole(v, min, true, col) })
}

// collectionWithRole is spaceWithRole for a column naming a collection.
func collectionWithRole(v *viewer.Viewer, min viewer.Role, collectionColumn string) cond {
	return existsRow("collections", "rcl", collectionColumn, func(col columns) cond { return hasRole(v, min, false, col) })
}

// existsRow holds when the row of table whose id is in column matches where.
func existsRow(table, name, column string, where func(columns) cond) cond {
	return func(b *sql.Builder) {
		b.WriteString("EXISTS (SELECT 1 FROM " + table + " " + name + " WHERE " + name + ".id = " + column + " AND ")
		where(alias(name))(b)
		b.WriteByte(')')
	}
}

// selectorColumns names the columns of a query's or mutation's own table.
func selectorColumns(s *sql.Selector) columns {
	return func(c string) string { return s.C(c) }
}
