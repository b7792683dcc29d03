package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/store"
)

// storeFlags are the flags that say where the data lives, shared by every command.
type storeFlags struct {
	data, db string
	fullSync bool
	blobs    blobFlags
	hooks    store.Hooks // set by serve: its metrics time the statements
}

func (s *storeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.data, "data", envOr("BINDERY_DATA", "./bindery-data"), "data directory (env BINDERY_DATA)")
	fs.StringVar(&s.db, "db", envOr("BINDERY_DB", ""), "postgres://… DSN; empty for the embedded SQLite database (env BINDERY_DB)")
	fs.BoolVar(&s.fullSync, "sync-full", envOr("BINDERY_SYNC_FULL", "") == "1",
		"SQLite: fsync every commit, durable against power loss (env BINDERY_SYNC_FULL=1)")
	s.blobs.register(fs)
}

// open opens the store. The failures an operator fixes before starting again — a data directory
// that cannot be written, a PostgreSQL that does not answer or refuses — say in one line what to
// do (decision 296).
func (s *storeFlags) open(ctx context.Context) (*store.Store, error) {
	if s.db == "" || s.blobs.where == store.BlobsDir {
		if err := checkWritable(s.data); err != nil {
			return nil, err
		}
	}
	st, err := store.Open(ctx, s.storeOptions())
	if err != nil {
		return nil, explainPostgres(s.db, err)
	}
	return st, nil
}

func parse(fs *flag.FlagSet, args []string, required ...string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	for _, name := range required {
		if fs.Lookup(name).Value.String() == "" {
			return fmt.Errorf("%s: --%s is required", fs.Name(), name)
		}
	}
	return nil
}

func bootstrap(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("bootstrap", flag.ContinueOnError)
	var sf storeFlags
	sf.register(fs)
	email := fs.String("email", "", "email of the admin user")
	name := fs.String("name", "", "display name of the admin user")
	org := fs.String("org", "", "title of the organization")
	if err := parse(fs, args, "email", "name", "org"); err != nil {
		return err
	}
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	u, o, token, err := accounts.Bootstrap(ctx, st.Client, *email, *name, *org)
	if err != nil {
		return err
	}
	return printJSON(map[string]any{"user": map[string]string{"id": u.ID}, "organization": map[string]string{"id": o.ID}, "token": token})
}

func userCreate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("user create", flag.ContinueOnError)
	var sf storeFlags
	sf.register(fs)
	email := fs.String("email", "", "email of the user")
	name := fs.String("name", "", "display name of the user")
	org := fs.String("org", "", "id of an organization the user joins")
	roleName := fs.String("role", "", "role in that organization: admin, create, edit, review, comment, read or guest")
	if err := parse(fs, args, "email", "name"); err != nil {
		return err
	}
	nu := accounts.NewUser{Email: *email, Name: *name, OrgID: *org}
	if *org != "" {
		role, err := parseMemberRole(*roleName)
		if err != nil {
			return err
		}
		nu.Role = role
	} else if *roleName != "" {
		return errors.New("user create: --role needs --org")
	}
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	u, token, err := accounts.CreateUser(ctx, st.Client, nu)
	if err != nil {
		return err
	}
	return printJSON(map[string]any{"user": map[string]string{"id": u.ID}, "token": token})
}

// parseMemberRole reads --role: a Role, or guest (no role); empty means read.
func parseMemberRole(s string) (*viewer.Role, error) {
	switch s {
	case "guest":
		return nil, nil
	case "":
		s = string(viewer.RoleRead)
	}
	r, err := viewer.ParseRole(s)
	if err != nil {
		return nil, fmt.Errorf("--role: %w, or guest", err)
	}
	return &r, nil
}

func tokenCreate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("token create", flag.ContinueOnError)
	var sf storeFlags
	sf.register(fs)
	email := fs.String("email", "", "email of the user the token is for")
	label := fs.String("label", "cli", "a label for the token")
	if err := parse(fs, args, "email"); err != nil {
		return err
	}
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := accounts.UserByEmail(ctx, st.Client, *email)
	if err != nil {
		return err
	}
	token, err := accounts.CreateToken(ctx, st.Client, u.ID, *label)
	if err != nil {
		return err
	}
	return printJSON(map[string]string{"token": token})
}

func tokenRevoke(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("token revoke", flag.ContinueOnError)
	var sf storeFlags
	sf.register(fs)
	token := fs.String("token", "", "the token to revoke")
	email := fs.String("email", "", "revoke every token of this user instead")
	if err := parse(fs, args); err != nil {
		return err
	}
	if (*token == "") == (*email == "") {
		return errors.New("token revoke: give exactly one of --token or --email")
	}
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if *token != "" {
		if err := accounts.RevokeToken(ctx, st.Client, *token); err != nil {
			return fmt.Errorf("token revoke: %w", err)
		}
		return printJSON(map[string]int{"revoked": 1})
	}
	u, err := accounts.UserByEmail(ctx, st.Client, *email)
	if err != nil {
		return err
	}
	n, err := accounts.RevokeUserTokens(ctx, st.Client, u.ID)
	if err != nil {
		return err
	}
	return printJSON(map[string]int{"revoked": n})
}

func migrate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	var sf storeFlags
	sf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	st, err := sf.open(ctx) // opening migrates
	if err != nil {
		return err
	}
	defer st.Close()
	return printJSON(map[string]string{"migrated": "ok"})
}
