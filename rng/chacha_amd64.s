//go:build !purego

#include "textflag.h"

// ChaCha20 (RFC 8439) keystream, sixteen blocks at a time with AVX-512,
// for the simulation Stream (see fastcipher.go). Each 128-bit lane of a Z
// register holds one row of one block: Z0-Z3 are rows 0-3 of blocks 0-3,
// Z4-Z7 of blocks 4-7, Z8-Z11 of blocks 8-11, Z12-Z15 of blocks 12-15;
// four independent groups keep the rotate chains busy. The state's counter
// (word 12) is not advanced here; the caller does that.

DATA ctr0123<>+0(SB)/4, $0
DATA ctr0123<>+4(SB)/4, $0
DATA ctr0123<>+8(SB)/4, $0
DATA ctr0123<>+12(SB)/4, $0
DATA ctr0123<>+16(SB)/4, $1
DATA ctr0123<>+20(SB)/4, $0
DATA ctr0123<>+24(SB)/4, $0
DATA ctr0123<>+28(SB)/4, $0
DATA ctr0123<>+32(SB)/4, $2
DATA ctr0123<>+36(SB)/4, $0
DATA ctr0123<>+40(SB)/4, $0
DATA ctr0123<>+44(SB)/4, $0
DATA ctr0123<>+48(SB)/4, $3
DATA ctr0123<>+52(SB)/4, $0
DATA ctr0123<>+56(SB)/4, $0
DATA ctr0123<>+60(SB)/4, $0
GLOBL ctr0123<>(SB), RODATA|NOPTR, $64

DATA ctr4<>+0(SB)/4, $4
DATA ctr4<>+4(SB)/4, $0
DATA ctr4<>+8(SB)/4, $0
DATA ctr4<>+12(SB)/4, $0
GLOBL ctr4<>(SB), RODATA|NOPTR, $16

DATA ctr16<>+0(SB)/4, $16
DATA ctr16<>+4(SB)/4, $0
DATA ctr16<>+8(SB)/4, $0
DATA ctr16<>+12(SB)/4, $0
GLOBL ctr16<>(SB), RODATA|NOPTR, $16

#define QR(a, b, c, d) \
	VPADDD b, a, a; VPXORD a, d, d; VPROLD $16, d, d; \
	VPADDD d, c, c; VPXORD c, b, b; VPROLD $12, b, b; \
	VPADDD b, a, a; VPXORD a, d, d; VPROLD $8, d, d; \
	VPADDD d, c, c; VPXORD c, b, b; VPROLD $7, b, b

#define DIAG(b, c, d) \
	VPSHUFD $0x39, b, b; VPSHUFD $0x4e, c, c; VPSHUFD $0x93, d, d

#define UNDIAG(b, c, d) \
	VPSHUFD $0x93, b, b; VPSHUFD $0x4e, c, c; VPSHUFD $0x39, d, d

// STORE writes the four blocks of rows r0-r3 at off(DI): block j is lane j
// of each row.
#define STORE(r0, r1, r2, r3, x0, x1, x2, x3, off) \
	VMOVDQU x0, off+0(DI); VMOVDQU x1, off+16(DI); VMOVDQU x2, off+32(DI); VMOVDQU x3, off+48(DI); \
	VEXTRACTI32X4 $1, r0, off+64(DI); VEXTRACTI32X4 $1, r1, off+80(DI); VEXTRACTI32X4 $1, r2, off+96(DI); VEXTRACTI32X4 $1, r3, off+112(DI); \
	VEXTRACTI32X4 $2, r0, off+128(DI); VEXTRACTI32X4 $2, r1, off+144(DI); VEXTRACTI32X4 $2, r2, off+160(DI); VEXTRACTI32X4 $2, r3, off+176(DI); \
	VEXTRACTI32X4 $3, r0, off+192(DI); VEXTRACTI32X4 $3, r1, off+208(DI); VEXTRACTI32X4 $3, r2, off+224(DI); VEXTRACTI32X4 $3, r3, off+240(DI)

// func blocksAVX512(state *[16]uint32, out *byte, n int)
// writes 16*n blocks (1024*n bytes) of keystream from state's counter on.
TEXT ·blocksAVX512(SB), NOSPLIT, $0-24
	MOVQ state+0(FP), AX
	MOVQ out+8(FP), DI
	MOVQ n+16(FP), BX
	TESTQ BX, BX
	JZ   done

	VBROADCASTI32X4 0(AX), Z16
	VBROADCASTI32X4 16(AX), Z17
	VBROADCASTI32X4 32(AX), Z18
	VBROADCASTI32X4 48(AX), Z19
	VPADDD ctr0123<>(SB), Z19, Z19
	VBROADCASTI32X4 ctr4<>(SB), Z21
	VPADDD Z21, Z19, Z20
	VPADDD Z21, Z20, Z23
	VPADDD Z21, Z23, Z24
	VBROADCASTI32X4 ctr16<>(SB), Z22

loop:
	VMOVDQA64 Z16, Z0
	VMOVDQA64 Z17, Z1
	VMOVDQA64 Z18, Z2
	VMOVDQA64 Z19, Z3
	VMOVDQA64 Z16, Z4
	VMOVDQA64 Z17, Z5
	VMOVDQA64 Z18, Z6
	VMOVDQA64 Z20, Z7
	VMOVDQA64 Z16, Z8
	VMOVDQA64 Z17, Z9
	VMOVDQA64 Z18, Z10
	VMOVDQA64 Z23, Z11
	VMOVDQA64 Z16, Z12
	VMOVDQA64 Z17, Z13
	VMOVDQA64 Z18, Z14
	VMOVDQA64 Z24, Z15
	MOVQ $10, CX

rounds:
	QR(Z0, Z1, Z2, Z3)
	QR(Z4, Z5, Z6, Z7)
	QR(Z8, Z9, Z10, Z11)
	QR(Z12, Z13, Z14, Z15)
	DIAG(Z1, Z2, Z3)
	DIAG(Z5, Z6, Z7)
	DIAG(Z9, Z10, Z11)
	DIAG(Z13, Z14, Z15)
	QR(Z0, Z1, Z2, Z3)
	QR(Z4, Z5, Z6, Z7)
	QR(Z8, Z9, Z10, Z11)
	QR(Z12, Z13, Z14, Z15)
	UNDIAG(Z1, Z2, Z3)
	UNDIAG(Z5, Z6, Z7)
	UNDIAG(Z9, Z10, Z11)
	UNDIAG(Z13, Z14, Z15)
	DECQ CX
	JNZ  rounds

	VPADDD Z16, Z0, Z0
	VPADDD Z17, Z1, Z1
	VPADDD Z18, Z2, Z2
	VPADDD Z19, Z3, Z3
	VPADDD Z16, Z4, Z4
	VPADDD Z17, Z5, Z5
	VPADDD Z18, Z6, Z6
	VPADDD Z20, Z7, Z7
	VPADDD Z16, Z8, Z8
	VPADDD Z17, Z9, Z9
	VPADDD Z18, Z10, Z10
	VPADDD Z23, Z11, Z11
	VPADDD Z16, Z12, Z12
	VPADDD Z17, Z13, Z13
	VPADDD Z18, Z14, Z14
	VPADDD Z24, Z15, Z15

	STORE(Z0, Z1, Z2, Z3, X0, X1, X2, X3, 0)
	STORE(Z4, Z5, Z6, Z7, X4, X5, X6, X7, 256)
	STORE(Z8, Z9, Z10, Z11, X8, X9, X10, X11, 512)
	STORE(Z12, Z13, Z14, Z15, X12, X13, X14, X15, 768)

	VPADDD Z22, Z19, Z19
	VPADDD Z22, Z20, Z20
	VPADDD Z22, Z23, Z23
	VPADDD Z22, Z24, Z24
	ADDQ $1024, DI
	DECQ BX
	JNZ  loop

	VZEROUPPER

done:
	RET

// The AVX2 variant: each 128-bit lane of a Y register holds one row of
// one block; Y0-Y3 are rows 0-3 of blocks 0-1, Y4-Y7 of blocks 2-3. AVX2
// has no rotate, so rotations by 16 and 8 shuffle bytes (masks in Y14,
// Y15) and those by 12 and 7 shift into the scratch register Y13.

DATA rot16<>+0(SB)/8, $0x0504070601000302
DATA rot16<>+8(SB)/8, $0x0d0c0f0e09080b0a
DATA rot16<>+16(SB)/8, $0x0504070601000302
DATA rot16<>+24(SB)/8, $0x0d0c0f0e09080b0a
GLOBL rot16<>(SB), RODATA|NOPTR, $32

DATA rot8<>+0(SB)/8, $0x0605040702010003
DATA rot8<>+8(SB)/8, $0x0e0d0c0f0a09080b
DATA rot8<>+16(SB)/8, $0x0605040702010003
DATA rot8<>+24(SB)/8, $0x0e0d0c0f0a09080b
GLOBL rot8<>(SB), RODATA|NOPTR, $32

DATA ctr01<>+0(SB)/4, $0
DATA ctr01<>+4(SB)/4, $0
DATA ctr01<>+8(SB)/4, $0
DATA ctr01<>+12(SB)/4, $0
DATA ctr01<>+16(SB)/4, $1
DATA ctr01<>+20(SB)/4, $0
DATA ctr01<>+24(SB)/4, $0
DATA ctr01<>+28(SB)/4, $0
GLOBL ctr01<>(SB), RODATA|NOPTR, $32

DATA ctr2<>+0(SB)/4, $2
DATA ctr2<>+4(SB)/4, $0
DATA ctr2<>+8(SB)/4, $0
DATA ctr2<>+12(SB)/4, $0
GLOBL ctr2<>(SB), RODATA|NOPTR, $16

DATA ctr4y<>+0(SB)/4, $4
DATA ctr4y<>+4(SB)/4, $0
DATA ctr4y<>+8(SB)/4, $0
DATA ctr4y<>+12(SB)/4, $0
GLOBL ctr4y<>(SB), RODATA|NOPTR, $16

#define QR2(a, b, c, d) \
	VPADDD b, a, a; VPXOR a, d, d; VPSHUFB Y14, d, d; \
	VPADDD d, c, c; VPXOR c, b, b; VPSLLD $12, b, Y13; VPSRLD $20, b, b; VPOR Y13, b, b; \
	VPADDD b, a, a; VPXOR a, d, d; VPSHUFB Y15, d, d; \
	VPADDD d, c, c; VPXOR c, b, b; VPSLLD $7, b, Y13; VPSRLD $25, b, b; VPOR Y13, b, b

#define DIAG2(b, c, d) \
	VPSHUFD $0x39, b, b; VPSHUFD $0x4e, c, c; VPSHUFD $0x93, d, d

#define UNDIAG2(b, c, d) \
	VPSHUFD $0x93, b, b; VPSHUFD $0x4e, c, c; VPSHUFD $0x39, d, d

// STORE2 writes the two blocks of rows r0-r3 at off(DI).
#define STORE2(r0, r1, r2, r3, x0, x1, x2, x3, off) \
	VMOVDQU x0, off+0(DI); VMOVDQU x1, off+16(DI); VMOVDQU x2, off+32(DI); VMOVDQU x3, off+48(DI); \
	VEXTRACTI128 $1, r0, off+64(DI); VEXTRACTI128 $1, r1, off+80(DI); VEXTRACTI128 $1, r2, off+96(DI); VEXTRACTI128 $1, r3, off+112(DI)

// func blocksAVX2(state *[16]uint32, out *byte, n int)
// writes 16*n blocks (1024*n bytes) of keystream from state's counter on,
// four blocks a pass.
TEXT ·blocksAVX2(SB), NOSPLIT, $0-24
	MOVQ state+0(FP), AX
	MOVQ out+8(FP), DI
	MOVQ n+16(FP), BX
	SHLQ $2, BX
	TESTQ BX, BX
	JZ   done2

	VBROADCASTI128 0(AX), Y8
	VBROADCASTI128 16(AX), Y9
	VBROADCASTI128 32(AX), Y10
	VBROADCASTI128 48(AX), Y11
	VPADDD ctr01<>(SB), Y11, Y11
	VBROADCASTI128 ctr2<>(SB), Y12
	VPADDD Y11, Y12, Y12
	VMOVDQU rot16<>(SB), Y14
	VMOVDQU rot8<>(SB), Y15

loop2:
	VMOVDQA Y8, Y0
	VMOVDQA Y9, Y1
	VMOVDQA Y10, Y2
	VMOVDQA Y11, Y3
	VMOVDQA Y8, Y4
	VMOVDQA Y9, Y5
	VMOVDQA Y10, Y6
	VMOVDQA Y12, Y7
	MOVQ $10, CX

rounds2:
	QR2(Y0, Y1, Y2, Y3)
	QR2(Y4, Y5, Y6, Y7)
	DIAG2(Y1, Y2, Y3)
	DIAG2(Y5, Y6, Y7)
	QR2(Y0, Y1, Y2, Y3)
	QR2(Y4, Y5, Y6, Y7)
	UNDIAG2(Y1, Y2, Y3)
	UNDIAG2(Y5, Y6, Y7)
	DECQ CX
	JNZ  rounds2

	VPADDD Y8, Y0, Y0
	VPADDD Y9, Y1, Y1
	VPADDD Y10, Y2, Y2
	VPADDD Y11, Y3, Y3
	VPADDD Y8, Y4, Y4
	VPADDD Y9, Y5, Y5
	VPADDD Y10, Y6, Y6
	VPADDD Y12, Y7, Y7

	STORE2(Y0, Y1, Y2, Y3, X0, X1, X2, X3, 0)
	STORE2(Y4, Y5, Y6, Y7, X4, X5, X6, X7, 128)

	VBROADCASTI128 ctr4y<>(SB), Y13
	VPADDD Y13, Y11, Y11
	VPADDD Y13, Y12, Y12
	ADDQ $256, DI
	DECQ BX
	JNZ  loop2

	VZEROUPPER

done2:
	RET
