package sas

import (
	"bytes"
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func seqKey() aft.Key {
	var k aft.Key
	for i := range k {
		k[i] = byte(0xA0 + i)
	}
	return k
}

// A transfer request written out byte by byte from the layout (SAS 6.02
// 8.3): partial, in-house to machine, 123.45 cashable, 0.05 restricted,
// 7.00 non-restricted, a receipt asked for, asset 0x00BC614E, the key
// A0…B3, ID "TX-0001", expiring 31 December 2030, pool 0x0C00, one
// receipt field (patron name "ANA"), lock timeout 12.34 s.
const transferVector = `
	41
	01 00 00
	00 00 01 23 45
	00 00 00 00 05
	00 00 00 07 00
	80
	4E 61 BC 00
	A0 A1 A2 A3 A4 A5 A6 A7 A8 A9 AA AB AC AD AE AF B0 B1 B2 B3
	07 54 58 2D 30 30 30 31
	12 31 20 30
	00 0C
	05 10 03 41 4E 41
	12 34`

func transferVectorRequest() aft.TransferRequest {
	return aft.TransferRequest{Code: aft.CodePartial, Type: aft.InHouseToMachine,
		Cashable: 12345, Restricted: 5, NonRestricted: 700, Flags: aft.FlagReceipt,
		Asset: 12345678, Key: seqKey(), ID: "TX-0001", Expiration: 12312030, PoolID: 0x0C00,
		Receipt: []byte{0x10, 0x03, 'A', 'N', 'A'}, LockTimeout: 1234}
}

func TestAFTTransferVector(t *testing.T) {
	raw := unhex(t, transferVector)
	if int(raw[0]) != len(raw)-1 {
		t.Fatalf("vector length byte %02X, %d bytes follow", raw[0], len(raw)-1)
	}
	got, err := DecodeAFTTransfer(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := transferVectorRequest()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded\n%+v\nwant\n%+v", got, want)
	}
	enc, err := EncodeAFTTransfer(want)
	if err != nil || !bytes.Equal(enc, raw) {
		t.Fatalf("encoded % X (%v)\nwant    % X", enc, err, raw)
	}
	// Without the lock timeout (as the Aristocrat parser reads it): the
	// same request with no timeout.
	short := append([]byte{raw[0] - 2}, raw[1:len(raw)-2]...)
	got, err = DecodeAFTTransfer(short)
	want.LockTimeout = 0
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("without lock timeout: %+v %v", got, err)
	}
	// Cancel and interrogation forms.
	if q, err := DecodeAFTTransfer([]byte{1, 0x80}); err != nil || q.Code != aft.CodeCancel {
		t.Fatalf("cancel: %+v %v", q, err)
	}
	if q, err := DecodeAFTTransfer([]byte{2, 0xFF, 0x85}); err != nil || q.Code != aft.CodeInterrogate || q.Index != 0x85 {
		t.Fatalf("interrogate: %+v %v", q, err)
	}
	if b, _ := EncodeAFTTransfer(aft.TransferRequest{Code: aft.CodeInterrogateStatusOnly, Index: 3}); !bytes.Equal(b, []byte{2, 0xFE, 3}) {
		t.Fatalf("interrogation encoded % X", b)
	}
}

// A completed transfer's reply, byte by byte: position 7, full success,
// receipt printed, in-house to host, 20.00 cashable, flags with host
// cashout controllable and enabled, ID "Q1", completed 5 March 2026
// 14:07:09, no expiration, pool 0, cumulative meters 1234.56, 0, 0.
const transferReplyVector = `
	3A
	07 00 00 80
	00 00 00 20 00
	00 00 00 00 00
	00 00 00 00 00
	03
	4E 61 BC 00
	02 51 31
	03 05 20 26 14 07 09
	00 00 00 00
	00 00
	05 00 00 12 34 56
	05 00 00 00 00 00
	05 00 00 00 00 00`

func TestAFTTransferReplyVector(t *testing.T) {
	raw := unhex(t, transferReplyVector)
	want := aft.TransferReply{Position: 7, Status: aft.StatusFull, ReceiptStatus: aft.ReceiptPrinted,
		Type: aft.InHouseToHost, Cashable: 2000, Flags: 0x03, Asset: 12345678, ID: "Q1",
		At: time.Date(2026, 3, 5, 14, 7, 9, 0, time.UTC), Meters: &aft.Cumulative{Cashable: 123456}}
	if enc := EncodeAFTTransferReply(want); !bytes.Equal(enc, raw) {
		t.Fatalf("encoded % X\nwant    % X", enc, raw)
	}
	got, err := DecodeAFTTransferReply(raw)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded %+v %v", got, err)
	}
	// Pending: date, time and meter sizes are zeros.
	pend := want
	pend.Status, pend.At, pend.Meters, pend.Position = aft.StatusPending, time.Time{}, nil, 0
	enc := EncodeAFTTransferReply(pend)
	if tail := enc[len(enc)-16:]; !bytes.Equal(tail, unhex(t, "00000000000000 00000000 0000 000000")) {
		t.Fatalf("pending reply tail % X", tail)
	}
	if got, err := DecodeAFTTransferReply(enc); err != nil || !reflect.DeepEqual(got, pend) {
		t.Fatalf("pending decoded %+v %v", got, err)
	}
	// The short forms.
	for _, c := range []struct {
		r    aft.TransferReply
		want string
	}{
		{aft.TransferReply{Status: aft.StatusUnsupportedCode}, "02 00 C1"},
		{aft.TransferReply{Status: aft.StatusIncompatible}, "02 00 C0"},
		{aft.TransferReply{Position: 5, Status: aft.StatusNoInfo, ReceiptStatus: aft.ReceiptNone}, "03 05 FF FF"},
	} {
		w := unhex(t, c.want)
		if enc := EncodeAFTTransferReply(c.r); !bytes.Equal(enc, w) {
			t.Errorf("%v: % X, want % X", c.r.Status, enc, w)
		}
		if got, err := DecodeAFTTransferReply(w); err != nil || !reflect.DeepEqual(got, c.r) {
			t.Errorf("%v decoded %+v %v", c.r.Status, got, err)
		}
	}
}

func TestAFTRegisterVectors(t *testing.T) {
	poll := unhex(t, `1D 01 4E 61 BC 00 A0 A1 A2 A3 A4 A5 A6 A7 A8 A9 AA AB AC AD AE AF B0 B1 B2 B3 39 30 00 00`)
	want := aft.RegisterRequest{Code: aft.RegRegister, Asset: 12345678, Key: seqKey(), POSID: 12345}
	if got, err := DecodeAFTRegister(poll); err != nil || got != want {
		t.Fatalf("decoded %+v %v", got, err)
	}
	if enc := EncodeAFTRegister(want); !bytes.Equal(enc, poll) {
		t.Fatalf("encoded % X", enc)
	}
	if got, err := DecodeAFTRegister([]byte{1, 0xFF}); err != nil || got != (aft.RegisterRequest{Code: aft.RegRead}) {
		t.Fatalf("read: %+v %v", got, err)
	}
	// A read with every field: the fields are ignored.
	long := bytes.Clone(poll)
	long[1] = 0xFF
	if got, err := DecodeAFTRegister(long); err != nil || got != (aft.RegisterRequest{Code: aft.RegRead}) {
		t.Fatalf("long read: %+v %v", got, err)
	}
	reply := aft.RegisterReply{Status: aft.RegRegistered, Asset: 12345678, Key: seqKey(), POSID: 12345}
	enc := EncodeAFTRegisterReply(reply)
	if want := append([]byte{0x1D, 0x01}, poll[2:]...); !bytes.Equal(enc, want) {
		t.Fatalf("reply % X\nwant  % X", enc, want)
	}
	if got, err := DecodeAFTRegisterReply(enc); err != nil || got != reply {
		t.Fatalf("reply decoded %+v %v", got, err)
	}
}

func TestAFTLockVectors(t *testing.T) {
	q, err := DecodeAFTLock(unhex(t, "00 03 15 00"))
	if err != nil || q != (aft.LockRequest{Code: aft.RequestLock, Conditions: 3, Timeout: 1500}) {
		t.Fatalf("lock %+v %v", q, err)
	}
	if b, _ := EncodeAFTLock(q); !bytes.Equal(b, unhex(t, "00 03 15 00")) {
		t.Fatalf("encoded % X", b)
	}
	if q, err := DecodeAFTLock(unhex(t, "FF 0F AB CD")); err != nil || q != (aft.LockRequest{Code: aft.InterrogateLock}) {
		t.Fatalf("interrogate %+v %v", q, err)
	}
	// A reply: asset 12345678, not locked, transfers to and from the
	// machine OK, host cashout controllable, AFT status registered,
	// in-house and any AFT, index 7F, 98765.43 cashable, 0.50
	// restricted, 0 non-restricted, limit 1000.00, restricted expiring
	// 1 June 2027, pool 0x0102.
	raw := unhex(t, `23 4E 61 BC 00 FF 03 01 98 7F
		00 09 87 65 43  00 00 00 00 50  00 00 00 00 00  00 00 10 00 00
		06 01 20 27  02 01`)
	want := aft.StatusReply{Asset: 12345678, Lock: aft.NotLocked, Available: 3, HostCashout: 1, AFTStatus: 0x98,
		MaxIndex: 0x7F, Cashable: 9876543, Restricted: 50, TransferLimit: 100000,
		RestrictedExpiration: 6012027, RestrictedPool: 0x0102}
	if enc := EncodeAFTStatusReply(want); !bytes.Equal(enc, raw) {
		t.Fatalf("encoded % X\nwant    % X", enc, raw)
	}
	if got, err := DecodeAFTStatusReply(raw); err != nil || got != want {
		t.Fatalf("decoded %+v %v", got, err)
	}
}

// Every malformed message is refused with an error naming the field, and
// for 0x72 the status a machine answers with.
func TestAFTDecodeErrorsNameTheField(t *testing.T) {
	good := unhex(t, transferVector)
	mut := func(i int, v byte) []byte { b := bytes.Clone(good); b[i] = v; return b }
	cases := []struct {
		name   string
		data   []byte
		field  string
		status aft.Status
	}{
		{"empty", nil, "length", aft.StatusInvalidFunction},
		{"length byte", mut(0, 0x3B), "length", aft.StatusInvalidFunction},
		{"cashable not BCD", mut(4, 0x0A), "cashable amount", aft.StatusInvalidAmount},
		{"restricted not BCD", mut(12, 0xF5), "restricted amount", aft.StatusInvalidAmount},
		{"ID length 0", func() []byte {
			b := bytes.Clone(good[:44])
			b = append(b, 0)
			b = append(b, good[52:]...)
			b[0] = byte(len(b) - 1)
			return b
		}(), "transaction ID length", aft.StatusIDInvalid},
		{"ID not printable", mut(46, 0x07), "transaction ID", aft.StatusIDInvalid},
		{"expiration not BCD", mut(53, 0x1C), "expiration", aft.StatusInvalidAmount},
		{"receipt overruns", mut(58, 0x09), "receipt data", aft.StatusInvalidFunction},
		{"receipt field overruns", mut(60, 0x04), "receipt data", aft.StatusInvalidFunction},
		{"lock timeout not BCD", mut(65, 0x3F), "lock timeout", aft.StatusInvalidFunction},
		{"unknown code", mut(1, 0x05), "transfer code", aft.StatusUnsupportedCode},
		{"cancel with data", []byte{2, 0x80, 0}, "end", aft.StatusInvalidFunction},
		{"interrogation without index", []byte{1, 0xFF}, "transaction index", aft.StatusInvalidFunction},
		{"truncated", append([]byte{40}, good[1:41]...), "registration key", aft.StatusInvalidFunction},
	}
	for _, c := range cases {
		_, err := DecodeAFTTransfer(c.data)
		var ae *AFTError
		if !errors.As(err, &ae) || !errors.Is(err, ErrAFT) {
			t.Errorf("%s: %v is not an *AFTError", c.name, err)
			continue
		}
		if ae.Field != c.field || ae.Status != c.status {
			t.Errorf("%s: field %q status %v (%v), want %q %v", c.name, ae.Field, ae.Status, err, c.field, c.status)
		}
	}
	for _, c := range []struct {
		name, field string
		err         error
	}{
		{"73 length", "length", func() error { _, e := DecodeAFTRegister([]byte{2, 1, 0}); return e }()},
		{"73 short register", "length", func() error { _, e := DecodeAFTRegister([]byte{1, 1}); return e }()},
		{"74 length", "length", func() error { _, e := DecodeAFTLock([]byte{0, 0, 0}); return e }()},
		{"74 timeout", "lock timeout", func() error { _, e := DecodeAFTLock([]byte{0, 0, 0xA0, 0}); return e }()},
		{"74 reply length", "length", func() error { _, e := DecodeAFTStatusReply([]byte{1, 0}); return e }()},
		{"72 reply date", "transaction date and time", func() error {
			b := unhex(t, transferReplyVector)
			b[28] = 0x13 // month 13
			_, e := DecodeAFTTransferReply(b)
			return e
		}()},
		{"72 reply meter size", "cumulative cashable meter size", func() error {
			b := unhex(t, transferReplyVector)
			b[41] = 10
			_, e := DecodeAFTTransferReply(b)
			return e
		}()},
		{"72 short form of a long status", "length", func() error { _, e := DecodeAFTTransferReply([]byte{2, 0, 0}); return e }()},
	} {
		var ae *AFTError
		if !errors.As(c.err, &ae) || ae.Field != c.field {
			t.Errorf("%s: %v, want field %q", c.name, c.err, c.field)
		}
	}
	// The host's encoder refuses what the layout cannot carry.
	for _, q := range []aft.TransferRequest{
		{Code: aft.CodeFull, ID: ""},
		{Code: aft.CodeFull, ID: strings.Repeat("x", 21)},
		{Code: aft.CodeFull, ID: "ok", Cashable: aft.MaxAmount + 1},
		{Code: aft.CodeFull, ID: "ok", Restricted: -1},
		{Code: aft.CodeFull, ID: "ok", LockTimeout: 10000},
		{Code: aft.CodeFull, ID: "ok", Receipt: []byte{1}},
	} {
		if _, err := EncodeAFTTransfer(q); err == nil {
			t.Errorf("%+v encoded", q)
		}
	}
}

// Decoding is the inverse of encoding: whatever decodes re-encodes to
// something that decodes to the same message.
func FuzzAFTTransfer(f *testing.F) {
	f.Add(unhex(f, transferVector))
	f.Add([]byte{1, 0x80})
	f.Add([]byte{2, 0xFF, 0x81})
	f.Fuzz(func(t *testing.T, data []byte) {
		q, err := DecodeAFTTransfer(data)
		if err != nil {
			var ae *AFTError
			if !errors.As(err, &ae) || ae.Field == "" || !(ae.Status.Failed() || ae.Status == aft.StatusUnsupportedCode) {
				t.Fatalf("error %v without a field or a failure status", err)
			}
			return
		}
		enc, err := EncodeAFTTransfer(q)
		if err != nil {
			t.Fatalf("decoded %+v does not encode: %v", q, err)
		}
		q2, err := DecodeAFTTransfer(enc)
		if err != nil || !reflect.DeepEqual(q, q2) {
			t.Fatalf("round trip\n%+v\n%+v (%v)", q, q2, err)
		}
	})
}

func FuzzAFTTransferReply(f *testing.F) {
	f.Add(unhex(f, transferReplyVector))
	f.Add([]byte{2, 0, 0xC1})
	f.Add([]byte{3, 5, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodeAFTTransferReply(data)
		if err != nil {
			return
		}
		p2, err := DecodeAFTTransferReply(EncodeAFTTransferReply(p))
		if err != nil || !reflect.DeepEqual(p, p2) {
			t.Fatalf("round trip\n%+v\n%+v (%v)", p, p2, err)
		}
	})
}

func FuzzAFTRegisterAndLock(f *testing.F) {
	f.Add(unhex(f, `1D 01 4E 61 BC 00 A0 A1 A2 A3 A4 A5 A6 A7 A8 A9 AA AB AC AD AE AF B0 B1 B2 B3 39 30 00 00`))
	f.Add([]byte{0, 3, 0x15, 0})
	f.Add(unhex(f, `23 4E 61 BC 00 FF 03 01 98 7F 00 09 87 65 43 00 00 00 00 50 00 00 00 00 00 00 00 10 00 00 06 01 20 27 02 01`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if q, err := DecodeAFTRegister(data); err == nil {
			if q2, err := DecodeAFTRegister(EncodeAFTRegister(q)); err != nil || q2 != q {
				t.Fatalf("73 poll round trip %+v %+v %v", q, q2, err)
			}
		}
		if p, err := DecodeAFTRegisterReply(data); err == nil {
			if p2, err := DecodeAFTRegisterReply(EncodeAFTRegisterReply(p)); err != nil || p2 != p {
				t.Fatalf("73 reply round trip %+v %+v %v", p, p2, err)
			}
		}
		if q, err := DecodeAFTLock(data); err == nil {
			b, err := EncodeAFTLock(q)
			if err != nil {
				t.Fatal(err)
			}
			if q2, err := DecodeAFTLock(b); err != nil || q2 != q {
				t.Fatalf("74 poll round trip %+v %+v %v", q, q2, err)
			}
		}
		if p, err := DecodeAFTStatusReply(data); err == nil {
			if p2, err := DecodeAFTStatusReply(EncodeAFTStatusReply(p)); err != nil || p2 != p {
				t.Fatalf("74 reply round trip %+v %+v %v", p, p2, err)
			}
		}
	})
}
