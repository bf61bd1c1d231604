package link

import "testing"

// A BCD meter rolls over at its width: the controller keeps the whole
// count; a meter that goes back otherwise is refused.
func TestUnwrapMeters(t *testing.T) {
	const mod = 100_000_000 // 4 BCD bytes
	for _, c := range []struct {
		name            string
		read            bool
		last, raw, want uint64
		ok              bool
	}{
		{"first reading", false, 0, 123, 123, true},
		{"on", true, 500, 700, 700, true},
		{"same", true, 700, 700, 700, true},
		{"rollover of the coin-in at 10^8", true, 99_999_900, 150, 100_000_150, true},
		{"after a rollover", true, 100_000_150, 400, 100_000_400, true},
		{"a second rollover", true, 199_999_990, 10, 200_000_010, true},
		{"back (a RAM clear)", true, 5_000_000, 1000, 0, false},
		{"back by a little", true, 700, 600, 0, false},
	} {
		got, ok := unwrap(c.read, c.last, c.raw, mod, 10_000)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%s: unwrap(%d after %d) = %d %v, want %d %v", c.name, c.raw, c.last, got, ok, c.want, c.ok)
		}
	}
	if modulus(4) != 100_000_000 || modulus(5) != 10_000_000_000 || modulus(0) != 0 {
		t.Fatal("modulus")
	}
}
