package super

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/openegm/cabinet/jackpot"
)

// Snapshot is the group's pools as of one revision, for display.
type Snapshot struct {
	Revision int64 // mod revision of the pools key
	Seq      uint64
	Levels   []LevelValue // in creation order
	// Err is set if the pools stored at Revision cannot be decoded (they
	// fail jackpot's checks): nothing of them may be shown.
	Err error
}

// LevelValue is one level of a Snapshot.
type LevelValue struct {
	ID      string
	Cents   int64 // the value to display (jackpot.Cents of Meters.Current)
	Meters  jackpot.Meters
	Config  jackpot.Config
	Pending []jackpot.Claim // hits not yet awarded (a reached mystery target)
	Closed  bool
}

// Level returns the level id of the snapshot.
func (s Snapshot) Level(id string) (LevelValue, bool) {
	for _, l := range s.Levels {
		if l.ID == id {
			return l, true
		}
	}
	return LevelValue{}, false
}

// snapshot is the pools read as kv (their genuine version, resolve), as
// of kv's revision. false: etcd failed while reading their history or
// checking them (read them again later).
func (s *Store) snapshot(ctx context.Context, kv *mvccpb.KeyValue) (Snapshot, bool) {
	v, err := s.resolve(ctx, kv, s.report)
	var p *jackpot.Pools
	if err == nil {
		p, err = s.genuinePools(ctx, v)
	}
	if err != nil && !verdict(err) {
		return Snapshot{}, false
	}
	if err != nil {
		return Snapshot{Revision: kv.ModRevision, Err: fmt.Errorf("super: key %q at revision %d: %w", kv.Key, kv.ModRevision, err)}, true
	}
	return snapshotOf(kv.ModRevision, p), true
}

func snapshotOf(rev int64, p *jackpot.Pools) Snapshot {
	snap := Snapshot{Revision: rev, Seq: p.Seq()}
	for _, id := range p.Levels() {
		lv, _ := p.Level(id)
		snap.Levels = append(snap.Levels, LevelValue{
			ID: id, Cents: jackpot.Cents(lv.Meters.Current), Meters: lv.Meters,
			Config: lv.Config, Pending: lv.Pending, Closed: lv.Closed,
		})
	}
	return snap
}

// Current reads the group's pools once, as a Snapshot.
func (s *Store) Current(ctx context.Context) (Snapshot, error) {
	ctx, stop := s.bind(ctx)
	defer stop()
	resp, err := s.cli.Get(ctx, s.poolKey())
	if err != nil {
		return Snapshot{}, fmt.Errorf("super: read pools of %q: %w", s.prefix, err)
	}
	if len(resp.Kvs) != 1 {
		return Snapshot{}, fmt.Errorf("super: read pools of %q: %w: no key %q", s.prefix, ErrNotInitialized, s.poolKey())
	}
	snap, ok := s.snapshot(ctx, resp.Kvs[0])
	if !ok {
		return Snapshot{}, fmt.Errorf("super: read pools of %q: etcd failed while reading their history", s.prefix)
	}
	return snap, snap.Err
}

// Watch delivers the group's pools whenever they change, starting with the
// current ones (once they exist). Delivery is coalesced: a reader that falls
// behind gets the latest snapshot, never a stale one, and revisions never go
// back. The watch survives member failures, compaction and lost streams (it
// reads the key again and watches on from there); every resync interval
// (WatchResync, 5 s by default) it also reads the key, so a stream stuck on
// a member that stopped serving cannot freeze the display, and delivers
// what it read even unchanged: a snapshot is etcd's confirmation, as of its
// delivery, that the pools are still so. While etcd cannot be read (a
// partition, no quorum) nothing is delivered, so a reader that counts the
// time since its last snapshot knows how stale its value may be. The
// channel is closed when ctx ends or the client is closed.
func (s *Store) Watch(ctx context.Context) <-chan Snapshot {
	out := make(chan Snapshot, 1)
	go s.watch(ctx, out, 0)
	return out
}

// watch runs Watch's loop; a start revision other than 0 watches from there
// before the first read (for tests of compaction).
func (s *Store) watch(ctx context.Context, out chan Snapshot, start int64) {
	ctx, stop := s.bind(ctx)
	defer stop()
	defer close(out)
	pk := s.poolKey()
	var (
		last    int64  // revision last delivered
		lastSeq uint64 // the pools' op sequence last delivered
		bo      backoff
	)
	resync := s.resync
	if resync <= 0 {
		resync = defaultResync
	}
	deliver := func(kv *mvccpb.KeyValue, again bool) {
		if kv.ModRevision < last || kv.ModRevision == last && !again {
			return
		}
		// Verifying may read etcd (a rejected version's history): bounded,
		// like the resync reads, so a member that stopped answering cannot
		// hold the watch.
		vctx, cancel := context.WithTimeout(ctx, max(resync, time.Second))
		snap, ok := s.snapshot(vctx, kv)
		cancel()
		if !ok {
			return // delivered at the next resync
		}
		// Genuine pools only move forward, one op at a time: pools at a
		// later revision with fewer ops were rolled back (deleted and an old
		// version written back), and are not shown.
		if snap.Err == nil && snap.Seq < lastSeq {
			snap = Snapshot{Revision: kv.ModRevision, Err: fmt.Errorf("super: %w: the pools at revision %d are at op %d, after op %d was delivered: they were rolled back",
				ErrCorrupt, kv.ModRevision, snap.Seq, lastSeq)}
		} else if snap.Err == nil {
			lastSeq = snap.Seq
		}
		last = kv.ModRevision
		for {
			select {
			case out <- snap:
				return
			default:
			}
			select { // replace the one the reader has not taken
			case <-out:
			default:
			}
		}
	}
	tick := time.NewTicker(resync)
	defer tick.Stop()
	for ctx.Err() == nil {
		if start == 0 {
			resp, err := s.get(ctx, pk, resync)
			if err != nil {
				if bo.wait(ctx) != nil {
					return
				}
				continue
			}
			if len(resp.Kvs) == 1 {
				deliver(resp.Kvs[0], true)
			}
			start = resp.Header.Revision + 1
		}
		start = s.follow(ctx, pk, start, tick.C, resync, deliver)
		if start == 0 && bo.wait(ctx) != nil {
			return
		} else if start != 0 {
			bo = backoff{}
		}
	}
}

// follow watches the group from revision start and delivers the changes
// of pk until the stream fails (it returns 0: read the key again) or a
// resync read finds a change the stream did not deliver (it returns the
// revision to watch from). A resync read that finds nothing new delivers
// the pools again. Every other value written in the group is checked on
// the way (screen).
func (s *Store) follow(ctx context.Context, pk string, start int64, tick <-chan time.Time, resync time.Duration, deliver func(*mvccpb.KeyValue, bool)) int64 {
	wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
	defer cancel()
	wch := s.cli.Watch(wctx, s.prefix, clientv3.WithPrefix(), clientv3.WithRev(start))
	var seen int64 // last mod revision the stream delivered
	for {
		select {
		case wr, ok := <-wch:
			if !ok || wr.Err() != nil {
				return 0 // compacted, canceled, no leader, closed
			}
			var latest *mvccpb.KeyValue
			for _, ev := range wr.Events {
				switch {
				case ev.Type != mvccpb.PUT:
				case string(ev.Kv.Key) == pk:
					latest = ev.Kv
				default:
					s.screen(ctx, ev.Kv, resync)
				}
			}
			if latest != nil {
				seen = max(seen, latest.ModRevision)
				deliver(latest, false)
			}
		case <-tick:
			resp, err := s.get(ctx, pk, resync)
			if err != nil || len(resp.Kvs) != 1 {
				continue
			}
			kv := resp.Kvs[0]
			if kv.ModRevision > max(seen, start-1) {
				deliver(kv, false)
				return resp.Header.Revision + 1
			}
			deliver(kv, true)
		}
	}
}

// screen checks a value written in the group as it goes by, so that a
// forged batch or claim is reported (OnRejected) when it is written, not
// only when something reads it. What cannot be judged (within d, if it
// needs a read) is left to the readers of the key.
func (s *Store) screen(ctx context.Context, kv *mvccpb.KeyValue, d time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, max(d, time.Second))
	defer cancel()
	if _, by, err := s.judge(ctx, kv); errors.Is(err, ErrForged) {
		s.report(s.rejection(kv, by, err))
	}
}

// get reads key, giving up after d (at least a second) so that a member
// that stopped answering cannot hold the watch.
func (s *Store) get(ctx context.Context, key string, d time.Duration) (*clientv3.GetResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, max(d, time.Second))
	defer cancel()
	return s.cli.Get(ctx, key)
}
