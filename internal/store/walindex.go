package store

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

// SQLite's wal-index (the "-shm" file beside a database in WAL mode) begins with two copies of
// its header, which every commit rewrites: the last frame of the log, its checksum, the log's
// salts (https://www.sqlite.org/walformat.html#the_wal_index_file_format). Its format is fixed,
// since processes running different SQLite versions share it.
const (
	walIndexHeaderSize = 48
	walIndexIsInit     = 12 // the byte set once the header was written
	walIndexChecksum   = 40 // where the checksum of the 40 bytes before it is
)

// walIndexHeader returns the header of the wal-index mem, read the way SQLite's readers read it
// before each read transaction (walIndexTryHdr in wal.c): the first copy, then the second, taken
// when they agree, are initialized, and hold their checksum. A writer writes the second copy,
// then the first, so copies that agree are not half written; ok is false while one is.
//
// A reader whose last header equals this one keeps its page cache (SQLite itself decides so), so
// two equal headers name the same database: the header is the database's version, read without
// a lock or a system call. mem is shared memory, so each word is loaded atomically and in order.
func walIndexHeader(mem []byte) (header [walIndexHeaderSize]byte, ok bool) {
	var second [walIndexHeaderSize]byte
	loadWords(header[:], mem[:walIndexHeaderSize])
	loadWords(second[:], mem[walIndexHeaderSize:2*walIndexHeaderSize])
	if header != second || header[walIndexIsInit] == 0 {
		return header, false
	}
	s1, s2 := walChecksum(header[:walIndexChecksum])
	return header, s1 == binary.NativeEndian.Uint32(header[walIndexChecksum:]) &&
		s2 == binary.NativeEndian.Uint32(header[walIndexChecksum+4:])
}

// walChecksum is SQLite's checksum of the header in the machine's byte order (walChecksumBytes
// with nativeCksum set, as walIndexWriteHdr computes it).
func walChecksum(b []byte) (s1, s2 uint32) {
	for i := 0; i < len(b); i += 8 {
		s1 += binary.NativeEndian.Uint32(b[i:]) + s2
		s2 += binary.NativeEndian.Uint32(b[i+4:]) + s1
	}
	return s1, s2
}

// loadWords copies src to dst four bytes at a time, each an atomic load of shared memory, in
// order (len(src) is a multiple of 4 and src is 4-byte aligned: it begins a page).
func loadWords(dst, src []byte) {
	for i := 0; i < len(src); i += 4 {
		binary.NativeEndian.PutUint32(dst[i:], atomic.LoadUint32((*uint32)(unsafe.Pointer(&src[i]))))
	}
}
