package sas

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/openegm/cabinet/aft"
)

// Long polls 0x72 (AFT transfer funds), 0x73 (AFT register gaming
// machine) and 0x74 (AFT game lock and status request): the wire layouts
// of package aft's messages, for the machine (decode polls, encode
// replies) and the host (the reverse).
//
// Sources. Confirmed in two public sources, the "IGT SAS Protocol Version
// 6.02 Reference Documentation" digest (section 8, for the meaning) and
// the Aristocrat Monaco SAS client (LP72AftTransferFundsParser,
// LP73AftRegisterGamingMachineParser, LP74AftGameLockAndStatusRequestParser
// and their tests, for the byte layouts): every field of the three polls
// and three replies, their order and widths; binary fields (asset number,
// POS ID, pool ID) least significant byte first; amounts 5 BCD in cents;
// the 0x74 reply length 0x23 with a 4-byte expiration; 0x73 of length 1
// for read and unregister, 0x1D otherwise; the 0x72 reply's short forms.
// Best reading, one source only: the 0x72 lock timeout (2 BCD) after the
// receipt data (the Aristocrat table lists it, its parser stops before
// it: both lengths are accepted here); the cumulative meter sizes (0 while
// pending; the Aristocrat machine sends 8 bytes, this one 5, the width of
// SAS cents meters); the history index 81–FF counted back from the newest
// entry (FF the newest).

// The AFT long poll commands.
const (
	CmdAFTTransfer byte = 0x72
	CmdAFTRegister byte = 0x73
	CmdAFTLock     byte = 0x74
)

// AFTLongPolls gives the frames of the AFT long polls as the host sends
// them, for the long-poll table (frame.go) when the cabinet answers AFT:
// 72 and 73 carry a length byte, 74 is fixed (lock code, conditions, 2
// BCD timeout).
var AFTLongPolls = map[byte]LongPollSpec{
	CmdAFTTransfer: {PollS, 5, true, false},
	CmdAFTRegister: {PollS, 5, true, false},
	CmdAFTLock:     {PollS, 8, false, false},
}

func init() {
	for c, spec := range AFTLongPolls {
		longPollLength[c] = spec
	}
}

// ErrAFT is returned (wrapped in an *AFTError) for an AFT message that
// does not follow its layout.
var ErrAFT = errors.New("sas: bad AFT message")

// AFTError names the field of an AFT message that is wrong, and the 0x72
// transfer status a machine answers a transfer poll with when it is.
type AFTError struct {
	Cmd    byte
	Field  string
	Reason string
	// Status is the transfer status for the refusal (0x72 polls only).
	Status aft.Status
}

func (e *AFTError) Error() string {
	return fmt.Sprintf("%v: %02X %s: %s", ErrAFT, e.Cmd, e.Field, e.Reason)
}

func (e *AFTError) Unwrap() error { return ErrAFT }

func aftErr(cmd byte, st aft.Status, field, format string, a ...any) error {
	return &AFTError{Cmd: cmd, Field: field, Reason: fmt.Sprintf(format, a...), Status: st}
}

// aftReader takes the fields of a message in order and remembers the
// first error, naming the field.
type aftReader struct {
	cmd byte
	b   []byte
	err error
}

func (r *aftReader) take(n int, field string, st aft.Status) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.err = aftErr(r.cmd, st, field, "needs %d bytes, %d left", n, len(r.b))
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *aftReader) byte1(field string, st aft.Status) byte {
	if b := r.take(1, field, st); b != nil {
		return b[0]
	}
	return 0
}

func (r *aftReader) bcd(n int, field string, st aft.Status) uint64 {
	b := r.take(n, field, st)
	if b == nil {
		return 0
	}
	v, err := DecodeBCD(b)
	if err != nil {
		r.err = aftErr(r.cmd, st, field, "%v", err)
	}
	return v
}

func (r *aftReader) amount(field string, st aft.Status) int64 {
	return int64(r.bcd(5, field, st)) // 10 digits fit an int64
}

func (r *aftReader) le(n int, field string, st aft.Status) uint32 {
	b := r.take(n, field, st)
	var v uint32
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint32(b[i])
	}
	return v
}

func (r *aftReader) id(field string, st aft.Status, allowEmpty bool) string {
	n := int(r.byte1(field+" length", st))
	if r.err != nil {
		return ""
	}
	if n > 20 || (n == 0 && !allowEmpty) {
		r.err = aftErr(r.cmd, st, field+" length", "%d, want 1-20", n)
		return ""
	}
	b := r.take(n, field, st)
	if r.err == nil && n > 0 && !aft.ValidID(string(b)) {
		r.err = aftErr(r.cmd, st, field, "%q: only printable ASCII (20-7E)", b)
	}
	return string(b)
}

func (r *aftReader) end() error {
	if r.err == nil && len(r.b) != 0 {
		r.err = aftErr(r.cmd, aft.StatusInvalidFunction, "end", "%d bytes after the last field", len(r.b))
	}
	return r.err
}

// lengthBody checks the length byte of a variable-length message and
// returns what it counts.
func lengthBody(cmd byte, data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, aftErr(cmd, aft.StatusInvalidFunction, "length", "missing")
	}
	if int(data[0]) != len(data)-1 {
		return nil, aftErr(cmd, aft.StatusInvalidFunction, "length", "says %d bytes, %d follow", data[0], len(data)-1)
	}
	return data[1:], nil
}

// lengthPrefixed prepends the length byte to an AFT message's data (its
// fields are bounded well below 255 bytes).
func lengthPrefixed(b []byte) []byte { return append([]byte{byte(len(b))}, b...) }

// DecodeAFTTransfer decodes the data of a 0x72 poll (length byte
// included). On error, the *AFTError's Status is the transfer status to
// answer with (82 a bad length or layout, 83 an amount or expiration not
// in BCD, 95 a bad transaction ID, C1 an unknown transfer code).
func DecodeAFTTransfer(data []byte) (aft.TransferRequest, error) {
	body, err := lengthBody(CmdAFTTransfer, data)
	if err != nil {
		return aft.TransferRequest{}, err
	}
	r := &aftReader{cmd: CmdAFTTransfer, b: body}
	var q aft.TransferRequest
	q.Code = aft.TransferCode(r.byte1("transfer code", aft.StatusInvalidFunction))
	switch {
	case r.err != nil:
		return aft.TransferRequest{}, r.err
	case q.Code == aft.CodeCancel:
		return q, r.end()
	case q.Code.Interrogation():
		q.Index = r.byte1("transaction index", aft.StatusInvalidFunction)
		return q, r.end()
	}
	layout := aft.StatusInvalidFunction
	if q.Code != aft.CodeFull && q.Code != aft.CodePartial {
		layout = aft.StatusUnsupportedCode
	}
	q.Index = r.byte1("transaction index", layout)
	q.Type = aft.TransferType(r.byte1("transfer type", layout))
	q.Cashable = r.amount("cashable amount", aft.StatusInvalidAmount)
	q.Restricted = r.amount("restricted amount", aft.StatusInvalidAmount)
	q.NonRestricted = r.amount("non-restricted amount", aft.StatusInvalidAmount)
	q.Flags = aft.TransferFlags(r.byte1("transfer flags", layout))
	q.Asset = r.le(4, "asset number", layout)
	copy(q.Key[:], r.take(len(q.Key), "registration key", layout))
	q.ID = r.id("transaction ID", aft.StatusIDInvalid, false)
	q.Expiration = aft.Expiration(r.bcd(4, "expiration", aft.StatusInvalidAmount))
	q.PoolID = uint16(r.le(2, "pool ID", layout))
	n := int(r.byte1("receipt data length", layout))
	if rd := r.take(n, "receipt data", layout); n > 0 && rd != nil {
		q.Receipt = append([]byte(nil), rd...)
		if err := checkReceiptFields(q.Receipt); err != nil && r.err == nil {
			r.err = aftErr(CmdAFTTransfer, layout, "receipt data", "%v", err)
		}
	}
	if r.err == nil && len(r.b) > 0 {
		q.LockTimeout = uint16(r.bcd(2, "lock timeout", layout))
	}
	if err := r.end(); err != nil {
		return aft.TransferRequest{}, err
	}
	if layout == aft.StatusUnsupportedCode {
		return q, aftErr(CmdAFTTransfer, layout, "transfer code", "%02X unknown", byte(q.Code))
	}
	return q, nil
}

// checkReceiptFields checks the framing of receipt data: fields of a code
// byte, a length byte and that many bytes (SAS table 8.3f).
func checkReceiptFields(b []byte) error {
	for i := 0; i < len(b); {
		if i+2 > len(b) {
			return fmt.Errorf("field at byte %d has no length", i)
		}
		n := int(b[i+1])
		if i+2+n > len(b) {
			return fmt.Errorf("field %02X at byte %d: %d bytes, %d left", b[i], i, n, len(b)-i-2)
		}
		i += 2 + n
	}
	return nil
}

// EncodeAFTTransfer builds the data of a 0x72 poll (length byte
// included), for the host. Values the layout cannot carry are an error.
func EncodeAFTTransfer(q aft.TransferRequest) ([]byte, error) {
	switch {
	case q.Code == aft.CodeCancel:
		return lengthPrefixed([]byte{byte(q.Code)}), nil
	case q.Code.Interrogation():
		return lengthPrefixed([]byte{byte(q.Code), q.Index}), nil
	}
	for _, a := range []struct {
		name string
		v    int64
	}{{"cashable amount", q.Cashable}, {"restricted amount", q.Restricted}, {"non-restricted amount", q.NonRestricted}} {
		if a.v < 0 || a.v > aft.MaxAmount {
			return nil, aftErr(CmdAFTTransfer, aft.StatusInvalidAmount, a.name, "%d cents outside 0-%d", a.v, aft.MaxAmount)
		}
	}
	switch {
	case !aft.ValidID(q.ID):
		return nil, aftErr(CmdAFTTransfer, aft.StatusIDInvalid, "transaction ID", "%q: want 1-20 printable ASCII", q.ID)
	case q.Expiration > aft.MaxExpiration:
		return nil, aftErr(CmdAFTTransfer, aft.StatusInvalidAmount, "expiration", "%d has more than 8 digits", q.Expiration)
	case q.LockTimeout > 9999:
		return nil, aftErr(CmdAFTTransfer, aft.StatusInvalidFunction, "lock timeout", "%d outside 0-9999", q.LockTimeout)
	case len(q.Receipt) > 255:
		return nil, aftErr(CmdAFTTransfer, aft.StatusInvalidFunction, "receipt data", "%d bytes, at most 255", len(q.Receipt))
	}
	if err := checkReceiptFields(q.Receipt); err != nil {
		return nil, aftErr(CmdAFTTransfer, aft.StatusInvalidFunction, "receipt data", "%v", err)
	}
	b := []byte{byte(q.Code), q.Index, byte(q.Type)}
	b = AppendBCD(b, uint64(q.Cashable), 5)
	b = AppendBCD(b, uint64(q.Restricted), 5)
	b = AppendBCD(b, uint64(q.NonRestricted), 5)
	b = append(b, byte(q.Flags))
	b = appendLE(b, uint64(q.Asset), 4)
	b = append(b, q.Key[:]...)
	b = append(b, byte(len(q.ID)))
	b = append(b, q.ID...)
	b = AppendBCD(b, uint64(q.Expiration), 4)
	b = appendLE(b, uint64(q.PoolID), 2)
	b = append(b, byte(len(q.Receipt)))
	b = append(b, q.Receipt...)
	b = AppendBCD(b, uint64(q.LockTimeout), 2)
	if len(b) > 255 {
		return nil, aftErr(CmdAFTTransfer, aft.StatusInvalidFunction, "length", "%d bytes, at most 255", len(b))
	}
	return lengthPrefixed(b), nil
}

// cumulativeSize is the width of the cumulative meters this machine sends
// in a 0x72 reply: 5 bytes, like every SAS meter in cents.
const cumulativeSize = 5

// EncodeAFTTransferReply builds the data of a 0x72 reply (length byte
// included): the short form for statuses 80, C0 and C1, position, status
// and receipt status for FF, every field otherwise. The date and time are
// zeros while the transfer is pending (zero At), and so are the sizes of
// the cumulative meters (nil Meters).
func EncodeAFTTransferReply(r aft.TransferReply) []byte {
	switch {
	case r.Short():
		return lengthPrefixed([]byte{r.Position, byte(r.Status)})
	case r.Status == aft.StatusNoInfo:
		return lengthPrefixed([]byte{r.Position, byte(r.Status), byte(r.ReceiptStatus)})
	}
	b := []byte{r.Position, byte(r.Status), byte(r.ReceiptStatus), byte(r.Type)}
	b = AppendBCD(b, uint64(max(r.Cashable, 0)), 5)
	b = AppendBCD(b, uint64(max(r.Restricted, 0)), 5)
	b = AppendBCD(b, uint64(max(r.NonRestricted, 0)), 5)
	b = append(b, byte(r.Flags))
	b = appendLE(b, uint64(r.Asset), 4)
	id := r.ID
	if len(id) > 20 {
		id = id[:20]
	}
	b = append(b, byte(len(id)))
	b = append(b, id...)
	if r.At.IsZero() {
		b = append(b, make([]byte, 7)...)
	} else {
		b = append(b, EncodeTime(r.At)...)
	}
	b = AppendBCD(b, uint64(r.Expiration), 4)
	b = appendLE(b, uint64(r.PoolID), 2)
	if r.Meters == nil {
		b = append(b, 0, 0, 0)
	} else {
		for _, v := range [3]int64{r.Meters.Cashable, r.Meters.Restricted, r.Meters.NonRestricted} {
			b = append(b, cumulativeSize)
			b = AppendBCD(b, uint64(max(v, 0)), cumulativeSize)
		}
	}
	return lengthPrefixed(b)
}

// DecodeAFTTransferReply decodes the data of a 0x72 reply (length byte
// included), for the host.
func DecodeAFTTransferReply(data []byte) (aft.TransferReply, error) {
	body, err := lengthBody(CmdAFTTransfer, data)
	if err != nil {
		return aft.TransferReply{}, err
	}
	r := &aftReader{cmd: CmdAFTTransfer, b: body}
	var p aft.TransferReply
	p.Position = r.byte1("transaction buffer position", 0)
	p.Status = aft.Status(r.byte1("transfer status", 0))
	if r.err != nil {
		return aft.TransferReply{}, r.err
	}
	switch {
	case len(body) == 2:
		if !p.Short() {
			return aft.TransferReply{}, aftErr(CmdAFTTransfer, 0, "length", "2 bytes for status %v, which has the long form", p.Status)
		}
		return p, nil
	case p.Short():
		return aft.TransferReply{}, aftErr(CmdAFTTransfer, 0, "length", "%d bytes for status %v, which has the short form", len(body), p.Status)
	case p.Status == aft.StatusNoInfo:
		p.ReceiptStatus = aft.ReceiptStatus(r.byte1("receipt status", 0))
		return p, r.end()
	}
	p.ReceiptStatus = aft.ReceiptStatus(r.byte1("receipt status", 0))
	p.Type = aft.TransferType(r.byte1("transfer type", 0))
	p.Cashable = r.amount("cashable amount", 0)
	p.Restricted = r.amount("restricted amount", 0)
	p.NonRestricted = r.amount("non-restricted amount", 0)
	p.Flags = aft.TransferFlags(r.byte1("transfer flags", 0))
	p.Asset = r.le(4, "asset number", 0)
	p.ID = r.id("transaction ID", 0, true)
	if dt := r.take(7, "transaction date and time", 0); dt != nil {
		t, err := decodeAFTTime(dt)
		if err != nil && r.err == nil {
			r.err = aftErr(CmdAFTTransfer, 0, "transaction date and time", "%v", err)
		}
		p.At = t
	}
	p.Expiration = aft.Expiration(r.bcd(4, "expiration", 0))
	p.PoolID = uint16(r.le(2, "pool ID", 0))
	var m [3]int64
	var sized bool
	for i, name := range [3]string{"cumulative cashable meter", "cumulative restricted meter", "cumulative non-restricted meter"} {
		n := int(r.byte1(name+" size", 0))
		if n > 9 && r.err == nil {
			r.err = aftErr(CmdAFTTransfer, 0, name+" size", "%d, want 0-9", n)
		}
		if n > 0 {
			sized = true
			v := r.bcd(n, name, 0)
			if v > 1<<62 && r.err == nil {
				r.err = aftErr(CmdAFTTransfer, 0, name, "%d too large", v)
			}
			m[i] = int64(v)
		}
	}
	if err := r.end(); err != nil {
		return aft.TransferReply{}, err
	}
	if sized {
		p.Meters = &aft.Cumulative{Cashable: m[0], Restricted: m[1], NonRestricted: m[2]}
	}
	return p, nil
}

// decodeAFTTime reads MMDDYYYY HHMMSS (BCD); all zeros is no time (a
// pending transfer). The time is the machine's wall clock, given in UTC.
func decodeAFTTime(b []byte) (time.Time, error) {
	if allZero(b) {
		return time.Time{}, nil
	}
	var f [6]int
	for i, w := range []int{1, 1, 2, 1, 1, 1} {
		v, err := DecodeBCD(b[:w])
		if err != nil {
			return time.Time{}, err
		}
		f[i], b = int(v), b[w:]
	}
	mo, d, y, h, mi, s := f[0], f[1], f[2], f[3], f[4], f[5]
	t := time.Date(y, time.Month(mo), d, h, mi, s, 0, time.UTC)
	if mo < 1 || mo > 12 || t.Day() != d || h > 23 || mi > 59 || s > 59 {
		return time.Time{}, fmt.Errorf("%02d/%02d/%04d %02d:%02d:%02d is not a date and time", mo, d, y, h, mi, s)
	}
	return t, nil
}

// regLong is the length of a 0x73 poll or reply with every field: code or
// status, asset number, key, POS ID.
const regLong = 1 + 4 + 20 + 4

// DecodeAFTRegister decodes the data of a 0x73 poll (length byte
// included). Read (FF) and unregister (80) may come with the code alone;
// their other fields are not used and decode as zero.
func DecodeAFTRegister(data []byte) (aft.RegisterRequest, error) {
	body, err := lengthBody(CmdAFTRegister, data)
	if err != nil {
		return aft.RegisterRequest{}, err
	}
	if len(body) != 1 && len(body) != regLong {
		return aft.RegisterRequest{}, aftErr(CmdAFTRegister, 0, "length", "%d, want 1 or %d", len(body), regLong)
	}
	q := aft.RegisterRequest{Code: aft.RegCode(body[0])}
	if q.Code == aft.RegRead || q.Code == aft.RegUnregister {
		return q, nil
	}
	if len(body) == 1 {
		return aft.RegisterRequest{}, aftErr(CmdAFTRegister, 0, "length", "1 for registration code %02X, which needs asset, key and POS ID", body[0])
	}
	q.Asset = binary.LittleEndian.Uint32(body[1:5])
	copy(q.Key[:], body[5:25])
	q.POSID = binary.LittleEndian.Uint32(body[25:29])
	return q, nil
}

// EncodeAFTRegister builds the data of a 0x73 poll (length byte
// included): the code alone for read and unregister.
func EncodeAFTRegister(q aft.RegisterRequest) []byte {
	if q.Code == aft.RegRead || q.Code == aft.RegUnregister {
		return lengthPrefixed([]byte{byte(q.Code)})
	}
	b := appendLE([]byte{byte(q.Code)}, uint64(q.Asset), 4)
	b = append(b, q.Key[:]...)
	return lengthPrefixed(appendLE(b, uint64(q.POSID), 4))
}

// EncodeAFTRegisterReply builds the data of a 0x73 reply.
func EncodeAFTRegisterReply(p aft.RegisterReply) []byte {
	b := appendLE([]byte{byte(p.Status)}, uint64(p.Asset), 4)
	b = append(b, p.Key[:]...)
	return lengthPrefixed(appendLE(b, uint64(p.POSID), 4))
}

// DecodeAFTRegisterReply decodes the data of a 0x73 reply.
func DecodeAFTRegisterReply(data []byte) (aft.RegisterReply, error) {
	body, err := lengthBody(CmdAFTRegister, data)
	if err != nil {
		return aft.RegisterReply{}, err
	}
	if len(body) != regLong {
		return aft.RegisterReply{}, aftErr(CmdAFTRegister, 0, "length", "%d, want %d", len(body), regLong)
	}
	p := aft.RegisterReply{Status: aft.RegStatus(body[0]), Asset: binary.LittleEndian.Uint32(body[1:5]),
		POSID: binary.LittleEndian.Uint32(body[25:29])}
	copy(p.Key[:], body[5:25])
	return p, nil
}

// DecodeAFTLock decodes the data of a 0x74 poll: lock code, transfer
// conditions, lock timeout (2 BCD, hundredths of a second). An
// interrogation's conditions and timeout are not used and decode as zero.
func DecodeAFTLock(data []byte) (aft.LockRequest, error) {
	if len(data) != 4 {
		return aft.LockRequest{}, aftErr(CmdAFTLock, 0, "length", "%d bytes, want 4", len(data))
	}
	q := aft.LockRequest{Code: aft.LockCode(data[0])}
	if q.Code == aft.InterrogateLock {
		return q, nil
	}
	t, err := DecodeBCD(data[2:4])
	if err != nil {
		return aft.LockRequest{}, aftErr(CmdAFTLock, 0, "lock timeout", "%v", err)
	}
	q.Conditions, q.Timeout = data[1], uint16(t)
	return q, nil
}

// EncodeAFTLock builds the data of a 0x74 poll.
func EncodeAFTLock(q aft.LockRequest) ([]byte, error) {
	if q.Timeout > 9999 {
		return nil, aftErr(CmdAFTLock, 0, "lock timeout", "%d outside 0-9999", q.Timeout)
	}
	if q.Code == aft.InterrogateLock {
		return []byte{byte(q.Code), 0, 0, 0}, nil
	}
	return AppendBCD([]byte{byte(q.Code), q.Conditions}, uint64(q.Timeout), 2), nil
}

// statusLen is the length byte of the 0x74 reply.
const statusLen = 0x23

// EncodeAFTStatusReply builds the data of a 0x74 reply (length byte
// included).
func EncodeAFTStatusReply(p aft.StatusReply) []byte {
	b := appendLE(nil, uint64(p.Asset), 4)
	b = append(b, byte(p.Lock), p.Available, byte(p.HostCashout), p.AFTStatus, p.MaxIndex)
	for _, v := range [4]int64{p.Cashable, p.Restricted, p.NonRestricted, p.TransferLimit} {
		b = AppendBCD(b, uint64(max(v, 0)), 5)
	}
	b = AppendBCD(b, uint64(p.RestrictedExpiration), 4)
	return lengthPrefixed(appendLE(b, uint64(p.RestrictedPool), 2))
}

// DecodeAFTStatusReply decodes the data of a 0x74 reply.
func DecodeAFTStatusReply(data []byte) (aft.StatusReply, error) {
	body, err := lengthBody(CmdAFTLock, data)
	if err != nil {
		return aft.StatusReply{}, err
	}
	if len(body) != statusLen {
		return aft.StatusReply{}, aftErr(CmdAFTLock, 0, "length", "%d, want %d", len(body), statusLen)
	}
	r := &aftReader{cmd: CmdAFTLock, b: body}
	var p aft.StatusReply
	p.Asset = r.le(4, "asset number", 0)
	p.Lock = aft.LockStatus(r.byte1("game lock status", 0))
	p.Available = r.byte1("available transfers", 0)
	p.HostCashout = aft.HostCashout(r.byte1("host cashout status", 0))
	p.AFTStatus = r.byte1("AFT status", 0)
	p.MaxIndex = r.byte1("max buffer index", 0)
	p.Cashable = r.amount("current cashable amount", 0)
	p.Restricted = r.amount("current restricted amount", 0)
	p.NonRestricted = r.amount("current non-restricted amount", 0)
	p.TransferLimit = r.amount("transfer limit", 0)
	p.RestrictedExpiration = aft.Expiration(r.bcd(4, "restricted expiration", 0))
	p.RestrictedPool = uint16(r.le(2, "restricted pool ID", 0))
	return p, r.end()
}
