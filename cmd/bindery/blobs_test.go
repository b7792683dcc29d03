package main

import (
	"context"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/blobs"
)

func TestBlobsMigrate(t *testing.T) {
	d := newDataDir(t)
	st := d.open(t)
	data := []byte("bytes of an uploaded file")
	if err := st.Blobs.Put(context.Background(), blobs.Hash(data), data); err != nil {
		t.Fatal(err)
	}
	if err := st.Client.FileBlob.Create().SetID(blobs.Hash(data)).SetSize(int64(len(data))).Exec(accounts.System(context.Background())); err != nil {
		t.Fatal(err)
	}
	to := t.TempDir()
	var res blobs.Result
	d.mustCLI(t, &res, "blobs", "migrate", "--to", to)
	if res.Copied != 1 || res.Present != 0 || len(res.Missing) != 0 {
		t.Errorf("first run: %+v, want 1 copied", res)
	}
	d.mustCLI(t, &res, "blobs", "migrate", "--to", to)
	if res.Copied != 0 || res.Present != 1 {
		t.Errorf("second run: %+v, want 1 present", res)
	}
	dst, err := blobs.NewDir(to)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := blobs.Read(context.Background(), dst, blobs.Hash(data)); err != nil || string(got) != string(data) {
		t.Errorf("the copy: %q, %v", got, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"blobs", "migrate"}, "--to is required"},
		{[]string{"blobs", "migrate", "--to", "relative/dir"}, "not db, dir, an absolute directory"},
		{[]string{"blobs", "copy"}, `unknown subcommand "copy"`},
	} {
		if _, err := d.cli(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("bindery %s: %v, want an error saying %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}
