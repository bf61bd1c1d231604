package main

import (
	"os"
	"syscall"
)

// mapFile maps a file read-only instead of reading it: the self-test
// hashes the running program (16 MB), whose pages are in memory already,
// and a read would copy them into as many new ones (a third of a cold
// start, issue 26). The program cannot change under the mapping: Linux
// refuses to write to or truncate a running executable (ETXTBSY). The
// mapping lasts as long as the process: the ROM signature (SAS 0x21)
// reads it again.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 || int64(int(st.Size())) != st.Size() {
		return os.ReadFile(path)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return os.ReadFile(path)
	}
	return data, nil
}
