package walog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/sys/unix"

	"github.com/openegm/cabinet/internal/atomicfile"
)

// The side file holds the last checkpoint record's frame in one of two
// slots, written in place: the older slot is overwritten and the file
// fdatasynced, with no new file, rename or directory fsync. Replacing the
// whole file took two fsyncs and a journal commit for the rename, one
// commit in a few hundred: past a commit's p99 (issue 26).
//
// A slot is its magic, the frame and a checksum of both. A slot torn by a
// power loss fails its checksum and is read as absent: the other slot
// holds the checkpoint before, the one-behind side file Open accepts and
// brings up. The file is created (and an earlier build's single-frame file
// replaced) whole, with atomicfile, the first time this build writes it.
//
// The checksum says only whether a slot is whole; what a whole slot holds
// is judged as the single frame was: it must be one of the log's last two
// checkpoint records, byte for byte, and its signature must hold.
const (
	sideMagic     = "OEGMCKS1"
	sideFrameSize = frameOverhead + checkpointDataSize
	sideSumSize   = 16
	sideSlotSize  = len(sideMagic) + sideFrameSize + sideSumSize
)

func sideSum(b []byte) []byte {
	h := blake2b.Sum256(b)
	return h[:sideSumSize]
}

func sideSlot(frame []byte) []byte {
	s := make([]byte, 0, sideSlotSize)
	s = append(s, sideMagic...)
	s = append(s, frame...)
	return append(s, sideSum(s)...)
}

// readSide returns the frame the side file holds: the newest whole slot's,
// or the whole file when an earlier build wrote it (a single frame). next
// is the slot the next write takes (-1: the file must be written whole).
// A file with no whole slot gives an error naming the damage.
func readSide(dir string) (frame []byte, next int, err error) {
	raw, err := os.ReadFile(filepath.Join(dir, sideFile))
	if err != nil {
		return nil, -1, err
	}
	if len(raw) != 2*sideSlotSize {
		// An earlier build's single frame (a frame is shorter than two
		// slots), or damage: decoded and judged as such a frame.
		return raw, -1, nil
	}
	best, at := []byte(nil), -1
	var bestSeq uint64
	for i := range 2 {
		s := raw[i*sideSlotSize : (i+1)*sideSlotSize]
		body := s[:len(s)-sideSumSize]
		if !bytes.HasPrefix(s, []byte(sideMagic)) || !bytes.Equal(sideSum(body), s[len(body):]) {
			continue
		}
		f := body[len(sideMagic):] // a whole frame: the slot's size is a checkpoint frame's
		seq := binary.BigEndian.Uint64(f[1:9])
		if at < 0 || seq > bestSeq {
			best, at, bestSeq = f, i, seq
		}
	}
	if at < 0 {
		return nil, -1, errors.New("neither slot is whole")
	}
	return best, 1 - at, nil
}

// sideWriter writes the side file's slots in place. It is the Log's, used
// under l.mu, or by writeSideAfter while l.writing keeps every other user
// away.
type sideWriter struct {
	dir  string
	f    *os.File
	next int
	hold func() // tests: called before a slot is written in place
}

// write puts frame in the older slot and fdatasyncs it. The first write
// of a Log reads the file to find that slot; when the file is missing, an
// earlier build's or has no whole slot, it is written whole instead.
func (w *sideWriter) write(frame []byte, noSync bool) error {
	if len(frame) != sideFrameSize {
		return fmt.Errorf("a checkpoint frame of %d bytes, not %d", len(frame), sideFrameSize)
	}
	if w.f == nil {
		_, next, _ := readSide(w.dir)
		if next < 0 {
			if err := writeSideWhole(w.dir, frame); err != nil {
				return err
			}
		}
		f, err := os.OpenFile(filepath.Join(w.dir, sideFile), os.O_RDWR, 0)
		if err != nil {
			return err
		}
		w.f = f
		if next < 0 {
			w.next = 1
			return nil
		}
		w.next = next
	}
	if w.hold != nil {
		w.hold()
	}
	if _, err := w.f.WriteAt(sideSlot(frame), int64(w.next*sideSlotSize)); err != nil {
		w.close()
		return err
	}
	if !noSync {
		if err := unix.Fdatasync(int(w.f.Fd())); err != nil {
			w.close()
			return fmt.Errorf("fdatasync %s: %w", sideFile, err)
		}
	}
	w.next = 1 - w.next
	return nil
}

func (w *sideWriter) close() {
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
}

// writeSideWhole replaces the side file with one holding frame in its
// first slot and an empty second: a crash leaves the old file or the new
// one, never a mix.
func writeSideWhole(dir string, frame []byte) error {
	buf := make([]byte, 2*sideSlotSize)
	copy(buf, sideSlot(frame))
	return atomicfile.Write(filepath.Join(dir, sideFile), buf, 0o640)
}
