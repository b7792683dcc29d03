//go:build unix

package store

import (
	"fmt"
	"os"
	"syscall"
)

// mapWALIndex maps the headers of the wal-index of the SQLite database at dbPath, read-only. Call
// it while a connection of this process has the database open in WAL mode, and unmap before the
// last one closes: SQLite truncates the file only when it is opened with no connection holding
// it, so the mapped bytes stay within it.
func mapWALIndex(dbPath string) (mem []byte, unmap func() error, err error) {
	f, err := os.Open(dbPath + "-shm")
	if err != nil {
		return nil, nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if info.Size() < 2*walIndexHeaderSize {
		return nil, nil, fmt.Errorf("%s holds %d bytes, less than the wal-index's headers", f.Name(), info.Size())
	}
	mem, err = syscall.Mmap(int(f.Fd()), 0, 2*walIndexHeaderSize, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("map %s: %w", f.Name(), err)
	}
	return mem, func() error { return syscall.Munmap(mem) }, nil
}
