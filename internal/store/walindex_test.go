package store

import (
	"encoding/binary"
	"testing"
)

// TestWALIndexHeader: a header is taken only as SQLite's readers take it: both copies equal,
// initialized, and holding their checksum; otherwise the version is asked of SQLite.
func TestWALIndexHeader(t *testing.T) {
	whole := func() []byte {
		mem := make([]byte, 2*walIndexHeaderSize)
		h := mem[:walIndexHeaderSize]
		binary.NativeEndian.PutUint32(h[0:], 3007000) // iVersion
		binary.NativeEndian.PutUint32(h[8:], 41)      // iChange
		h[walIndexIsInit] = 1
		binary.NativeEndian.PutUint32(h[16:], 1234) // mxFrame
		s1, s2 := walChecksum(h[:walIndexChecksum])
		binary.NativeEndian.PutUint32(h[walIndexChecksum:], s1)
		binary.NativeEndian.PutUint32(h[walIndexChecksum+4:], s2)
		copy(mem[walIndexHeaderSize:], h)
		return mem
	}
	header, ok := walIndexHeader(whole())
	if !ok || binary.NativeEndian.Uint32(header[16:]) != 1234 {
		t.Fatalf("a whole header was refused: %v %v", ok, header)
	}
	for name, spoil := range map[string]func(mem []byte){
		"copies differ (a writer between them)": func(mem []byte) { mem[16]++ },
		"not initialized": func(mem []byte) {
			mem[walIndexIsInit], mem[walIndexHeaderSize+walIndexIsInit] = 0, 0
		},
		"checksum wrong": func(mem []byte) { mem[20]++; mem[walIndexHeaderSize+20]++ },
		"all zeros":      func(mem []byte) { clear(mem) },
	} {
		mem := whole()
		spoil(mem)
		if _, ok := walIndexHeader(mem); ok {
			t.Errorf("%s: the header was taken", name)
		}
	}
}
