package loader

import (
	"context"
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/ent/intercept"
	"github.com/binderyhq/bindery/ent/invitelink"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/page"
)

// Page is one page of a list.
type Page[T any] = page.Page[T]

// pageKey asks for one page of a parent's children: the same filter, size, cursor and count for
// several parents share one statement.
type pageKey[F comparable] struct {
	Parent string
	Filter F
	Limit  int
	After  string // encoded cursor, "" for the first page
	Count  bool   // whether to count all the parent's matching children
	// Columns are the columns to read of each child (page.Args.Columns), "" for all
	Columns string
}

type pageGroup[F comparable] struct {
	Filter  F
	Limit   int
	After   string
	Count   bool
	Columns string
}

// pageSource says how to load the children of many parents: the filtering predicates, the order,
// the parent columns, the key of each row's cursor.
type pageSource[F comparable, T any] struct {
	partition []string // the columns naming a row's parent: one, or two for a composite parent
	order     func(F) page.Order
	parentOf  func(T) string
	idOf      func(T) string
	cursorKey func(T, F) any
	timeKeyed bool // whether the sort column is a timestamp (else text)
	// rows returns the matching children of any parent, narrowed by modify to the parents, each
	// parent's first rows in the order; count counts all the matching rows of each of the
	// parents. fromQuery makes both; rows binds scope (nil for none) to its query.
	rows  func(ctx context.Context, c *ent.Client, f F, scope *rule.ParentScope, modify ...func(*sql.Selector)) ([]T, error)
	count func(ctx context.Context, c *ent.Client, parents []string, f F) (map[string]int, error)
}

// childQuery is the part of an ent query (T its entity, S its select type) that pages read.
type childQuery[T, S any] interface {
	Modify(modifiers ...func(*sql.Selector)) S
	All(ctx context.Context) ([]T, error)
}

// fromQuery returns src reading its children from query, a fresh ent query of the matching
// children of any parent (the page's modifiers narrow it to the parents asked for): the rows with
// the page's modifiers, and the counts grouped by the partition (a composite parent named by its
// two columns' values joined by a space).
func fromQuery[F comparable, T any, Q childQuery[T, S], S scanner](src pageSource[F, T], query func(*ent.Client, F) Q) pageSource[F, T] {
	src.rows = func(ctx context.Context, c *ent.Client, f F, scope *rule.ParentScope, modify ...func(*sql.Selector)) ([]T, error) {
		q := query(c, f)
		if scope != nil {
			wq, err := intercept.NewQuery(q)
			if err != nil {
				return nil, err
			}
			wq.WhereP(scope.Bind) // before the privacy filters, which All adds
			ctx = scope.Context(ctx)
		}
		q.Modify(modify...)
		rows, err := q.All(ctx)
		if err == nil && scope != nil {
			err = scope.Left()
		}
		if err != nil {
			return nil, err
		}
		return rows, nil
	}
	src.count = func(ctx context.Context, c *ent.Client, parents []string, f F) (map[string]int, error) {
		ofParents := func(modify ...func(*sql.Selector)) S {
			return query(c, f).Modify(append([]func(*sql.Selector){childrenOf(src.partition, parents)}, modify...)...)
		}
		if len(src.partition) == 1 {
			return countBy(ctx, src.partition[0], ofParents)
		}
		pairs, err := countByPair(ctx, src.partition, ofParents)
		counts := make(map[string]int, len(pairs))
		for k, n := range pairs {
			counts[k[0]+" "+k[1]] = n
		}
		return counts, err
	}
	return src
}

// pages returns a batch reading pages of src's children, one statement per filter, size and
// cursor (and one more to count when asked), whatever the number of parents. The children of all
// the parents form one level.
func pages[F comparable, T comparable](name string, src pageSource[F, T]) *Batch[pageKey[F], Page[T]] {
	return NewBatch(name, func(ctx context.Context, c *ent.Client, keys []pageKey[F]) (map[pageKey[F]]Page[T], error) {
		groups := map[pageGroup[F]][]string{}
		for _, k := range keys {
			g := pageGroup[F]{k.Filter, k.Limit, k.After, k.Count, k.Columns}
			groups[g] = append(groups[g], k.Parent)
		}
		found := map[pageKey[F]]Page[T]{}
		var level []T
		for g, parents := range groups {
			pages, err := loadGroup(ctx, c, src, g, parents)
			if err != nil {
				return nil, err
			}
			for parent, p := range pages {
				found[pageKey[F]{parent, g.Filter, g.Limit, g.After, g.Count, g.Columns}] = p
				level = append(level, p.Items...)
			}
		}
		Level(ctx, level)
		return found, nil
	})
}

// childrenOf narrows a query to the children of the parents, named by the values of the
// partition's columns: one column, or two for a composite parent ("a b"), where it keeps every
// first value × every second one, and rows of pairs nobody asked for are dropped by parent.
func childrenOf(partition, parents []string) func(*sql.Selector) {
	values := make([][]any, len(partition))
	for _, p := range parents {
		parts := strings.SplitN(p, " ", len(partition))
		for i := range values {
			values[i] = append(values[i], parts[i])
		}
	}
	return func(s *sql.Selector) {
		for i, col := range partition {
			s.Where(sql.In(s.C(col), values[i]...))
		}
	}
}

// pageOf returns the page key of a parent's children.
func pageOf[F comparable](parent string, f F, a page.Args) pageKey[F] {
	return pageKey[F]{parent, f, a.Limit, encode(a.After), a.Count, a.Columns}
}

func loadGroup[F comparable, T any](ctx context.Context, c *ent.Client, src pageSource[F, T], g pageGroup[F], parents []string) (map[string]Page[T], error) {
	order := src.order(g.Filter)
	modifiers := []func(*sql.Selector){}
	if g.After != "" {
		cur, err := page.Decode(g.After)
		if err != nil {
			return nil, err
		}
		key, err := cur.Value(src.timeKeyed)
		if err != nil {
			return nil, err
		}
		modifiers = append(modifiers, func(s *sql.Selector) { order.After(s, key, cur.ID) })
	}
	if read := page.ReadColumns(g.Columns, slices.Concat([]string{"id", order.Column}, src.partition)...); read != nil {
		modifiers = append(modifiers, read)
	}
	var scope *rule.ParentScope
	if len(src.partition) == 1 {
		scope = rule.NewParentScope(src.partition[0], page.ParentRef)
		modifiers = append(modifiers, order.TopPerParent(g.Limit+1, src.partition[0], parents, scope.Take))
	} else {
		modifiers = append(modifiers, childrenOf(src.partition, parents), order.LimitPerParent(g.Limit+1, src.partition...))
	}
	rows, err := src.rows(ctx, c, g.Filter, scope, modifiers...)
	if err != nil {
		return nil, err
	}
	var counts map[string]int
	if g.Count {
		if counts, err = src.count(ctx, c, parents, g.Filter); err != nil {
			return nil, err
		}
	}
	byParent := map[string][]T{}
	for _, r := range rows {
		byParent[src.parentOf(r)] = append(byParent[src.parentOf(r)], r)
	}
	pages := make(map[string]Page[T], len(parents))
	for _, p := range parents {
		pages[p] = page.Trim(byParent[p], g.Limit, counts[p], func(r T) page.Cursor {
			return page.Cursor{Key: src.cursorKey(r, g.Filter), ID: src.idOf(r)}
		})
	}
	return pages, nil
}

// MemberFilter narrows and sorts an organization's members.
type MemberFilter struct {
	Role     viewer.Role // "" for any role
	Guests   bool        // only guests (members without a role)
	Search   string      // contained in the display name or email, any case
	LastSeen bool        // sort by last-seen time (listing only members seen once) instead of join time
	Asc      bool
}

// MemberPage returns one page of an organization's members.
func (l *Loaders) MemberPage(ctx context.Context, o *ent.Organization, f MemberFilter, a page.Args) (Page[*ent.Member], error) {
	return Get(ctx, l.client, memberPages, o, func(o *ent.Organization) pageKey[MemberFilter] { return pageOf(o.ID, f, a) })
}

var memberPages = pages("member pages", fromQuery(pageSource[MemberFilter, *ent.Member]{
	partition: []string{member.FieldOrganizationID},
	order: func(f MemberFilter) page.Order {
		if f.LastSeen {
			return page.Order{Column: member.FieldLastSeenAt, Desc: !f.Asc}
		}
		return page.Order{Column: member.FieldJoinedAt, Desc: !f.Asc}
	},
	parentOf: func(m *ent.Member) string { return m.OrganizationID },
	idOf:     func(m *ent.Member) string { return m.ID },
	cursorKey: func(m *ent.Member, f MemberFilter) any {
		if f.LastSeen && m.LastSeenAt != nil {
			return *m.LastSeenAt
		}
		return m.JoinedAt
	},
	timeKeyed: true,
}, func(c *ent.Client, f MemberFilter) *ent.MemberQuery {
	return c.Member.Query().Where(f.predicates()...).WithUser() // the user is an edge: eager-loaded
}))

func (f MemberFilter) predicates() []predicate.Member {
	var p []predicate.Member
	switch {
	case f.Guests:
		p = append(p, member.RoleIsNil())
	case f.Role != "":
		p = append(p, member.RoleEQ(f.Role))
	}
	if f.Search != "" {
		p = append(p, member.HasUserWith(user.Or(user.DisplayNameContainsFold(f.Search), user.EmailContainsFold(f.Search))))
	}
	if f.LastSeen {
		p = append(p, member.LastSeenAtNotNil())
	}
	return p
}

type scanner interface {
	Scan(ctx context.Context, v any) error
}

// countBy counts the rows of a query per value of a parent column, in one statement.
func countBy[S scanner](ctx context.Context, col string, modify func(...func(*sql.Selector)) S) (map[string]int, error) {
	var rows []struct {
		Parent string `json:"parent"`
		Count  int    `json:"count"`
	}
	err := modify(func(s *sql.Selector) {
		s.Select(sql.As(s.C(col), "parent"), sql.As(sql.Count("*"), "count")).GroupBy(s.C(col))
	}).Scan(ctx, &rows)
	counts := make(map[string]int, len(rows))
	for _, r := range rows {
		counts[r.Parent] = r.Count
	}
	return counts, err
}

// countByMember counts the rows of a query per (organization_id, user_id), in one statement.
func countByMember[S scanner](ctx context.Context, modify func(...func(*sql.Selector)) S) (map[MemberKey]int, error) {
	pairs, err := countByPair(ctx, []string{"organization_id", "user_id"}, modify)
	counts := make(map[MemberKey]int, len(pairs))
	for k, n := range pairs {
		counts[MemberKey{k[0], k[1]}] = n
	}
	return counts, err
}

// countByPair counts the rows of a query per value of two columns, in one statement.
func countByPair[S scanner](ctx context.Context, cols []string, modify func(...func(*sql.Selector)) S) (map[[2]string]int, error) {
	var rows []struct {
		A     string `json:"a"`
		B     string `json:"b"`
		Count int    `json:"count"`
	}
	err := modify(func(s *sql.Selector) {
		s.Select(sql.As(s.C(cols[0]), "a"), sql.As(s.C(cols[1]), "b"), sql.As(sql.Count("*"), "count")).
			GroupBy(s.C(cols[0]), s.C(cols[1]))
	}).Scan(ctx, &rows)
	counts := make(map[[2]string]int, len(rows))
	for _, r := range rows {
		counts[[2]string{r.A, r.B}] = r.Count
	}
	return counts, err
}

func encode(c *page.Cursor) string {
	if c == nil {
		return ""
	}
	return c.Encode()
}

// TeamFilter narrows an organization's teams.
type TeamFilter struct {
	Title string // contained in the title, any case
	Owner string // user id: only teams this user owns
}

// TeamPage returns one page of an organization's teams, by title.
func (l *Loaders) TeamPage(ctx context.Context, o *ent.Organization, f TeamFilter, a page.Args) (Page[*ent.Team], error) {
	return Get(ctx, l.client, teamPages, o, func(o *ent.Organization) pageKey[TeamFilter] { return pageOf(o.ID, f, a) })
}

var teamPages = pages("team pages", fromQuery(pageSource[TeamFilter, *ent.Team]{
	partition: []string{team.FieldOrganizationID},
	order:     func(TeamFilter) page.Order { return page.Order{Column: team.FieldTitle} },
	parentOf:  func(t *ent.Team) string { return t.OrganizationID },
	idOf:      func(t *ent.Team) string { return t.ID },
	cursorKey: func(t *ent.Team, _ TeamFilter) any { return t.Title },
}, func(c *ent.Client, f TeamFilter) *ent.TeamQuery {
	return c.Team.Query().Where(f.predicates()...)
}))

func (f TeamFilter) predicates() []predicate.Team {
	var where []predicate.Team
	if f.Title != "" {
		where = append(where, team.TitleContainsFold(f.Title))
	}
	if f.Owner != "" {
		where = append(where, team.HasMembershipsWith(teammember.UserID(f.Owner), teammember.RoleEQ(viewer.TeamOwner)))
	}
	return where
}

// RosterPage returns one page of a team's members, in the order they joined the team.
func (l *Loaders) RosterPage(ctx context.Context, t *ent.Team, a page.Args) (Page[*ent.TeamMember], error) {
	return Get(ctx, l.client, rosterPages, t, func(t *ent.Team) pageKey[struct{}] { return pageOf(t.ID, struct{}{}, a) })
}

var rosterPages = pages("roster pages", teamMemberSource([]string{teammember.FieldTeamID},
	func(tm *ent.TeamMember) string { return tm.TeamID },
	func(struct{}) []predicate.TeamMember { return nil }))

// UserTeamFilter narrows a member's teams to a title.
type UserTeamFilter struct {
	Title string
}

// UserTeamPage returns one page of the teams a member belongs to in their organization. The
// parent of a page is the membership (organization, user), so the pages of members of several
// organizations share one statement.
func (l *Loaders) UserTeamPage(ctx context.Context, m *ent.Member, f UserTeamFilter, a page.Args) (Page[*ent.TeamMember], error) {
	return Get(ctx, l.client, userTeamPages, m, func(m *ent.Member) pageKey[UserTeamFilter] {
		return pageOf(membershipParent(m.OrganizationID, m.UserID), f, a)
	})
}

// membershipParent names the parent (organization, user) of a member's team list as pages name a
// composite parent (fromQuery); ids never contain a space.
func membershipParent(orgID, userID string) string { return orgID + " " + userID }

var userTeamPages = pages("user team pages", teamMemberSource([]string{teammember.FieldOrganizationID, teammember.FieldUserID},
	func(tm *ent.TeamMember) string { return membershipParent(tm.OrganizationID, tm.UserID) },
	func(f UserTeamFilter) []predicate.TeamMember {
		if f.Title == "" {
			return nil
		}
		return []predicate.TeamMember{teammember.HasTeamWith(team.TitleContainsFold(f.Title))}
	}))

// teamMemberSource lists team memberships by parent (a team, or a membership), oldest first.
func teamMemberSource[F comparable](parentCols []string, parentOf func(*ent.TeamMember) string,
	where func(F) []predicate.TeamMember) pageSource[F, *ent.TeamMember] {
	return fromQuery(pageSource[F, *ent.TeamMember]{
		partition: parentCols,
		order:     func(F) page.Order { return page.Order{Column: teammember.FieldCreatedAt} },
		parentOf:  parentOf,
		idOf:      func(tm *ent.TeamMember) string { return tm.ID },
		cursorKey: func(tm *ent.TeamMember, _ F) any { return tm.CreatedAt },
		timeKeyed: true,
	}, func(c *ent.Client, f F) *ent.TeamMemberQuery {
		return c.TeamMember.Query().Where(where(f)...)
	})
}

// InvitePage returns one page of an organization's invite links, newest first.
func (l *Loaders) InvitePage(ctx context.Context, o *ent.Organization, a page.Args) (Page[*ent.InviteLink], error) {
	return Get(ctx, l.client, invitePages, o, func(o *ent.Organization) pageKey[struct{}] { return pageOf(o.ID, struct{}{}, a) })
}

var invitePages = pages("invite pages", fromQuery(pageSource[struct{}, *ent.InviteLink]{
	partition: []string{invitelink.FieldOrganizationID},
	order:     func(struct{}) page.Order { return page.Order{Column: invitelink.FieldCreatedAt, Desc: true} },
	parentOf:  func(i *ent.InviteLink) string { return i.OrganizationID },
	idOf:      func(i *ent.InviteLink) string { return i.ID },
	cursorKey: func(i *ent.InviteLink, _ struct{}) any { return i.CreatedAt },
	timeKeyed: true,
}, func(c *ent.Client, _ struct{}) *ent.InviteLinkQuery {
	return c.InviteLink.Query()
}))

// CustomFieldPage returns one page of an organization's custom fields, by name.
func (l *Loaders) CustomFieldPage(ctx context.Context, o *ent.Organization, a page.Args) (Page[*ent.CustomField], error) {
	return Get(ctx, l.client, fieldPages, o, func(o *ent.Organization) pageKey[struct{}] { return pageOf(o.ID, struct{}{}, a) })
}

var fieldPages = pages("custom field pages", fromQuery(pageSource[struct{}, *ent.CustomField]{
	partition: []string{customfield.FieldOrganizationID},
	order:     func(struct{}) page.Order { return page.Order{Column: customfield.FieldName} },
	parentOf:  func(f *ent.CustomField) string { return f.OrganizationID },
	idOf:      func(f *ent.CustomField) string { return f.ID },
	cursorKey: func(f *ent.CustomField, _ struct{}) any { return f.Name },
}, func(c *ent.Client, _ struct{}) *ent.CustomFieldQuery {
	return c.CustomField.Query()
}))

// SiteFilter narrows an organization's sites.
type SiteFilter struct {
	Space     string // only sites showing this space
	Title     string // contained in the title, any case
	Published string // "true" or "false": only published or unpublished sites; "" for both
}

// SitePage returns one page of an organization's sites, by title.
func (l *Loaders) SitePage(ctx context.Context, o *ent.Organization, f SiteFilter, a page.Args) (Page[*ent.Site], error) {
	return Get(ctx, l.client, sitePages, o, func(o *ent.Organization) pageKey[SiteFilter] { return pageOf(o.ID, f, a) })
}

var sitePages = pages("site pages", fromQuery(pageSource[SiteFilter, *ent.Site]{
	partition: []string{site.FieldOrganizationID},
	order:     func(SiteFilter) page.Order { return page.Order{Column: site.FieldTitle} },
	parentOf:  func(s *ent.Site) string { return s.OrganizationID },
	idOf:      func(s *ent.Site) string { return s.ID },
	cursorKey: func(s *ent.Site, _ SiteFilter) any { return s.Title },
}, func(c *ent.Client, f SiteFilter) *ent.SiteQuery {
	return c.Site.Query().Where(f.predicates()...)
}))

func (f SiteFilter) predicates() []predicate.Site {
	var where []predicate.Site
	if f.Space != "" {
		where = append(where, site.HasSiteSpacesWith(sitespace.SpaceID(f.Space)))
	}
	if f.Title != "" {
		where = append(where, site.TitleContainsFold(f.Title))
	}
	if f.Published != "" {
		where = append(where, site.Published(f.Published == "true"))
	}
	return where
}
