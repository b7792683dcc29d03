package store

import (
	"context"
	"fmt"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
)

// numberGitCommits numbers the commits recorded without a number: until decision 537 numbered
// them (git_commits.seq) and kept their pages' files as runs over those numbers (git_pages), git
// commits had none. Such a commit is never read as synced (gitsync.PagesOf asks for its number),
// and the next sync numbered its commits from 1 past them. It gives every space's unnumbered
// commits the first numbers, in the order they were recorded, and moves the space's numbered
// commits and the runs of its pages up by as many, so numbers follow the commits' order in each
// space. It runs in one transaction and finds nothing to do when run again (decision 567).
func numberGitCommits(ctx context.Context, writer dialect.Driver) error {
	return inTx(ctx, writer, func(db entsql.ExecQuerier) error {
		spaces, err := unnumberedGitSpaces(ctx, db)
		if err != nil {
			return err
		}
		for space, n := range spaces {
			if err := numberSpaceCommits(ctx, db, space, n); err != nil {
				return fmt.Errorf("number the git commits of space %s: %w", space, err)
			}
		}
		return nil
	})
}

// unnumberedGitSpaces counts the commits without a number, by space.
func unnumberedGitSpaces(ctx context.Context, db entsql.ExecQuerier) (map[string]int64, error) {
	rows, err := db.QueryContext(ctx, `SELECT space_id, count(*) FROM git_commits WHERE seq IS NULL GROUP BY space_id`)
	if err != nil {
		return nil, fmt.Errorf("find the git commits without a number: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var space string
		var n int64
		if err := rows.Scan(&space, &n); err != nil {
			return nil, err
		}
		out[space] = n
	}
	return out, rows.Err()
}

// numberSpaceCommits moves the space's numbered commits and its pages' runs up by n, then numbers
// its n unnumbered commits 1 to n in the order they were recorded (time, then id): counting the
// commits numbered at most n or not yet, as SQLite's update sees the rows it already changed.
// ($1 and $2 are placeholders both databases take, first seen in that order.)
func numberSpaceCommits(ctx context.Context, db entsql.ExecQuerier, space string, n int64) error {
	for _, query := range []string{
		`UPDATE git_commits SET seq = seq + $1 WHERE space_id = $2 AND seq IS NOT NULL`,
		`UPDATE git_pages SET from_seq = from_seq + $1, to_seq = to_seq + $1 WHERE space_id = $2`,
		`UPDATE git_commits SET seq = (SELECT count(*) FROM git_commits o WHERE o.space_id = git_commits.space_id
			AND (o.seq IS NULL OR o.seq <= $1)
			AND (o.created_at < git_commits.created_at OR o.created_at = git_commits.created_at AND o.id <= git_commits.id))
		WHERE space_id = $2 AND seq IS NULL`,
	} {
		if _, err := db.ExecContext(ctx, query, n, space); err != nil {
			return err
		}
	}
	return nil
}

// markGitPagesPending marks the numbered commits whose pages were never recorded as pending
// (git_commits.pages_pending), for the backfill job to read them (decision 584): those numbered
// below the first run of their space's pages, or of a space without runs. A commit recorded
// since decision 537 starts runs at its number for every page its revision has, so only the
// commits numbered by numberGitCommits (and a space's commits of no page, which the backfill
// then finds none for) are below them. Run again, it marks only commits the backfill found no
// pages in (it reads them once more).
func markGitPagesPending(ctx context.Context, writer dialect.Driver) error {
	return inTx(ctx, writer, func(db entsql.ExecQuerier) error {
		_, err := db.ExecContext(ctx, `UPDATE git_commits SET pages_pending = true
			WHERE seq IS NOT NULL AND NOT pages_pending
			AND seq < COALESCE((SELECT min(p.from_seq) FROM git_pages p WHERE p.space_id = git_commits.space_id), seq + 1)`)
		if err != nil {
			return fmt.Errorf("mark the git commits whose pages are not recorded: %w", err)
		}
		return nil
	})
}
