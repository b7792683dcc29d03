// Command bindery runs the Bindery server and its administration commands:
//
//	bindery [serve] [--addr HOST:PORT] [--data DIR] [--db DSN]
//	bindery bootstrap --email E --name N --org TITLE [--data DIR] [--db DSN]
//	bindery user create --email E --name N [--org ORG_ID --role ROLE] [--data DIR] [--db DSN]
//	bindery token create --email E [--data DIR] [--db DSN]
//	bindery token revoke (--token T | --email E) [--data DIR] [--db DSN]
//	bindery migrate [--data DIR] [--db DSN]
//	bindery backup --out FILE [--data DIR] [--db DSN]
//	bindery restore --from FILE [--data DIR]
//	bindery healthcheck [--addr HOST:PORT]
//	bindery import --space ID [--change-request ID] [--token T] [--server URL] FOLDER
//	bindery blobs migrate --to (db|dir|DIR|s3://bucket/prefix) [--data DIR] [--db DSN] [--blobs …]
//
// Every command but restore works while a server runs on the same data directory or database;
// import is a client of a running server's API.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "bindery:", err)
		}
		if errors.As(err, new(unhealthyError)) {
			os.Exit(1)
		}
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] == "" || args[0][0] == '-' {
		return serve(ctx, args)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return serve(ctx, rest)
	case "bootstrap":
		return bootstrap(ctx, rest)
	case "migrate":
		return migrate(ctx, rest)
	case "backup":
		return backupCmd(ctx, rest)
	case "restore":
		return restoreCmd(ctx, rest)
	case "healthcheck":
		return healthcheck(ctx, rest)
	case "import":
		return importCmd(ctx, rest)
	case "user", "token", "blobs":
		if len(rest) == 0 {
			return fmt.Errorf("%s: name a subcommand (%s)", cmd, subcommands[cmd])
		}
		return sub(ctx, cmd, rest[0], rest[1:])
	}
	return fmt.Errorf("unknown command %q (serve, bootstrap, user create, token create, token revoke, migrate, blobs migrate, backup, restore, healthcheck, import)", cmd)
}

var subcommands = map[string]string{"user": "create", "token": "create or revoke", "blobs": "migrate"}

func sub(ctx context.Context, cmd, name string, args []string) error {
	switch cmd + " " + name {
	case "user create":
		return userCreate(ctx, args)
	case "token create":
		return tokenCreate(ctx, args)
	case "token revoke":
		return tokenRevoke(ctx, args)
	case "blobs migrate":
		return blobsMigrate(ctx, args)
	}
	return fmt.Errorf("%s: unknown subcommand %q (%s)", cmd, name, subcommands[cmd])
}

// stdout receives the commands' JSON output, stderr the first start's message (tests replace them).
var stdout, stderr io.Writer = os.Stdout, os.Stderr

// printJSON writes one JSON line to standard output.
func printJSON(v any) error { return encodeLine(stdout, v) }

// encodeLine writes one JSON line to w.
func encodeLine(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }

// envOr returns the environment variable, or def when it is unset.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}
