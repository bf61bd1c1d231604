package book

import (
	"crypto"
	"crypto/ed25519"
	"encoding/binary"
	"fmt"

	"golang.org/x/crypto/blake2b"
)

// TypeSeal is the log record type of a seal (walog reserves 0xFFFF for its
// checkpoints; ledgers number their records from 1).
const TypeSeal uint16 = 0xFFFE

// Seal is a signed statement that the state folded up to record Seq (whose
// chain hash is Hash) has the digest Digest: the BLAKE2b-256 of the
// state's canonical encoding. A snapshot is used only when its digest is a
// sealed one, and the inspector's fold checks every seal.
type Seal struct {
	Seq    uint64
	Hash   [32]byte
	Digest [32]byte
	Sig    []byte
}

const (
	sealLabel    = "openegm book seal v1\x00"
	sealDataSize = 8 + 32 + 32 + ed25519.SignatureSize
)

// Digest is the digest a seal signs of a state's encoding.
func Digest(encoded []byte) [32]byte { return blake2b.Sum256(encoded) }

func (s Seal) message() []byte {
	m := make([]byte, 0, len(sealLabel)+8+64)
	m = append(m, sealLabel...)
	m = binary.BigEndian.AppendUint64(m, s.Seq)
	m = append(m, s.Hash[:]...)
	return append(m, s.Digest[:]...)
}

func makeSeal(key crypto.Signer, seq uint64, hash, digest [32]byte) (Seal, []byte, error) {
	s := Seal{Seq: seq, Hash: hash, Digest: digest}
	sig, err := sign(key, s.message())
	if err != nil {
		return Seal{}, nil, fmt.Errorf("signing the seal of record %d: %w", seq, err)
	}
	s.Sig = sig
	d := make([]byte, 0, sealDataSize)
	d = binary.BigEndian.AppendUint64(d, seq)
	d = append(d, hash[:]...)
	d = append(d, digest[:]...)
	return s, append(d, sig...), nil
}

// ParseSeal decodes a seal record's payload.
func ParseSeal(d []byte) (Seal, error) {
	if len(d) != sealDataSize {
		return Seal{}, fmt.Errorf("seal payload is %d bytes, not %d", len(d), sealDataSize)
	}
	var s Seal
	s.Seq = binary.BigEndian.Uint64(d[:8])
	copy(s.Hash[:], d[8:40])
	copy(s.Digest[:], d[40:72])
	s.Sig = d[72:]
	return s, nil
}

// Verify checks the seal's signature with pub.
func (s Seal) Verify(pub ed25519.PublicKey) error {
	if !ed25519.Verify(pub, s.message(), s.Sig) {
		return fmt.Errorf("the seal of record %d does not verify with key %s", s.Seq, KeyID(pub))
	}
	return nil
}
