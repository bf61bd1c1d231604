// The SAS port's progressives: the link controller's broadcasts and
// confirmations, the linked hits reported until paid, the last and
// cumulative wins.

package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
)

// noteWins keeps the last progressive win paid among recs for 0x84: a
// linked level's with the SAS group, a local level's (not a SAS
// progressive) with group 0.
func (s *sasPort) noteWins(recs []meters.Record, st *meters.State) {
	for _, r := range recs {
		a, ok := r.(meters.ProgressiveAward)
		if !ok || a.Level < 1 || a.Level > sas.MaxProgressiveLevel || a.Cents > sas.MaxProgressiveAmount {
			continue
		}
		w := sas.ProgressiveWin{Level: byte(a.Level), Amount: uint64(a.Cents)}
		if !st.IsLocalLevel(a.Level) {
			w.Group = s.group
		}
		s.lastWin = w
	}
}

// checkLinkAward checks the link award mode and the second-hit rule shown
// with it.
//
// Choice: broadcast is the default because it is what a standard SAS
// progressive controller expects (global broadcasts, a read of the hit,
// then the reset): a cabinet that waited for an addressed confirmation no
// standard controller sends would leave every hit pending. addressed is
// for a controller that decides the amount (cmd/linkctl with "award":
// "addressed"). A split rule needs the controller's amount, so it needs
// addressed.
func checkLinkAward(mode, rule string) error {
	if mode != machine.LinkAwardBroadcast && mode != machine.LinkAwardAddressed {
		return fmt.Errorf("--link-award %q: want %s or %s", mode, machine.LinkAwardBroadcast, machine.LinkAwardAddressed)
	}
	if rule != "wins-reset" && rule != "split" {
		return fmt.Errorf("--link-second-hit %q: want wins-reset or split (the controller's second_hit)", rule)
	}
	if rule == "split" && mode == machine.LinkAwardBroadcast {
		return fmt.Errorf("--link-second-hit split needs --link-award addressed: in broadcast mode each hit is paid the value the cabinet showed, which the controller cannot split")
	}
	return nil
}

// progressiveBroadcast passes the link controller's values of our group to
// the machine (in arrival order). An addressed single-level 0x80 for a
// level on which the cabinet reports a hit goes as a confirmation of that
// hit (the game it names is from the committed state the reports come
// from); the machine decides what it is in its award mode. Addressed polls
// are acknowledged; global ones are never answered.
func (s *sasPort) progressiveBroadcast(r sas.Request, now time.Time) sas.Reply {
	b, err := sas.ParseProgressiveBroadcast(r.Cmd, r.Data)
	if err != nil {
		s.log.Warn("SAS progressive broadcast refused", "cmd", fmt.Sprintf("%02X", r.Cmd), "err", err)
		return sas.NoReply()
	}
	if s.group != 0 && b.Group == s.group {
		var ev machine.Event
		if lv := b.Levels[0]; !r.Global && r.Cmd == sas.CmdSingleLevelBroadcast {
			if c, ok := s.claim(int(lv.Level)); ok {
				ev = machine.LinkConfirm{At: now, Level: c.Level, Game: c.Game, Cents: int64(lv.Amount)}
			}
		}
		if ev == nil {
			values := make(map[int]int64, len(b.Levels))
			for _, lv := range b.Levels {
				values[int(lv.Level)] = int64(lv.Amount)
			}
			ev = machine.LinkBroadcast{At: now, Values: values}
		}
		select {
		case s.linkCh <- ev:
		default:
			// The controller repeats its values and its confirmations.
			s.log.Warn("SAS progressive broadcast dropped: the machine is behind")
		}
	}
	return sas.ReplyAck()
}

// claim returns the reported hit on linked level lv, if there is one.
func (s *sasPort) claim(lv int) (meters.ProgressiveHit, bool) {
	snap := s.meters.Load()
	if snap == nil {
		return meters.ProgressiveHit{}, false
	}
	i := slices.IndexFunc(snap.claims, func(h meters.ProgressiveHit) bool { return h.Level == lv })
	if i < 0 {
		return meters.ProgressiveHit{}, false
	}
	return snap.claims[i], true
}

// progressiveWins answers 0x85 (the oldest) and 0x87 (all, up to 32) with
// the reported hits on linked levels not yet paid. They come from the
// ledger, so a hit is reported until it is paid, across restarts of
// either side.
//
// Choice: an entry stays until the award is committed, not only until the
// reply is acknowledged. In addressed mode the controller confirms it; in
// broadcast mode (standard SAS) the host's acknowledgement of the reply
// that carried it releases it: the machine then pays the value it
// reported, as the Aristocrat Monaco client does (its LP85 handler claims
// and awards the linked level on the implied acknowledgement, and reports
// the win until then). A host reads a hit again only if the cabinet
// restarted before the payment was committed; the link controller
// identifies a hit by machine, level and games played (the machine is
// locked while a hit is pending, so that meter stands still) and records
// it once, however often it reads it.
func (s *sasPort) progressiveWins(cmd byte) sas.Reply {
	snap := s.meters.Load()
	var claims []meters.ProgressiveHit
	if snap != nil {
		claims = snap.claims
	}
	var data []byte
	var err error
	var out []meters.ProgressiveHit
	if cmd == sas.CmdSASProgressiveWin {
		w := sas.ProgressiveWin{}
		if len(claims) > 0 {
			w = sas.ProgressiveWin{Group: s.group, Level: byte(claims[0].Level), Amount: uint64(claims[0].Cents)}
			out = claims[:1]
		}
		data, err = sas.ProgressiveWinData(w)
	} else {
		w := sas.ProgressiveWins{Group: s.group}
		out = claims[:min(len(claims), sas.MaxProgressiveLevel)]
		for _, c := range out {
			w.Wins = append(w.Wins, sas.LevelValue{Level: byte(c.Level), Amount: uint64(c.Cents)})
		}
		data, err = sas.MultipleProgressiveWinsData(w)
	}
	if err != nil {
		s.log.Error("SAS progressive win reply", "err", err)
		return sas.NoReply()
	}
	s.winsCmd, s.winsOut = cmd, slices.Clone(out)
	return sas.ReplyData(data...)
}

// ReplyAcked implements sas.ReplyObserver (called with mu held): the host
// received the reply to cmd; if it carried linked hits, they go to the
// machine when the host moves on again (onEvent).
func (s *sasPort) ReplyAcked(cmd byte) {
	if cmd == s.winsCmd && len(s.winsOut) > 0 {
		s.winsRead, s.winsNew = append(s.winsRead, s.winsOut...), true
	}
	s.winsCmd, s.winsOut = 0, nil
}

// ReplyDropped implements sas.ReplyObserver: a reply was lost with the
// link; the hits not yet released are reported again.
func (s *sasPort) ReplyDropped(byte) {
	s.winsCmd, s.winsOut, s.winsRead, s.winsNew = 0, nil, nil, false
}

// lastProgressiveWin answers 0x84: group, level and amount of the last
// progressive win the cabinet paid (to credits or by hand), all zero when
// none since SAS was turned on for this ledger.
//
// Choice: the last award, one level (a game that won two levels reports the
// one paid last); a linked level with the SAS group, a local level with
// group 0 as the Aristocrat Monaco client reports a non-SAS level. The
// 6.02 digest gives the layout (group, level, 5 BCD amount) and nothing
// more.
func (s *sasPort) lastProgressiveWin() sas.Reply {
	data, err := sas.ProgressiveWinData(s.lastWin)
	if err != nil {
		s.log.Error("SAS 0x84", "err", err)
		return sas.NoReply()
	}
	return sas.ReplyData(data...)
}

// cumulativeProgressive answers 0x83 for the machine (game 0): every
// progressive win paid, by the machine or by hand, in cents.
func (s *sasPort) cumulativeProgressive(data []byte) sas.Reply {
	game, err := sas.DecodeGameNumber(data)
	snap := s.meters.Load()
	if err != nil || game != 0 || snap == nil {
		return sas.NoReply()
	}
	total := snap.m[meters.MachinePaidProgressive] + snap.m[meters.AttendantPaidProgressive]
	out, err := sas.CumulativeProgressiveWinsData(0, uint64(total)%100_000_000)
	if err != nil {
		return sas.NoReply()
	}
	return sas.ReplyData(out...)
}
