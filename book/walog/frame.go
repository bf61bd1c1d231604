package walog

import (
	"crypto"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"golang.org/x/crypto/blake2b"
)

// A frame is what walog stores as the data of one tidwall/wal entry:
//
//	off  size  field
//	0    1     magic, which also names the layout version (frameMagic)
//	1    8     seq, big-endian
//	9    2     type, big-endian
//	11   4     payload length n, big-endian
//	15   n     payload
//	15+n 32    chain hash: BLAKE2b-256(previous chain hash || bytes 0..15+n)
//	47+n 4     CRC32C (Castagnoli) of bytes 0..47+n
//
// Fixed-width integers keep every frame in exactly one encoding, so the
// decoder can be strict without canonical-form rules. The CRC lets one frame
// be judged on its own (torn tail, fuzzing, Read); the chain hash ties it to
// every record before it.
const (
	frameMagic = 0xA1

	headerSize    = 1 + 8 + 2 + 4
	hashSize      = 32
	crcSize       = 4
	frameOverhead = headerSize + hashSize + crcSize

	// MaxData bounds one record's payload, so a damaged length can never make
	// a reader allocate or wait for gigabytes.
	MaxData = 4 << 20

	maxFrame = frameOverhead + MaxData
)

// TypeCheckpoint is the record type walog reserves for its signed
// checkpoints. Callers cannot append it and skip it when they fold records.
const TypeCheckpoint uint16 = 0xFFFF

const (
	genesisLabel    = "openegm walog genesis v1"
	checkpointLabel = "openegm walog checkpoint v1"

	// checkpointDataSize is covered seq (8) + covered hash (32) + signature.
	checkpointDataSize = 8 + hashSize + ed25519.SignatureSize
)

var (
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
	genesis    = blake2b.Sum256([]byte(genesisLabel))
)

// frame is a decoded frame. data aliases the decoded buffer.
type frame struct {
	seq  uint64
	typ  uint16
	data []byte
	hash [32]byte
}

// chainHash returns hash_n for the hashed part (header and payload) of
// frame n.
func chainHash(prev [32]byte, body []byte) [32]byte {
	h, _ := blake2b.New256(nil) // cannot fail without a key
	h.Write(prev[:])
	h.Write(body)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// appendFrame encodes a frame whose chain hash is already known. The decoder
// and the fuzz test use it to prove decoding is the exact inverse.
func appendFrame(dst []byte, seq uint64, typ uint16, data []byte, hash [32]byte) []byte {
	start := len(dst)
	dst = append(dst, frameMagic)
	dst = binary.BigEndian.AppendUint64(dst, seq)
	dst = binary.BigEndian.AppendUint16(dst, typ)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(data)))
	dst = append(dst, data...)
	dst = append(dst, hash[:]...)
	return binary.BigEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

// encodeRecord builds the frame of record seq following the chain hash prev
// and returns it with its own chain hash.
//
// The frame is built after a copy of prev in the same buffer, so that the
// chain hash is one Sum256 over both (chainHash's value) with no hasher
// allocated: one allocation a record on the commit's path, not two.
func encodeRecord(prev [32]byte, seq uint64, typ uint16, data []byte) ([]byte, [32]byte) {
	all := make([]byte, 0, len(prev)+frameOverhead+len(data))
	all = append(all, prev[:]...)
	all = append(all, frameMagic)
	all = binary.BigEndian.AppendUint64(all, seq)
	all = binary.BigEndian.AppendUint16(all, typ)
	all = binary.BigEndian.AppendUint32(all, uint32(len(data)))
	all = append(all, data...)
	hash := blake2b.Sum256(all)
	buf := all[len(prev):]
	buf = append(buf, hash[:]...)
	buf = binary.BigEndian.AppendUint32(buf, crc32.Checksum(buf, castagnoli))
	return buf, hash
}

// decodeFrame checks one frame on its own: layout, bounds and CRC. The chain
// hash can only be checked by a caller that knows the previous one.
func decodeFrame(b []byte) (frame, error) {
	if len(b) < frameOverhead {
		return frame{}, fmt.Errorf("frame of %d bytes is shorter than the %d-byte minimum", len(b), frameOverhead)
	}
	if b[0] != frameMagic {
		return frame{}, fmt.Errorf("frame starts with byte 0x%02x, not the walog v1 magic 0x%02x", b[0], frameMagic)
	}
	n := binary.BigEndian.Uint32(b[11:headerSize])
	if n > MaxData {
		return frame{}, fmt.Errorf("frame declares %d payload bytes, above the %d limit", n, MaxData)
	}
	if int(n) != len(b)-frameOverhead {
		return frame{}, fmt.Errorf("frame declares %d payload bytes but carries %d", n, len(b)-frameOverhead)
	}
	crcAt := len(b) - crcSize
	if got, want := binary.BigEndian.Uint32(b[crcAt:]), crc32.Checksum(b[:crcAt], castagnoli); got != want {
		return frame{}, fmt.Errorf("frame checksum 0x%08x does not match its content (0x%08x)", got, want)
	}
	f := frame{
		seq:  binary.BigEndian.Uint64(b[1:9]),
		typ:  binary.BigEndian.Uint16(b[9:11]),
		data: b[headerSize : headerSize+int(n)],
	}
	copy(f.hash[:], b[headerSize+int(n):crcAt])
	if f.seq == 0 {
		return frame{}, errors.New("frame carries seq 0; seqs start at 1")
	}
	return f, nil
}

// body is the part of an encoded frame that the chain hash covers.
func frameBody(b []byte) []byte { return b[:len(b)-hashSize-crcSize] }

// checkpointMessage is what a checkpoint signs. The label keeps a signature
// made for any other purpose with the machine key from passing as one.
func checkpointMessage(seq uint64, hash [32]byte) []byte {
	m := make([]byte, 0, len(checkpointLabel)+8+hashSize)
	m = append(m, checkpointLabel...)
	m = binary.BigEndian.AppendUint64(m, seq)
	return append(m, hash[:]...)
}

func makeCheckpointData(key crypto.Signer, seq uint64, hash [32]byte) ([]byte, error) {
	sig, err := key.Sign(nil, checkpointMessage(seq, hash), crypto.Hash(0))
	if err != nil {
		return nil, err
	}
	if len(sig) != ed25519.SignatureSize {
		return nil, fmt.Errorf("signature of %d bytes, not an Ed25519 one", len(sig))
	}
	d := make([]byte, 0, checkpointDataSize)
	d = binary.BigEndian.AppendUint64(d, seq)
	d = append(d, hash[:]...)
	return append(d, sig...), nil
}

// checkpointData is the decoded payload of a TypeCheckpoint record.
type checkpointData struct {
	seq  uint64
	hash [32]byte
	sig  []byte
}

func parseCheckpointData(d []byte) (checkpointData, error) {
	if len(d) != checkpointDataSize {
		return checkpointData{}, fmt.Errorf("checkpoint payload is %d bytes, not %d", len(d), checkpointDataSize)
	}
	var c checkpointData
	c.seq = binary.BigEndian.Uint64(d[:8])
	copy(c.hash[:], d[8:8+hashSize])
	c.sig = d[8+hashSize:]
	return c, nil
}

// checkCheckpoint checks a checkpoint record against the chain state it
// claims to cover: the record right before it. pub nil skips the signature.
func checkCheckpoint(f frame, prevSeq uint64, prevHash [32]byte, pub ed25519.PublicKey) error {
	c, err := parseCheckpointData(f.data)
	if err != nil {
		return err
	}
	if c.seq != prevSeq {
		return fmt.Errorf("checkpoint covers seq %d but follows seq %d", c.seq, prevSeq)
	}
	if c.hash != prevHash {
		return fmt.Errorf("checkpoint covers seq %d with a hash that is not the chain's", c.seq)
	}
	if pub != nil && !ed25519.Verify(pub, checkpointMessage(c.seq, c.hash), c.sig) {
		return fmt.Errorf("checkpoint signature over seq %d does not verify with the machine key", c.seq)
	}
	return nil
}
