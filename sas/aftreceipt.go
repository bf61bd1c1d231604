package sas

import "github.com/openegm/cabinet/aft"

// CmdAFTReceiptData is long poll 0x75, set AFT receipt data (SAS 6.02
// 8.11.1): a length byte, then fields of a code, a length and up to 22
// ASCII characters (table 8.11.1b: 00 location, 01–02 address, 10–13
// in-house closing lines, 20–23 debit closing lines; a zero length puts
// the machine's default back). The machine answers with an ACK; a poll
// that breaks the layout gets no reply, as an unsupported one.
//
// Source: the Aristocrat Monaco LP75SetAftReceiptDataParser (layout,
// codes, the 22-character limit, ACK).
const CmdAFTReceiptData byte = 0x75

func init() { longPollLength[CmdAFTReceiptData] = LongPollSpec{PollS, 5, true, false} }

// DecodeAFTReceiptData decodes the data of a 0x75 poll (length byte
// included).
func DecodeAFTReceiptData(data []byte) (aft.ReceiptTextSet, error) {
	body, err := lengthBody(CmdAFTReceiptData, data)
	if err != nil {
		return aft.ReceiptTextSet{}, err
	}
	return aft.ParseReceiptText(body)
}

// EncodeAFTReceiptData builds the data of a 0x75 poll (length byte
// included), for the host.
func EncodeAFTReceiptData(r aft.ReceiptTextSet) ([]byte, error) {
	b, err := aft.AppendReceiptText(nil, r)
	if err != nil {
		return nil, err
	}
	if len(b) > 255 {
		return nil, aftErr(CmdAFTReceiptData, aft.StatusInvalidFunction, "fields", "%d bytes, at most 255", len(b))
	}
	return lengthPrefixed(b), nil
}
