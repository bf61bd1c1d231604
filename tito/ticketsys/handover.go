package ticketsys

import (
	"context"
	"errors"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// handOver ends the hold of redemption id at a cabinet (phase, with
// reason) and authorises req there, alone at it (aloneCmp): what a
// cabinet's next ticket asks when the one before is still held (a stack of
// tickets). On the store's guesses of both tickets and the hold's
// redemption it is one transaction, so that the next ticket's
// authorisation waits one round trip, not two: the end and the
// authorisation each on their comparisons, and the cabinet's condition on
// the hold being ended, all or nothing. Without the guesses, or when the
// transaction is refused or its outcome lost, the steps are taken one after
// the other, each deciding on what etcd holds. ended reports that the hold
// was ended (committed, released, or found so); err is the first step's
// error when that failed (the authorisation was not tried), else the
// authorisation's.
func (s *Store) handOver(ctx context.Context, id string, at time.Time, phase Phase, reason string, req Request) (a Redemption, ended bool, err error) {
	var fin Redemption
	end, err := s.finishStep(ctx, id, at, phase, reason, &fin)
	if err != nil {
		return Redemption{}, false, err
	}
	next, err := s.redeemStep(req, false, &a)
	if err != nil || next.tkey == "" {
		// Nothing to authorise: the end alone.
		_, err := s.finish(ctx, id, at, phase, reason, req.By)
		return a, err == nil, err
	}
	done, sent := s.handOverAtOnce(ctx, end, next, req.By)
	if done {
		return a, true, nil
	}
	wrap := func(err error) error {
		if sent && err != nil && !errors.Is(err, ErrOutcomeUnknown) {
			// The transaction may have been applied: its outcome is
			// known only when a step says it.
			return fmt.Errorf("%w: %w", ErrOutcomeUnknown, err)
		}
		return err
	}
	if _, err := s.finish(ctx, id, at, phase, reason, req.By); err != nil {
		return Redemption{}, false, wrap(err)
	}
	a, err = s.redeem(ctx, req, false, true)
	return a, true, wrap(err)
}

// handOverAtOnce tries end and next in one transaction on the guesses,
// alone at cabinet: done when both were written; sent when it may have
// been applied without an answer.
func (s *Store) handOverAtOnce(ctx context.Context, end, next step, cabinet string) (done, sent bool) {
	if end.tkey == next.tkey {
		// A copy of the ticket whose hold ends: decided on the ticket
		// the end wrote, so one step after the other.
		return false, false
	}
	et, etrev := s.guesses.ticket(end.tkey)
	er, errev := s.guesses.redemption(end.rkey)
	nt, ntrev := s.guesses.ticket(next.tkey)
	nr, nrrev := s.guesses.redemption(next.rkey)
	if et == nil || er == nil || nt == nil || nr != nil {
		return false, false // a step that reads first, or replays
	}
	et.Revision, nt.Revision = etrev, ntrev
	ech, err := end.decide(et, er)
	if err != nil || ech.ticket == nil {
		return false, false
	}
	nch, err := next.decide(nt, nil)
	if err != nil || nch.ticket == nil && nch.red == nil {
		return false, false
	}
	cmps := []clientv3.Cmp{
		clientv3.Compare(clientv3.ModRevision(end.tkey), "=", etrev),
		clientv3.Compare(clientv3.ModRevision(end.rkey), "=", errev),
		clientv3.Compare(clientv3.ModRevision(next.tkey), "=", ntrev),
		clientv3.Compare(clientv3.ModRevision(next.rkey), "=", nrrev),
		s.aloneCmp(cabinet, et, etrev),
	}
	puts := ech.ops(nil, end.tkey, end.rkey)
	puts = nch.ops(puts, next.tkey, next.rkey)
	keys := []string{end.tkey, end.rkey, next.tkey, next.rkey}
	for _, ix := range [][]clientv3.Op{ech.index, nch.index} {
		for _, op := range ix {
			keys = append(keys, string(op.KeyBytes()))
		}
	}
	if s.beforeWrite != nil {
		s.beforeWrite()
	}
	o, maybe := s.batch.do(ctx, &attempt{keys: keys, txn: clientv3.OpTxn(cmps, puts, nil)})
	if o.err != nil || !o.resp.Succeeded {
		return false, o.err != nil && maybe
	}
	if ech.ticket != nil {
		ech.ticket.Revision = o.rev
	}
	s.guesses.noteTicket(end.tkey, ech.ticket, o.rev)
	s.guesses.noteRedemption(end.rkey, ech.red, o.rev)
	if nch.ticket != nil {
		nch.ticket.Revision = o.rev
		s.guesses.noteTicket(next.tkey, nch.ticket, o.rev)
	}
	s.guesses.noteRedemption(next.rkey, nch.red, o.rev)
	return true, false
}
