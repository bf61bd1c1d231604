//go:build !purego

package rng

import "golang.org/x/sys/cpu"

//go:noescape
func blocksAVX512(state *[16]uint32, out *byte, n int)

//go:noescape
func blocksAVX2(state *[16]uint32, out *byte, n int)

// fastImpls lists the block functions this CPU can run, fastest first.
var fastImpls = func() []fastImpl {
	var impls []fastImpl
	if cpu.X86.HasAVX512F {
		impls = append(impls, fastImpl{"AVX-512", blocksAVX512})
	}
	if cpu.X86.HasAVX2 {
		impls = append(impls, fastImpl{"AVX2", blocksAVX2})
	}
	return impls
}()

func init() {
	if len(fastImpls) > 0 {
		fastBlocks = fastImpls[0].blocks
	}
}
