//go:build !purego

package rng

import "golang.org/x/sys/cpu"

//go:noescape
func blocksAVX512(state *[16]uint32, out *byte, n int)

func init() {
	if cpu.X86.HasAVX512F {
		fastBlocks = blocksAVX512
	}
}
