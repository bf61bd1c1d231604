package host

import (
	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas"
)

// AFTSetReceiptText sends 0x75 (set AFT receipt data): the texts every
// transaction receipt of the machine prints; an empty text puts the
// machine's default back. The machine acknowledges it.
func (c *Client) AFTSetReceiptText(r aft.ReceiptTextSet) error {
	data, err := sas.EncodeAFTReceiptData(r)
	if err != nil {
		return err
	}
	return c.ack(sas.CmdAFTReceiptData, data...)
}
