package tree

// Move is a page whose path is new: From is where it was in the older tree ("" for a page the
// older tree did not have), To where it is now.
type Move struct {
	PageID   string
	From, To string
}

// Moves lists the pages of new whose path is not the one they had in old, given the keys of the
// entries that differ between the two (Store.Diff): the changed pages, and the pages under a page
// whose own path changed (their paths follow it, though their entries did not change). Its cost
// follows the change, not the size of the trees.
func Moves(old, new *Tree, changed []string) []Move {
	var out []Move
	seen := map[string]bool{}
	add := func(id string) bool {
		from, to := old.Path(id), new.Path(id)
		if seen[id] || from == to {
			return false
		}
		seen[id] = true
		out = append(out, Move{PageID: id, From: from, To: to})
		return true
	}
	for _, id := range changed {
		if new.Page(id) == nil || !add(id) || old.Page(id) == nil {
			continue
		}
		for _, d := range new.Descendants(id) {
			add(d)
		}
	}
	return out
}
