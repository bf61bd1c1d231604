package walog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Segments wholly before the older sealed snapshot are moved to archiveDir
// (Archive): start-up from the snapshots never reads them, and tidwall/wal,
// which stats every segment file of the directory it opens, no longer sees
// them. Open and Verify read the archive with the log, as one sequence of
// segments (listSegments); a Log reads an archived record itself (archive),
// since tidwall/wal no longer holds it.
//
// A move is a rename: across a power loss it is kept or not, never half
// done, and a segment is in one place or the other. It is not synced: the
// segment is whole in either place, and the next sync of the file system's
// journal (the next commit's) takes it along. A move lost to a power cut
// leaves its segment in the log directory, where Open takes it as before,
// and Open puts back whatever archived segment follows one left in the log
// (unarchiveTail): tidwall/wal must see the log's last segments without a
// gap.

// Archive moves to the archive the segments whose every record precedes
// record before, except the segment tidwall/wal writes, and returns how
// many it moved. The caller (book) names the older snapshot's record: the
// records from it on are what a start-up from the snapshots reads. It
// changes no record and syncs nothing: renames only, so that it may run
// between two commits (a rename takes microseconds), where nothing else of
// the ledger's is moving and a copy of the directory taken then is one a
// power cut could leave. A failure leaves each segment whole in one of
// the two places, and is only returned.
func (l *Log) Archive(before uint64) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	moved := 0
	for !l.closed && l.fault == nil {
		i := sort.Search(len(l.segStarts), func(i int) bool { return l.segStarts[i] >= l.mainFirst })
		if i+1 >= len(l.segStarts) || l.segStarts[i+1] > before {
			break
		}
		name := segmentName(l.segStarts[i])
		if moved == 0 {
			if err := os.Mkdir(filepath.Join(l.dir, archiveDir), 0o750); err != nil && !errors.Is(err, os.ErrExist) {
				return 0, fmt.Errorf("walog: archive: %w", err)
			}
		}
		if err := os.Rename(filepath.Join(l.dir, name), filepath.Join(l.dir, archiveDir, name)); err != nil {
			return moved, fmt.Errorf("walog: archive: %w", err)
		}
		moved++
		l.mainFirst = l.segStarts[i+1]
		if l.archive.listed {
			l.archive.segs = append(l.archive.segs, segFile{name: archiveDir + "/" + name, index: l.segStarts[i]})
		}
	}
	return moved, nil
}

// unarchiveTail puts back into dir, before tidwall/wal opens it, the
// archived segments of segs (a scan's, in order) that tidwall/wal must
// see: every one after the first segment left in dir, and the last one
// when dir holds none (a tail cut back, or files moved by hand). It
// renames segs' names with them.
func unarchiveTail(dir string, segs []segFile) error {
	first := -1
	for i, seg := range segs {
		if !seg.archived() {
			first = i
			break
		}
	}
	if first < 0 {
		first = len(segs) - 1
	}
	moved := false
	for i := max(first, 0); i < len(segs); i++ {
		if !segs[i].archived() {
			continue
		}
		name := segmentName(segs[i].index)
		if err := os.Rename(filepath.Join(dir, segs[i].name), filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("putting back %s: %w", segs[i].name, err)
		}
		segs[i].name, moved = name, true
	}
	if !moved {
		return nil
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	return syncDir(filepath.Join(dir, archiveDir))
}

// archive reads records in the archived segments, one segment loaded at a
// time (a Scan goes through them in order). It is guarded by Log.mu.
type archive struct {
	listed bool
	segs   []segFile
	loaded int    // index in segs of the segment in buf; -1 none
	buf    []byte // the loaded segment
	ends   []int  // where each of its entries ends in buf
}

// read returns record seq's frame as stored; it aliases the loaded
// segment, valid while Log.mu is held.
func (a *archive) read(dir string, seq uint64) ([]byte, error) {
	if !a.listed {
		segs, err := listArchive(dir)
		if err != nil {
			return nil, err
		}
		a.segs, a.listed, a.loaded = segs, true, -1
	}
	i := sort.Search(len(a.segs), func(i int) bool { return a.segs[i].index > seq }) - 1
	if i < 0 {
		return nil, fmt.Errorf("no archived segment holds record %d", seq)
	}
	if i != a.loaded {
		a.loaded = -1
		buf, err := readSegment(filepath.Join(dir, a.segs[i].name), a.buf[:0])
		if err != nil {
			return nil, err
		}
		a.buf, a.ends = buf, a.ends[:0]
		for pos := 0; pos < len(buf); {
			v, n := binary.Uvarint(buf[pos:])
			if n <= 0 || v > uint64(len(buf)-pos-n) {
				return nil, fmt.Errorf("archived segment %s: entry at offset %d damaged", a.segs[i].name, pos)
			}
			pos += n + int(v)
			a.ends = append(a.ends, pos)
		}
		a.loaded = i
	}
	k := seq - a.segs[i].index
	if k >= uint64(len(a.ends)) {
		return nil, fmt.Errorf("archived segment %s ends before record %d", a.segs[i].name, seq)
	}
	start := 0
	if k > 0 {
		start = a.ends[k-1]
	}
	_, n := binary.Uvarint(a.buf[start:])
	return a.buf[start+n : a.ends[k]], nil
}
