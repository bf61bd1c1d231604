package sas

import "slices"

// FixedMeterPoll returns the meters reported, in order, by a meter long
// poll with a fixed layout (0x0F, 0x10–0x19, 0x1A, 0x1C, 0x1E), each a
// 4-byte BCD field except for 0x18 (2-byte fields); nil for any other
// command. The slice is a copy. For hosts decoding the replies.
func FixedMeterPoll(cmd byte) []MeterCode {
	return slices.Clone(fixedMeterPolls[cmd])
}

// KnownMeterCodes returns, in increasing order, the SAS meter codes this
// package has a name for (0x00–0x26, 0x3E, 0x3F and the bill meters
// 0x40–0x57), cabinet-local codes excluded: what a host asks for with
// 0x2F or 0x6F to read "every meter".
func KnownMeterCodes() []MeterCode {
	var out []MeterCode
	for c := range meterNames {
		if c < localMeterBase {
			out = append(out, c)
		}
	}
	for c := MeterBills1; c <= MeterBills1000000; c++ {
		out = append(out, c)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
