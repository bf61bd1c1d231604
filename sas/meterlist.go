package sas

import (
	"slices"

	"github.com/openegm/cabinet/sas/metercode"
)

// FixedMeterPoll returns the meters reported, in order, by a meter long
// poll with a fixed layout (0x0F, 0x10–0x19, 0x1A, 0x1C, 0x1E), each a
// 4-byte BCD field except for 0x18 (2-byte fields); nil for any other
// command. The slice is a copy. For hosts decoding the replies.
func FixedMeterPoll(cmd byte) []MeterCode {
	return slices.Clone(fixedMeterPolls[cmd])
}

// KnownMeterCodes returns, in increasing order, the SAS meter codes of
// the table (metercode.All), cabinet-local codes excluded: what a host asks
// for with 0x2F or 0x6F to read "every meter".
func KnownMeterCodes() []MeterCode { return metercode.All() }
