package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// checkWritable creates the data directory when missing and writes a file in it, so a directory
// that cannot be written fails the start in one line rather than deep in SQLite or the blob store.
func checkWritable(dir string) error {
	err := os.MkdirAll(dir, 0o700)
	if err == nil {
		var f *os.File
		if f, err = os.CreateTemp(dir, ".bindery-write-check-*"); err == nil {
			f.Close()
			err = os.Remove(f.Name())
		}
	}
	if err != nil {
		return fmt.Errorf("the data directory %s cannot be written (%v): give the user running bindery write access to it, "+
			"or choose another directory with --data or BINDERY_DATA", dir, cause(err))
	}
	return nil
}

// cause is the system's reason of a file error ("permission denied"), without the path.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// explainPostgres turns a failed connection to the PostgreSQL of dsn into one line saying what
// to do: a server that does not answer, or one that refuses (user, password, database). It
// names the host and port, never the DSN (which may hold a password). Other errors are returned
// as they are.
func explainPostgres(dsn string, err error) error {
	var connect *pgconn.ConnectError
	if dsn == "" || !errors.As(err, &connect) {
		return err
	}
	where := "the --db server"
	if cfg, perr := pgx.ParseConfig(dsn); perr == nil {
		where = net.JoinHostPort(cfg.Host, fmt.Sprint(cfg.Port))
	}
	var refused *pgconn.PgError
	if errors.As(err, &refused) {
		return fmt.Errorf("PostgreSQL at %s refused the connection (%s): check the user, password and database named by --db or BINDERY_DB",
			where, oneLine(refused.Message))
	}
	return fmt.Errorf("PostgreSQL at %s does not answer (%s): start it, or point --db or BINDERY_DB at one that runs",
		where, oneLine(networkReason(connect).Error()))
}

// networkReason is the innermost reason of a failed connection: the name lookup's, or the
// socket's ("connect: connection refused"), else the whole error.
func networkReason(err error) error {
	if dns := new(net.DNSError); errors.As(err, &dns) {
		return dns
	}
	if op := new(net.OpError); errors.As(err, &op) {
		return op.Err
	}
	return err
}

// oneLine is s on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
