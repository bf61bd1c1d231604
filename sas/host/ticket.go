package host

import (
	"github.com/openegm/cabinet/sas"
)

// The ticket long polls from the host's side (validation: 3D, 4C, 4D,
// 50, 57, 58, 7B, 7C, 7D; ticket in: 70, 71). Layouts in sas/validation.go
// and sas/ticketin.go.

func init() {
	// Reply lengths, so a reply is complete at its last byte rather than
	// after a silence: 3D number 4 + amount 5; 4C ID 3 + sequence 3; 4D
	// the 31-byte record; 50 type, count 4, amount 5; 57 type, amount 5;
	// 58, 7C, 7D one status byte.
	for cmd, data := range map[byte]int{0x3D: 9, 0x4C: 6, 0x4D: 31, 0x50: 10, 0x57: 6, 0x58: 1, 0x7C: 1, 0x7D: 1} {
		replyLengths[cmd] = 2 + data + 2
	}
	for _, cmd := range []byte{0x70, 0x71, 0x7B} {
		variableReplies[cmd] = true
	}
}

// ticketData sends ticket long poll cmd and requires a data reply.
func (c *Client) ticketData(cmd byte, data ...byte) (Response, error) {
	frame, err := sas.TicketPollFrame(c.Addr(), cmd, data...)
	if err != nil {
		return Response{}, err
	}
	r, err := c.LongPollFrame(frame)
	if err != nil {
		return r, err
	}
	if r.Kind != ReplyData {
		return r, bad("%02X answered with %v, want data", cmd, r.Kind)
	}
	return r, nil
}

// encoded sends ticket long poll cmd with the data enc makes.
func (c *Client) encoded(cmd byte, enc func() ([]byte, error)) (Response, error) {
	data, err := enc()
	if err != nil {
		return Response{}, err
	}
	return c.ticketData(cmd, data...)
}

// CashOutTicketInfo reads the standard validation number and amount of the
// last ticket (0x3D).
func (c *Client) CashOutTicketInfo() (sas.CashOutTicketInfo, error) {
	r, err := c.ticketData(sas.CmdCashOutTicketInfo)
	if err != nil {
		return sas.CashOutTicketInfo{}, err
	}
	return sas.DecodeCashOutTicketInfo(r.Data)
}

// SetValidationID sets the machine's secure-enhanced validation ID and
// sequence (0x4C); ID 0 reads them. It returns what the machine reports.
func (c *Client) SetValidationID(v sas.ValidationID) (sas.ValidationID, error) {
	r, err := c.encoded(sas.CmdSetValidationID, v.Encode)
	if err != nil {
		return sas.ValidationID{}, err
	}
	return sas.DecodeValidationID(r.Data)
}

// EnhancedValidation reads a validation record (0x4D): function code 00
// for the next unread one, 01–1F by index, FF to look ahead. The zero
// record means none.
func (c *Client) EnhancedValidation(fn byte) (sas.ValidationRecord, error) {
	r, err := c.ticketData(sas.CmdEnhancedValidationInfo, fn)
	if err != nil {
		return sas.ValidationRecord{}, err
	}
	return sas.DecodeValidationRecord(r.Data)
}

// ValidationMeters reads the count and amount of one validation type
// (0x50).
func (c *Client) ValidationMeters(t sas.ValidationType) (sas.ValidationMeters, error) {
	r, err := c.ticketData(sas.CmdValidationMeters, byte(t))
	if err != nil {
		return sas.ValidationMeters{}, err
	}
	return sas.DecodeValidationMeters(r.Data)
}

// PendingCashout reads the cash-out waiting for a system validation
// number (0x57).
func (c *Client) PendingCashout() (sas.PendingCashout, error) {
	r, err := c.ticketData(sas.CmdPendingCashoutInfo)
	if err != nil {
		return sas.PendingCashout{}, err
	}
	return sas.DecodePendingCashout(r.Data)
}

// ReceiveValidationNumber sends the system validation number of the
// pending cash-out, or its denial (system ID 0), with 0x58 and returns the
// machine's status.
func (c *Client) ReceiveValidationNumber(v sas.ValidationNumber) (byte, error) {
	r, err := c.encoded(sas.CmdReceiveValidationNumber, v.Encode)
	if err != nil {
		return 0, err
	}
	return sas.DecodeReceiveValidationStatus(r.Data)
}

// TicketValidationData reads what the validator read of the ticket in
// escrow (0x70).
func (c *Client) TicketValidationData() (sas.TicketValidationData, error) {
	r, err := c.ticketData(sas.CmdTicketValidationData)
	if err != nil {
		return sas.TicketValidationData{}, err
	}
	return sas.DecodeTicketValidationData(r.Data)
}

// RedeemTicket sends the host's answer for the ticket in escrow, or a
// status request, with 0x71 and returns the machine's status.
func (c *Client) RedeemTicket(rt sas.RedeemTicket) (sas.RedeemReply, error) {
	r, err := c.encoded(sas.CmdRedeemTicket, rt.Encode)
	if err != nil {
		return sas.RedeemReply{}, err
	}
	return sas.DecodeRedeemReply(r.Data)
}

// ExtendedValidationStatus changes the validation options (0x7B; a zero
// mask only reads) and returns the machine's status.
func (c *Client) ExtendedValidationStatus(ctl sas.ValidationControl) (sas.ValidationStatus, error) {
	r, err := c.encoded(sas.CmdExtendedValidationStatus, ctl.Encode)
	if err != nil {
		return sas.ValidationStatus{}, err
	}
	return sas.DecodeValidationStatus(r.Data)
}

// SetTicketData sends the host ID, expiration and texts of tickets (0x7D)
// and returns the machine's flag.
func (c *Client) SetTicketData(d sas.TicketData) (bool, error) {
	r, err := c.encoded(sas.CmdSetTicketData, d.Encode)
	if err != nil {
		return false, err
	}
	return sas.DecodeTicketDataFlag(sas.CmdSetTicketData, r.Data)
}

// SetExtendedTicketData sends ticket texts by data code (0x7C) and returns
// the machine's flag.
func (c *Client) SetExtendedTicketData(texts []sas.TicketText) (bool, error) {
	r, err := c.encoded(sas.CmdSetExtendedTicketData, func() ([]byte, error) { return sas.EncodeExtendedTicketData(texts) })
	if err != nil {
		return false, err
	}
	return sas.DecodeTicketDataFlag(sas.CmdSetExtendedTicketData, r.Data)
}
