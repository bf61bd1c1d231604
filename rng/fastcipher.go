package rng

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"sync"

	"golang.org/x/crypto/chacha20"
)

// fastBlocks is a ChaCha20 (RFC 8439) block function faster than the
// library's portable code on this CPU (AVX-512, else AVX2, on amd64), or
// nil where there is none. It
// writes 16*n 64-byte blocks of keystream from the state's counter on, and
// leaves the state as it found it. Only seeded Streams (the simulator's)
// use it, and only after it reproduces the RFC 8439 answers and the
// library's keystream at start-up (fastCipherOK); the cabinet's RNG always
// uses golang.org/x/crypto/chacha20.
var fastBlocks func(state *[16]uint32, out *byte, n int)

// fastImpl is one block function, named for tests and reports.
type fastImpl struct {
	name   string
	blocks func(state *[16]uint32, out *byte, n int)
}

// fastUnit is what one fastBlocks unit writes: 16 blocks.
const fastUnit = 16 * 64

// chachaState is the RFC 8439 initial state for key, nonce and counter 0.
func chachaState(key *[keySize]byte, nonce *[nonceSize]byte) [16]uint32 {
	var st [16]uint32
	st[0], st[1], st[2], st[3] = 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574
	for i := range 8 {
		st[4+i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	for i := range 3 {
		st[13+i] = binary.LittleEndian.Uint32(nonce[4*i:])
	}
	return st
}

// fastCipherOK says whether fastBlocks exists and gives ChaCha20's
// keystream: the RFC 8439 known answers at their counters, and the
// library's keystream for a further key and nonce over several units.
var fastCipherOK = sync.OnceValue(func() bool {
	if fastBlocks == nil {
		return false
	}
	return checkFastBlocks(fastBlocks) == nil
})

func checkFastBlocks(fastBlocks func(state *[16]uint32, out *byte, n int)) error {
	out := make([]byte, 4*fastUnit)
	for _, v := range katVectors {
		var key [keySize]byte
		var nonce [nonceSize]byte
		want, _ := hex.DecodeString(v.want)
		k, _ := hex.DecodeString(v.key)
		n, _ := hex.DecodeString(v.nonce)
		copy(key[:], k)
		copy(nonce[:], n)
		st := chachaState(&key, &nonce)
		st[12] = v.counter
		fastBlocks(&st, &out[0], 1)
		if !bytes.Equal(out[:len(want)], want) {
			return errFastCipher
		}
	}
	var key [keySize]byte
	var nonce [nonceSize]byte
	for i := range key {
		key[i] = byte(7*i + 1)
	}
	for i := range nonce {
		nonce[i] = byte(3*i + 5)
	}
	st := chachaState(&key, &nonce)
	st[12] = 1<<32 - 4*fastUnit/64 // the last units before the counter wraps
	fastBlocks(&st, &out[0], 4)
	c, err := chacha20.NewUnauthenticatedCipher(key[:], nonce[:])
	if err != nil {
		return err
	}
	c.SetCounter(st[12])
	want := make([]byte, len(out))
	c.XORKeyStream(want, want)
	if !bytes.Equal(out, want) {
		return errFastCipher
	}
	return nil
}

var errFastCipher = errors.New("rng: fast ChaCha20 block function disagrees with ChaCha20")
