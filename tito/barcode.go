package tito

import "fmt"

// Interleaved 2 of 5, the barcode of TITO tickets: digits in pairs, the
// first of a pair in the widths of five bars, the second in the widths of
// the five spaces between them; two of each five elements are wide. A
// start pattern (narrow bar, space, bar, space) and a stop pattern (wide
// bar, narrow space, narrow bar) frame the pairs, so the number of digits
// must be even: 18 for secure-enhanced and system numbers, 8 for standard
// ones.
//
// Choice: the encoder is written here rather than taken from a barcode
// library (github.com/boombuler/barcode has one): it is thirty lines, it
// adds no dependency to the firmware, and the test reads the bars back
// with a reader of its own.

// i2of5 gives each digit's five elements, true for wide.
var i2of5 = [10][5]bool{
	{false, false, true, true, false}, // 0 NNWWN
	{true, false, false, false, true}, // 1 WNNNW
	{false, true, false, false, true}, // 2 NWNNW
	{true, true, false, false, false}, // 3 WWNNN
	{false, false, true, false, true}, // 4 NNWNW
	{true, false, true, false, false}, // 5 WNWNN
	{false, true, true, false, false}, // 6 NWWNN
	{false, false, false, true, true}, // 7 NNNWW
	{true, false, false, true, false}, // 8 WNNWN
	{false, true, false, true, false}, // 9 NWNWN
}

// Widths returns the widths of the elements of the interleaved 2-of-5
// barcode of digits, starting with a bar and alternating bar and space,
// start and stop patterns included (quiet zones are the caller's). narrow
// and wide are the element widths; wide must be 2 to 3 times narrow for
// scanners to tell them apart.
func Widths(digits string, narrow, wide int) ([]int, error) {
	if len(digits) == 0 || len(digits)%2 != 0 || !allDigits(digits) {
		return nil, fmt.Errorf("tito: barcode of %q: want an even number of decimal digits", digits)
	}
	if narrow < 1 || wide < 2*narrow || wide > 3*narrow {
		return nil, fmt.Errorf("tito: barcode widths %d and %d: want narrow >= 1 and wide 2-3 times narrow", narrow, wide)
	}
	w := func(isWide bool) int {
		if isWide {
			return wide
		}
		return narrow
	}
	out := []int{narrow, narrow, narrow, narrow}
	for i := 0; i < len(digits); i += 2 {
		bars, spaces := i2of5[digits[i]-'0'], i2of5[digits[i+1]-'0']
		for k := range 5 {
			out = append(out, w(bars[k]), w(spaces[k]))
		}
	}
	return append(out, wide, narrow, narrow), nil
}
