package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

// SpareSuffix names the second file a Kept file writes into.
const SpareSuffix = ".spare"

// Kept is a small file replaced as Write does (old or new content after a
// power loss, never a mix) with no descriptor opened per write: its
// descriptors are opened once, when the process starts. A file the money
// path writes (a hard meter's pulses) must not depend on the process still
// being able to open a file later: any other user of descriptors (idle
// connections, say) could have taken the last one.
//
// It holds the file, a spare beside it (path+SpareSuffix) and their
// directory. A write truncates and fills the spare, syncs it, exchanges the
// two names in one step (renameat2 RENAME_EXCHANGE) and syncs the
// directory; the old content is then the spare.
type Kept struct {
	mu          sync.Mutex
	dir         *os.File
	name, spare string
	cur, next   *os.File // cur is the file under name (nil while it does not exist)
	reserve     *os.File // while the file does not exist: the spare after its first write
	perm        os.FileMode
}

// OpenKept opens path for Kept writes. The file need not exist: it is then
// created by the first Write, from the spare, and a second spare opened now
// (path+SpareSuffix+"2") takes the spare's place.
func OpenKept(path string, perm os.FileMode) (*Kept, error) {
	dirName, name := filepath.Split(path)
	if dirName == "" {
		dirName = "."
	}
	k := &Kept{name: name, spare: name + SpareSuffix, perm: perm}
	var err error
	if k.dir, err = os.Open(dirName); err != nil {
		return nil, err
	}
	if k.cur, err = os.OpenFile(path, os.O_RDWR, 0); errors.Is(err, os.ErrNotExist) {
		k.cur, err = nil, nil
	}
	if err == nil {
		k.next, err = os.OpenFile(filepath.Join(dirName, k.spare), os.O_RDWR|os.O_CREATE, perm)
	}
	if err == nil && k.cur == nil {
		k.reserve, err = os.OpenFile(filepath.Join(dirName, k.spare+"2"), os.O_RDWR|os.O_CREATE|os.O_TRUNC, perm)
	} else if err == nil {
		_ = os.Remove(filepath.Join(dirName, k.spare+"2"))
	}
	if err != nil {
		k.Close()
		return nil, err
	}
	return k, nil
}

// Write replaces the file's content with data.
func (k *Kept) Write(data []byte) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.next == nil {
		return errors.New("atomicfile: kept file closed")
	}
	if err := k.next.Truncate(0); err != nil {
		return err
	}
	if _, err := k.next.WriteAt(data, 0); err != nil {
		return err
	}
	if err := k.next.Sync(); err != nil {
		return err
	}
	fd := int(k.dir.Fd())
	if k.cur == nil {
		// The first content: the spare becomes the file, and the
		// reserve the spare.
		if err := unix.Renameat(fd, k.spare, fd, k.name); err != nil {
			return err
		}
		if err := unix.Renameat(fd, k.spare+"2", fd, k.spare); err != nil {
			return err
		}
		if err := k.dir.Sync(); err != nil {
			return fmt.Errorf("fsync directory %s: %w", k.dir.Name(), err)
		}
		k.cur, k.next, k.reserve = k.next, k.reserve, nil
		return nil
	}
	if err := unix.Renameat2(fd, k.spare, fd, k.name, unix.RENAME_EXCHANGE); err != nil {
		return fmt.Errorf("exchanging %s and %s: %w", k.spare, k.name, err)
	}
	if err := k.dir.Sync(); err != nil {
		return fmt.Errorf("fsync directory %s: %w", k.dir.Name(), err)
	}
	k.cur, k.next = k.next, k.cur
	return nil
}

// Close closes the descriptors.
func (k *Kept) Close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, f := range []*os.File{k.cur, k.next, k.reserve, k.dir} {
		if f != nil {
			f.Close()
		}
	}
	k.cur, k.next, k.reserve, k.dir = nil, nil, nil, nil
	return nil
}
