package loader

import (
	"context"
	"strings"

	"entgo.io/ent/dialect/sql"
	"github.com/graph-gophers/dataloader/v7"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/customfield"
	"github.com/binderyhq/bindery/ent/invitelink"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/page"
)

// Page is one page of a list.
type Page[T any] = page.Page[T]

// pageKey asks for one page of a parent's children: the same filter, size and cursor for several
// parents share one statement.
type pageKey[F comparable] struct {
	Parent string
	Filter F
	Limit  int
	After  string // encoded cursor, "" for the first page
}

type pageGroup[F comparable] struct {
	Filter F
	Limit  int
	After  string
}

// pageSource says how to load the children of many parents: the filtering predicates, the order,
// the parent columns, the key of each row's cursor.
type pageSource[F comparable, T any] struct {
	partition []string // the columns naming a row's parent: one, or several for a composite parent
	order     func(F) page.Order
	parentOf  func(T) string
	idOf      func(T) string
	cursorKey func(T, F) any
	timeKeyed bool // whether the sort column is a timestamp (else text)
	// fetch returns the matching children of the parents, each parent's first limit rows in the
	// order when modify is applied, and counts per parent of all the matching rows.
	fetch func(ctx context.Context, parents []string, f F, modify ...func(*sql.Selector)) ([]T, map[string]int, error)
}

func loadPages[F comparable, T any](ctx context.Context, src pageSource[F, T], keys []pageKey[F]) []*dataloader.Result[Page[T]] {
	groups := map[pageGroup[F]][]string{}
	for _, k := range keys {
		g := pageGroup[F]{k.Filter, k.Limit, k.After}
		groups[g] = append(groups[g], k.Parent)
	}
	found := map[pageKey[F]]Page[T]{}
	for g, parents := range groups {
		pages, err := loadGroup(ctx, src, g, parents)
		if err != nil {
			return failAll[pageKey[F], Page[T]](keys, err)
		}
		for parent, p := range pages {
			found[pageKey[F]{parent, g.Filter, g.Limit, g.After}] = p
		}
	}
	return results(keys, found, nil)
}

func loadGroup[F comparable, T any](ctx context.Context, src pageSource[F, T], g pageGroup[F], parents []string) (map[string]Page[T], error) {
	order := src.order(g.Filter)
	modifiers := []func(*sql.Selector){}
	if g.After != "" {
		c, err := page.Decode(g.After)
		if err != nil {
			return nil, err
		}
		key, err := c.Value(src.timeKeyed)
		if err != nil {
			return nil, err
		}
		modifiers = append(modifiers, func(s *sql.Selector) { order.After(s, key, c.ID) })
	}
	modifiers = append(modifiers, order.LimitPerParent(g.Limit+1, src.partition...))
	rows, counts, err := src.fetch(ctx, parents, g.Filter, modifiers...)
	if err != nil {
		return nil, err
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
func (l *Loaders) MemberPage(ctx context.Context, orgID string, f MemberFilter, a page.Args) (Page[*ent.Member], error) {
	return l.memberPages.Load(ctx, pageKey[MemberFilter]{orgID, f, a.Limit, encode(a.After)})()
}

func (l *Loaders) loadMemberPages(ctx context.Context, keys []pageKey[MemberFilter]) []*dataloader.Result[Page[*ent.Member]] {
	return loadPages(ctx, pageSource[MemberFilter, *ent.Member]{
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
		fetch: func(ctx context.Context, orgs []string, f MemberFilter, modify ...func(*sql.Selector)) ([]*ent.Member, map[string]int, error) {
			where := append(f.predicates(), member.OrganizationIDIn(orgs...))
			q := l.client.Member.Query().Where(where...).WithUser() // the user is an edge: eager-loaded, no loader wave
			q.Modify(modify...)
			rows, err := q.All(ctx)
			if err != nil {
				return nil, nil, err
			}
			counts, err := countBy(ctx, member.FieldOrganizationID, l.client.Member.Query().Where(where...).Modify)
			return rows, counts, err
		},
	}, keys)
}

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
func (l *Loaders) TeamPage(ctx context.Context, orgID string, f TeamFilter, a page.Args) (Page[*ent.Team], error) {
	return l.teamPages.Load(ctx, pageKey[TeamFilter]{orgID, f, a.Limit, encode(a.After)})()
}

func (l *Loaders) loadTeamPages(ctx context.Context, keys []pageKey[TeamFilter]) []*dataloader.Result[Page[*ent.Team]] {
	return loadPages(ctx, pageSource[TeamFilter, *ent.Team]{
		partition: []string{team.FieldOrganizationID},
		order:     func(TeamFilter) page.Order { return page.Order{Column: team.FieldTitle} },
		parentOf:  func(t *ent.Team) string { return t.OrganizationID },
		idOf:      func(t *ent.Team) string { return t.ID },
		cursorKey: func(t *ent.Team, _ TeamFilter) any { return t.Title },
		fetch: func(ctx context.Context, orgs []string, f TeamFilter, modify ...func(*sql.Selector)) ([]*ent.Team, map[string]int, error) {
			where := []predicate.Team{team.OrganizationIDIn(orgs...)}
			if f.Title != "" {
				where = append(where, team.TitleContainsFold(f.Title))
			}
			if f.Owner != "" {
				where = append(where, team.HasMembershipsWith(teammember.UserID(f.Owner), teammember.RoleEQ(viewer.TeamOwner)))
			}
			q := l.client.Team.Query().Where(where...)
			q.Modify(modify...)
			rows, err := q.All(ctx)
			if err != nil {
				return nil, nil, err
			}
			counts, err := countBy(ctx, team.FieldOrganizationID, l.client.Team.Query().Where(where...).Modify)
			return rows, counts, err
		},
	}, keys)
}

// RosterPage returns one page of a team's members, in the order they joined the team.
func (l *Loaders) RosterPage(ctx context.Context, teamID string, a page.Args) (Page[*ent.TeamMember], error) {
	return l.rosterPages.Load(ctx, pageKey[struct{}]{teamID, struct{}{}, a.Limit, encode(a.After)})()
}

func (l *Loaders) loadRosterPages(ctx context.Context, keys []pageKey[struct{}]) []*dataloader.Result[Page[*ent.TeamMember]] {
	return loadPages(ctx, teamMemberSource(l.client, []string{teammember.FieldTeamID},
		func(tm *ent.TeamMember) string { return tm.TeamID },
		func(teams []string, _ struct{}) []predicate.TeamMember {
			return []predicate.TeamMember{teammember.TeamIDIn(teams...)}
		},
		func(ctx context.Context, q *ent.TeamMemberQuery) (map[string]int, error) {
			return countBy(ctx, teammember.FieldTeamID, q.Modify)
		}), keys)
}

// UserTeamFilter narrows a member's teams to one organization and, optionally, a title.
type UserTeamFilter struct {
	OrgID string
	Title string
}

// UserTeamPage returns one page of the teams a user belongs to in an organization.
// The parent of a page is the membership (organization, user), so the pages of members of several
// organizations share one statement; the filter keeps only the title.
func (l *Loaders) UserTeamPage(ctx context.Context, userID string, f UserTeamFilter, a page.Args) (Page[*ent.TeamMember], error) {
	parent := membershipParent(f.OrgID, userID)
	return l.userTeamPages.Load(ctx, pageKey[UserTeamFilter]{parent, UserTeamFilter{Title: f.Title}, a.Limit, encode(a.After)})()
}

// membershipParent names the parent (organization, user) of a member's team list; ids never
// contain a space.
func membershipParent(orgID, userID string) string { return orgID + " " + userID }

func (l *Loaders) loadUserTeamPages(ctx context.Context, keys []pageKey[UserTeamFilter]) []*dataloader.Result[Page[*ent.TeamMember]] {
	return loadPages(ctx, teamMemberSource(l.client, []string{teammember.FieldOrganizationID, teammember.FieldUserID},
		func(tm *ent.TeamMember) string { return membershipParent(tm.OrganizationID, tm.UserID) },
		func(parents []string, f UserTeamFilter) []predicate.TeamMember {
			// Every organization × every user: rows of pairs nobody asked for are dropped by parent.
			orgs, users := make([]string, len(parents)), make([]string, len(parents))
			for i, p := range parents {
				orgs[i], users[i], _ = strings.Cut(p, " ")
			}
			where := []predicate.TeamMember{teammember.OrganizationIDIn(orgs...), teammember.UserIDIn(users...)}
			if f.Title != "" {
				where = append(where, teammember.HasTeamWith(team.TitleContainsFold(f.Title)))
			}
			return where
		},
		func(ctx context.Context, q *ent.TeamMemberQuery) (map[string]int, error) {
			byMember, err := countByMember(ctx, q.Modify)
			counts := make(map[string]int, len(byMember))
			for k, n := range byMember {
				counts[membershipParent(k.OrgID, k.UserID)] = n
			}
			return counts, err
		}), keys)
}

// teamMemberSource lists team memberships by parent (a team, or a membership), oldest first;
// count counts the rows of a query per parent.
func teamMemberSource[F comparable](client *ent.Client, parentCols []string, parentOf func(*ent.TeamMember) string,
	where func([]string, F) []predicate.TeamMember,
	count func(context.Context, *ent.TeamMemberQuery) (map[string]int, error)) pageSource[F, *ent.TeamMember] {
	return pageSource[F, *ent.TeamMember]{
		partition: parentCols,
		order:     func(F) page.Order { return page.Order{Column: teammember.FieldCreatedAt} },
		parentOf:  parentOf,
		idOf:      func(tm *ent.TeamMember) string { return tm.ID },
		cursorKey: func(tm *ent.TeamMember, _ F) any { return tm.CreatedAt },
		timeKeyed: true,
		fetch: func(ctx context.Context, parents []string, f F, modify ...func(*sql.Selector)) ([]*ent.TeamMember, map[string]int, error) {
			q := client.TeamMember.Query().Where(where(parents, f)...)
			q.Modify(modify...)
			rows, err := q.All(ctx)
			if err != nil {
				return nil, nil, err
			}
			counts, err := count(ctx, client.TeamMember.Query().Where(where(parents, f)...))
			return rows, counts, err
		},
	}
}

// InvitePage returns one page of an organization's invite links, newest first.
func (l *Loaders) InvitePage(ctx context.Context, orgID string, a page.Args) (Page[*ent.InviteLink], error) {
	return l.invitePages.Load(ctx, pageKey[struct{}]{orgID, struct{}{}, a.Limit, encode(a.After)})()
}

func (l *Loaders) loadInvitePages(ctx context.Context, keys []pageKey[struct{}]) []*dataloader.Result[Page[*ent.InviteLink]] {
	return loadPages(ctx, pageSource[struct{}, *ent.InviteLink]{
		partition: []string{invitelink.FieldOrganizationID},
		order:     func(struct{}) page.Order { return page.Order{Column: invitelink.FieldCreatedAt, Desc: true} },
		parentOf:  func(i *ent.InviteLink) string { return i.OrganizationID },
		idOf:      func(i *ent.InviteLink) string { return i.ID },
		cursorKey: func(i *ent.InviteLink, _ struct{}) any { return i.CreatedAt },
		timeKeyed: true,
		fetch: func(ctx context.Context, orgs []string, _ struct{}, modify ...func(*sql.Selector)) ([]*ent.InviteLink, map[string]int, error) {
			q := l.client.InviteLink.Query().Where(invitelink.OrganizationIDIn(orgs...))
			q.Modify(modify...)
			rows, err := q.All(ctx)
			if err != nil {
				return nil, nil, err
			}
			counts, err := countBy(ctx, invitelink.FieldOrganizationID, l.client.InviteLink.Query().Where(invitelink.OrganizationIDIn(orgs...)).Modify)
			return rows, counts, err
		},
	}, keys)
}

// CustomFieldPage returns one page of an organization's custom fields, by name.
func (l *Loaders) CustomFieldPage(ctx context.Context, orgID string, a page.Args) (Page[*ent.CustomField], error) {
	return l.fieldPages.Load(ctx, pageKey[struct{}]{orgID, struct{}{}, a.Limit, encode(a.After)})()
}

func (l *Loaders) loadCustomFieldPages(ctx context.Context, keys []pageKey[struct{}]) []*dataloader.Result[Page[*ent.CustomField]] {
	return loadPages(ctx, pageSource[struct{}, *ent.CustomField]{
		partition: []string{customfield.FieldOrganizationID},
		order:     func(struct{}) page.Order { return page.Order{Column: customfield.FieldName} },
		parentOf:  func(f *ent.CustomField) string { return f.OrganizationID },
		idOf:      func(f *ent.CustomField) string { return f.ID },
		cursorKey: func(f *ent.CustomField, _ struct{}) any { return f.Name },
		fetch: func(ctx context.Context, orgs []string, _ struct{}, modify ...func(*sql.Selector)) ([]*ent.CustomField, map[string]int, error) {
			q := l.client.CustomField.Query().Where(customfield.OrganizationIDIn(orgs...))
			q.Modify(modify...)
			rows, err := q.All(ctx)
			if err != nil {
				return nil, nil, err
			}
			counts, err := countBy(ctx, customfield.FieldOrganizationID, l.client.CustomField.Query().Where(customfield.OrganizationIDIn(orgs...)).Modify)
			return rows, counts, err
		},
	}, keys)
}
