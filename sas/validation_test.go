package sas

import (
	"bytes"
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// hx reads hex with spaces, for byte vectors written by hand.
func hx(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// codecCase is one message: its value, its data bytes written by hand from
// the field tables, and the decoder.
type codecCase struct {
	name   string
	value  any
	data   string
	encode func() ([]byte, error)
	decode func([]byte) (any, error)
}

func wrap[T any](f func([]byte) (T, error)) func([]byte) (any, error) {
	return func(b []byte) (any, error) { return f(b) }
}

var seDigits = "00 64 29 18 81 85 44 61 04" // 006429188185446104 (tito's worked vector)

func ticketCases(t testing.TB) []codecCase {
	at := time.Date(2026, 3, 1, 14, 5, 9, 0, time.UTC)
	data := hx(t, seDigits)
	rec := ValidationRecord{Type: ValCashableTicket, Index: 1, At: at, Number: 6429188185446104, Cents: 12345,
		TicketNumber: 42, SystemID: 0, Expiration: 30, PoolID: 0}
	cashout := CashOutTicketInfo{Validation: 85446104, Cents: 12345}
	vid := ValidationID{MachineID: 0x654321, Sequence: 1}
	meters := ValidationMeters{Type: ValCashableRedeemed, Count: 7, Cents: 12345}
	pending := PendingCashout{Type: CashoutCashable, Cents: 12345}
	vnum := ValidationNumber{SystemID: 12, Number: 1234567890123456}
	ctl := ValidationControl{Mask: 0x0021, States: 0x0021, CashableExpiration: 30, RestrictedExpiration: 9999}
	status := ValidationStatus{Asset: 10142, Status: 0x8021, CashableExpiration: 30, RestrictedExpiration: 9999}
	texts := []TicketText{{TicketLocation, "CASINO"}, {TicketRestrictedTitle, "PLAY ONLY"}}
	tdata := TicketData{Fields: 5, HostID: 0x0102, Expiry: 30, Location: "CASINO", Address2: "ESTORIL"}
	tvd := TicketValidationData{Status: TicketInEscrow, Cents: 12345, ParsingCode: ParsingBCD, Data: data}
	noTicket := TicketValidationData{Status: TicketNone}
	redeem := RedeemTicket{Code: TransferCashable, Cents: 12345, ParsingCode: ParsingBCD, Data: data}
	restricted := RedeemTicket{Code: TransferRestricted, Cents: 500, ParsingCode: ParsingBCD, Data: data,
		Restricted: true, Expiration: 7, PoolID: 0x0203, TargetID: "P1", HasTarget: true}
	statusReq := RedeemTicket{Code: TransferStatusRequest}
	pendingReply := RedeemReply{Status: RedeemPending, Cents: 12345, ParsingCode: ParsingBCD, Data: data}
	shortReply := RedeemReply{Status: RedeemNotThisCycle}
	return []codecCase{
		{"3D reply", cashout, "85446104 0000012345", cashout.Encode, wrap(DecodeCashOutTicketInfo)},
		{"4C", vid, "214365 010000", vid.Encode, wrap(DecodeValidationID)},
		{"4D reply", rec, "00 01 03012026 140509 6429188185446104 0000012345 2A00 00 00000030 0000", rec.Encode, wrap(DecodeValidationRecord)},
		{"4D reply, none", ValidationRecord{}, strings.Repeat("00", 31), ValidationRecord{}.Encode, wrap(DecodeValidationRecord)},
		{"50 reply", meters, "80 00000007 0000012345", meters.Encode, wrap(DecodeValidationMeters)},
		{"57 reply", pending, "00 0000012345", pending.Encode, wrap(DecodePendingCashout)},
		{"58", vnum, "12 1234567890123456", vnum.Encode, wrap(DecodeValidationNumber)},
		{"7B", ctl, "08 2100 2100 0030 9999", ctl.Encode, wrap(DecodeValidationControl)},
		{"7B reply", status, "0A 9E270000 2180 0030 9999", status.Encode, wrap(DecodeValidationStatus)},
		{"7C", texts, "13 00 06 434153494E4F 10 09 504C4159204F4E4C59",
			func() ([]byte, error) { return EncodeExtendedTicketData(texts) }, wrap(DecodeExtendedTicketData)},
		{"7D", tdata, "13 0201 1E 06 434153494E4F 00 07 4553544F52494C", tdata.Encode, wrap(DecodeTicketData)},
		{"70 reply", tvd, "10 00 0000012345 00 " + seDigits, tvd.Encode, wrap(DecodeTicketValidationData)},
		{"70 reply, no ticket", noTicket, "01 FF", noTicket.Encode, wrap(DecodeTicketValidationData)},
		{"71", redeem, "10 00 0000012345 00 " + seDigits, redeem.Encode, wrap(DecodeRedeemTicket)},
		{"71 restricted", restricted, "19 01 0000000500 00 " + seDigits + " 00000007 0302 02 5031", restricted.Encode, wrap(DecodeRedeemTicket)},
		{"71 status request", statusReq, "01 FF", statusReq.Encode, wrap(DecodeRedeemTicket)},
		{"71 reply", pendingReply, "10 40 0000012345 00 " + seDigits, pendingReply.Encode, wrap(DecodeRedeemReply)},
		{"71 reply, C0", shortReply, "01 C0", shortReply.Encode, wrap(DecodeRedeemReply)},
	}
}

// Each message against its bytes written by hand from the field tables
// (sources in validation.go): the value encodes to them and they decode to
// the value.
func TestTicketMessageVectors(t *testing.T) {
	for _, c := range ticketCases(t) {
		want := hx(t, c.data)
		got, err := c.encode()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: encode = % X, %v\n want % X", c.name, got, err, want)
			continue
		}
		back, err := c.decode(want)
		if err != nil || !reflect.DeepEqual(back, c.value) {
			t.Errorf("%s: decode = %+v, %v\n want %+v", c.name, back, err, c.value)
		}
	}
}

// Truncated, extended or damaged data is refused, and the error names the
// poll and the field.
func TestTicketMessagesStrict(t *testing.T) {
	for _, c := range ticketCases(t) {
		good := hx(t, c.data)
		if len(good) > 1 {
			if _, err := c.decode(good[:len(good)-1]); !errors.Is(err, ErrTicketData) {
				t.Errorf("%s: one byte short: %v", c.name, err)
			}
		}
		if _, err := c.decode(append(bytes.Clone(good), 0)); !errors.Is(err, ErrTicketData) {
			t.Errorf("%s: one byte more: %v", c.name, err)
		}
	}
	for _, c := range []struct {
		name, data string
		decode     func([]byte) (any, error)
		want       string
	}{
		{"4D bad BCD amount", "00 01 03012026 140509 6429188185446104 00000123A5 2A00 00 00000030 0000", wrap(DecodeValidationRecord), "4D amount"},
		{"4D 30 February", "00 01 02302026 140509 6429188185446104 0000012345 2A00 00 00000030 0000", wrap(DecodeValidationRecord), "4D date and time"},
		{"4D unknown type", "05 01 03012026 140509 6429188185446104 0000012345 2A00 00 00000030 0000", wrap(DecodeValidationRecord), "table 15.13c"},
		{"4D ticket number 10000", "00 01 03012026 140509 6429188185446104 0000012345 1027 00 00000030 0000", wrap(DecodeValidationRecord), "ticket number"},
		{"58 bad BCD", "1A 1234567890123456", wrap(DecodeValidationNumber), "58 system ID"},
		{"57 bad type", "02 0000012345", wrap(DecodePendingCashout), "cash-out type"},
		{"7B unknown bit", "08 0001 0000 0030 9999", wrap(DecodeValidationControl), "control mask"},
		{"7B length byte", "07 2100 2100 0030 9999", wrap(DecodeValidationControl), "length byte"},
		{"7C title too long", "13 10 11 41414141414141414141414141414141 41", wrap(DecodeExtendedTicketData), "at most 16"},
		{"7C unknown code", "03 05 01 41", wrap(DecodeExtendedTicketData), "table 15.3c"},
		{"7D non-ASCII", "06 0201 1E 02 41 0A", wrap(DecodeTicketData), "not printable"},
		{"70 bad digits", "10 00 0000012345 00 00642918818544610F", wrap(DecodeTicketValidationData), "validation data"},
		{"71 unknown code", "10 03 0000012345 00 " + seDigits, wrap(DecodeRedeemTicket), "table 15.12c"},
		{"71 valid without data", "01 00", wrap(DecodeRedeemTicket), "without amount"},
		{"71 parsing code 01", "10 00 0000012345 01 " + seDigits, wrap(DecodeRedeemTicket), "parsing code 01"},
		{"71 reply unknown status", "01 41", wrap(DecodeRedeemReply), "table 15.12d"},
		{"4D function code", "20", wrap(DecodeEnhancedValidationPoll), "function code 20"},
		{"50 unknown type", "07", wrap(DecodeValidationMetersPoll), "table 15.13c"},
		{"58 status", "01", wrap(DecodeReceiveValidationStatus), "status 01"},
		{"7C flag", "02", func(b []byte) (any, error) { return DecodeTicketDataFlag(0x7C, b) }, "flag 02"},
	} {
		_, err := c.decode(hx(t, c.data))
		if !errors.Is(err, ErrTicketData) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrTicketData naming %q", c.name, err, c.want)
		}
	}
	for _, fn := range []byte{0x00, 0x01, 0x1F, 0xFF} {
		if got, err := DecodeEnhancedValidationPoll([]byte{fn}); err != nil || got != fn {
			t.Errorf("4D function code %02X: %v", fn, err)
		}
	}
}

// Values out of their fields are refused by the encoders, never rolled
// over.
func TestTicketEncodersRefuseOutOfRange(t *testing.T) {
	data := hx(t, seDigits)
	for name, enc := range map[string]func() ([]byte, error){
		"3D number":        CashOutTicketInfo{Validation: 1e8}.Encode,
		"3D amount":        CashOutTicketInfo{Cents: 1e10}.Encode,
		"4C ID":            ValidationID{MachineID: 1 << 24}.Encode,
		"4D index":         ValidationRecord{Type: ValCashableTicket, Index: 0x20, At: time.Now()}.Encode,
		"4D number":        ValidationRecord{Type: ValCashableTicket, Number: 1e16, At: time.Now()}.Encode,
		"50 type":          ValidationMeters{Type: 0x05}.Encode,
		"57 type":          PendingCashout{Type: 0x02}.Encode,
		"58 system ID":     ValidationNumber{SystemID: 100}.Encode,
		"7B expiration":    ValidationControl{CashableExpiration: 10000}.Encode,
		"7C text":          func() ([]byte, error) { return EncodeExtendedTicketData([]TicketText{{0, strings.Repeat("x", 41)}}) },
		"7D fields":        TicketData{Fields: 2, Location: "X"}.Encode,
		"70 data":          TicketValidationData{Status: TicketInEscrow, Data: data[:8]}.Encode,
		"71 parsing code":  RedeemTicket{Code: TransferCashable, ParsingCode: 1, Data: data}.Encode,
		"71 pool no restr": RedeemTicket{Code: TransferCashable, Data: data, PoolID: 1}.Encode,
		"71 reply status":  RedeemReply{Status: 0x41}.Encode,
	} {
		if b, err := enc(); !errors.Is(err, ErrTicketData) {
			t.Errorf("%s: % X, %v", name, b, err)
		}
	}
}

// The frames of the ticket polls as the host sends them: type R without
// a CRC, the others with one, lengths as the table says.
func TestTicketPollFrames(t *testing.T) {
	f, err := TicketPollFrame(1, CmdTicketValidationData)
	if err != nil || !bytes.Equal(f, []byte{1, 0x70}) {
		t.Fatalf("70 frame % X, %v", f, err)
	}
	d, _ := RedeemTicket{Code: TransferStatusRequest}.Encode()
	f, err = TicketPollFrame(1, CmdRedeemTicket, d...)
	if err != nil || !bytes.Equal(f[:4], []byte{1, 0x71, 1, 0xFF}) || len(f) != 6 || !CheckCRC(f) {
		t.Fatalf("71 FF frame % X, %v", f, err)
	}
	for _, bad := range []struct {
		cmd  byte
		data []byte
	}{{0x70, []byte{1}}, {0x4C, []byte{1, 2}}, {0x71, []byte{5, 0}}, {0x01, nil}} {
		if _, err := TicketPollFrame(1, bad.cmd, bad.data...); !errors.Is(err, ErrTicketData) {
			t.Errorf("%02X % X: %v", bad.cmd, bad.data, err)
		}
	}
	for _, c := range TicketPollCommands() {
		if _, framed := LookupLongPoll(c); framed {
			t.Errorf("%02X is in the cabinet's table already: drop it from ticketPolls", c)
		}
	}
}

func TestRedemptionStatusClasses(t *testing.T) {
	for s := range 256 {
		st := RedemptionStatus(s)
		if !st.Known() {
			continue
		}
		if st.Redeemed() && st.Rejected() {
			t.Errorf("%v is both redeemed and rejected", st)
		}
		if want := st.Redeemed() || st.Rejected(); st.Final() != want {
			t.Errorf("%v final %v", st, st.Final())
		}
	}
	if RedeemPending.Final() || RedeemWaiting71.Final() || !RedeemTimeout.Rejected() || !RedeemedCashable.Redeemed() {
		t.Error("pending, waiting, timeout or redeemed misclassed")
	}
	if !TransferCashable.Accepts() || TransferAlreadyRedeemed.Accepts() || TransferStatusRequest.Accepts() {
		t.Error("transfer codes misclassed")
	}
}

// Whatever decodes encodes back to the same bytes: the decoders accept
// exactly one form of each message.
func FuzzTicketCodecs(f *testing.F) {
	for i, c := range ticketCases(f) {
		f.Add(byte(i), hx(f, c.data))
	}
	decoders := []func([]byte) ([]byte, error){
		func(b []byte) ([]byte, error) { v, err := DecodeCashOutTicketInfo(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) { v, err := DecodeValidationID(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) { v, err := DecodeValidationRecord(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) { v, err := DecodeValidationMeters(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) { v, err := DecodePendingCashout(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) { v, err := DecodeValidationNumber(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) { v, err := DecodeValidationControl(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) { v, err := DecodeValidationStatus(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) {
			v, err := DecodeExtendedTicketData(b)
			return reenc(func() ([]byte, error) { return EncodeExtendedTicketData(v) }, err)
		},
		func(b []byte) ([]byte, error) { v, err := DecodeTicketData(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) { v, err := DecodeTicketValidationData(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) { v, err := DecodeRedeemTicket(b); return reenc(v.Encode, err) },
		func(b []byte) ([]byte, error) { v, err := DecodeRedeemReply(b); return reenc(v.Encode, err) },
	}
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		dec := decoders[int(which)%len(decoders)]
		back, err := dec(data)
		if err != nil {
			if errors.Is(err, errDecode) {
				return
			}
			t.Fatalf("decoded % X but cannot encode it: %v", data, err)
		}
		if !bytes.Equal(back, data) {
			t.Fatalf("decoder %d: % X decodes and encodes to % X", int(which)%len(decoders), data, back)
		}
	})
}

var errDecode = errors.New("did not decode")

func reenc(enc func() ([]byte, error), err error) ([]byte, error) {
	if err != nil {
		return nil, errDecode
	}
	return enc()
}
