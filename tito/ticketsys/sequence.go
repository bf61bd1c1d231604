package ticketsys

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/openegm/cabinet/tito"
)

// The ticket system is the cabinet's witness for its ticket numbers: a
// cabinet whose data directory and board were restored from a copy prints
// ticket numbers (and secure-enhanced validation numbers) it printed
// before, and cannot tell. The system keeps the last ticket number each
// cabinet reported (P n/<cabinet>) and records an alarm (P a/<cabinet>/<ns>)
// when a new ticket's number goes back.

// rollWindow is how near the ends of 0001–9999 two numbers must be for a
// lower one to be the roll-over, not a step back.
const rollWindow = 100

// SequenceWentBack says whether ticket number next, reported after last by
// the same cabinet, goes back. Numbers run 0001–MaxTicketNumber and roll
// over: a next near the start after a last near the end is the roll-over.
// 0 (no number) is never compared. Pure.
func SequenceWentBack(last, next uint16) bool {
	if last == 0 || next == 0 || next > last {
		return false
	}
	if next == last {
		return true // a number printed twice
	}
	return !(last > tito.MaxTicketNumber-rollWindow && next <= rollWindow)
}

// SequenceAlarm is a ticket whose number went back: the cabinet's data
// went back (restored from a copy, or cleared).
type SequenceAlarm struct {
	Cabinet string `json:"cabinet"`
	At      string `json:"at"`
	// Old is the last ticket number recorded from the cabinet and OldDigits
	// its validation; New and NewDigits the ticket that went back.
	Old       uint16 `json:"old"`
	OldDigits string `json:"old_digits"`
	New       uint16 `json:"new"`
	NewDigits string `json:"new_digits"`
}

func (a SequenceAlarm) String() string {
	return fmt.Sprintf("ALARM: cabinet %s ticket number went back from %04d (%s) to %04d (%s): its data was restored or cleared",
		a.Cabinet, a.Old, a.OldDigits, a.New, a.NewDigits)
}

type lastTicket struct {
	Number uint16 `json:"number"`
	Digits string `json:"digits"`
}

func (s *Store) seqKey(cabinet string) string { return s.prefix + "n/" + cabinet }
func (s *Store) alarmKey(cabinet string, at time.Time) string {
	return fmt.Sprintf("%sa/%s/%020d", s.prefix, cabinet, at.UnixNano())
}

// NoteTicket compares a newly recorded ticket of a cabinet with the last one
// it reported and keeps it as the last; when its number went back
// (SequenceWentBack) the alarm is recorded in the same transaction and
// returned.
func (s *Store) NoteTicket(ctx context.Context, cabinet string, number uint16, digits string, at time.Time) (*SequenceAlarm, error) {
	if err := checkName("cabinet", cabinet); err != nil {
		return nil, err
	}
	if number == 0 {
		return nil, nil
	}
	key := s.seqKey(cabinet)
	for {
		got, err := s.cli.Get(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("ticketsys: %s: %w", key, err)
		}
		var last lastTicket
		var rev int64
		if len(got.Kvs) == 1 {
			rev = got.Kvs[0].ModRevision
			if err := decode(key, got.Kvs[0].Value, &last); err != nil {
				return nil, err
			}
		}
		if last.Digits == digits {
			return nil, nil // the same ticket again
		}
		b, _ := json.Marshal(lastTicket{Number: number, Digits: digits})
		ops := []clientv3.Op{clientv3.OpPut(key, string(b))}
		var alarm *SequenceAlarm
		if SequenceWentBack(last.Number, number) {
			alarm = &SequenceAlarm{Cabinet: cabinet, At: at.UTC().Format(time.RFC3339Nano),
				Old: last.Number, OldDigits: last.Digits, New: number, NewDigits: digits}
			ab, _ := json.Marshal(alarm)
			ops = append(ops, clientv3.OpPut(s.alarmKey(cabinet, at), string(ab)))
		}
		resp, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).Then(ops...).Commit()
		if err != nil {
			return nil, fmt.Errorf("ticketsys: %s: %w", key, err)
		}
		if resp.Succeeded {
			return alarm, nil
		}
	}
}

// SequenceAlarms is every ticket-number alarm recorded, oldest first.
func (s *Store) SequenceAlarms(ctx context.Context) ([]SequenceAlarm, error) {
	got, err := s.cli.Get(ctx, s.prefix+"a/", clientv3.WithPrefix())
	if err != nil {
		return nil, fmt.Errorf("ticketsys: alarms: %w", err)
	}
	var out []SequenceAlarm
	for _, kv := range got.Kvs {
		var a SequenceAlarm
		if err := decode(string(kv.Key), kv.Value, &a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out, nil
}

// LastTicket is the last ticket number and validation a cabinet reported
// (0 and "" before its first).
func (s *Store) LastTicket(ctx context.Context, cabinet string) (uint16, string, error) {
	key := s.seqKey(cabinet)
	got, err := s.cli.Get(ctx, key)
	if err != nil {
		return 0, "", fmt.Errorf("ticketsys: %s: %w", key, err)
	}
	var last lastTicket
	if len(got.Kvs) == 1 {
		if err := decode(key, got.Kvs[0].Value, &last); err != nil {
			return 0, "", err
		}
	}
	return last.Number, last.Digits, nil
}
