package aft

import "time"

// lockState is the game lock of long poll 0x74: volatile (a power loss
// unlocks), held until its timeout or the end of the transfer.
type lockState struct {
	phase      lockPhase
	conditions byte
	timeout    uint16
	// deadline: a pending request lapses, or the lock ends, there.
	deadline time.Time
	// announced is when 6F was last raised.
	announced time.Time
}

// lockPhase: the zero value is "not locked" (SAS's code for it is FF,
// and 00 is "locked").
type lockPhase uint8

const (
	unlocked lockPhase = iota
	lockWaiting
	lockHeld
)

// relockEvery is how often a locked machine raises 6F again (SAS 8.2).
const relockEvery = 5 * time.Second

func hundredths(n uint16) time.Duration { return time.Duration(n) * 10 * time.Millisecond }

func (c *Core) lockStatus() LockStatus {
	switch c.lock.phase {
	case lockHeld:
		return Locked
	case lockWaiting:
		return LockPending
	}
	return NotLocked
}

// Locked reports whether the machine is locked for the host: it shows
// "please wait" and starts no game, accepts no money, until the lock
// ends. Call Tick first so a lapsed lock is gone.
func (c *Core) Locked() bool { return c.lockStatus() == Locked }

// Lock answers long poll 0x74: request, cancel or interrogate the game
// lock, and report the machine's AFT status. A lock is granted at once
// when the transfers it names are possible; otherwise it is pending and
// granted by Tick when they become possible (the game ends), unless the
// timeout passes first.
//
// Choice: a lock request with timeout 0 would end as it begins; it is
// answered "not locked".
func (c *Core) Lock(req LockRequest, cond Conditions, now time.Time) (StatusReply, []Exception) {
	var exc []Exception
	switch req.Code {
	case CancelLock:
		c.lock = lockState{}
	case RequestLock:
		switch {
		case req.Timeout == 0:
			c.lock = lockState{}
		case c.conditionsMet(req.Conditions, cond):
			c.lock = lockState{phase: lockHeld, conditions: req.Conditions, timeout: req.Timeout,
				deadline: now.Add(hundredths(req.Timeout)), announced: now}
			exc = append(exc, ExcGameLocked)
		default:
			c.lock = lockState{phase: lockWaiting, conditions: req.Conditions, timeout: req.Timeout,
				deadline: now.Add(hundredths(req.Timeout))}
		}
	}
	return c.Status(cond), exc
}

// Tick moves the lock on with time and the machine's state: a pending
// lock is granted when its conditions hold, a lapsed one ends, and a
// held lock raises 6F again every 5 s. The machine calls it on every
// event it handles (or at least every second).
func (c *Core) Tick(cond Conditions, now time.Time) []Exception {
	switch c.lockStatus() {
	case LockPending:
		switch {
		case !now.Before(c.lock.deadline):
			c.lock = lockState{}
		case c.conditionsMet(c.lock.conditions, cond):
			c.lock.phase, c.lock.deadline, c.lock.announced = lockHeld, now.Add(hundredths(c.lock.timeout)), now
			return []Exception{ExcGameLocked}
		}
	case Locked:
		switch {
		case !now.Before(c.lock.deadline):
			c.lock = lockState{}
		case now.Sub(c.lock.announced) >= relockEvery:
			c.lock.announced = now
			return []Exception{ExcGameLocked}
		}
	}
	return nil
}

// conditionsMet: the machine could do every transfer the lock request
// names, now.
func (c *Core) conditionsMet(want byte, cond Conditions) bool {
	if !cond.playable() {
		return false
	}
	avail := c.available(cond)
	// Bit 3 of the conditions (bonus) is bit 4 of the available transfers.
	have := avail&(TransferToMachineOK|TransferFromMachineOK|TransferToPrinterOK) | (avail&AvailableBonusToMachine)>>1
	return want&0x0F&^have == 0
}

// available is the available transfers byte of the 0x74 reply.
func (c *Core) available(cond Conditions) byte {
	if c.cfg.Asset == 0 || !cond.playable() {
		return 0
	}
	regOK := !c.cfg.RequireRegistration || c.registration().Status == RegRegistered
	var b byte
	if (c.cfg.InHouse && regOK || c.debitReady()) && cond.Credits.Total() < cond.CreditLimit && c.cfg.TransferLimit > 0 {
		b |= TransferToMachineOK
	}
	if c.cfg.InHouse && regOK {
		if cond.Credits.Total() > 0 {
			b |= TransferFromMachineOK
		}
		if c.cfg.TicketTransfers && cond.PrinterReady && c.cfg.TransferLimit > 0 {
			b |= TransferToPrinterOK
		}
		if cond.WonCredits > 0 {
			b |= AvailableWinPending
		}
	}
	if c.cfg.Bonus && regOK {
		b |= AvailableBonusToMachine
	}
	return b
}

// debitReady: a debit transfer would pass the registration checks (with
// the registered key).
func (c *Core) debitReady() bool {
	r := c.registration()
	return c.cfg.Debit && r.Status == RegRegistered && !r.Key.Zero() && r.POSID != 0
}

// Status is the 0x74 reply: lock, available transfers, host cashout and
// AFT status, amounts and the transfer limit now.
func (c *Core) Status(cond Conditions) StatusReply {
	var aft byte
	if c.cfg.Receipts && cond.PrinterReady {
		aft |= StatusPrinterForReceipts
	}
	if c.cfg.PartialToHost {
		aft |= StatusPartialToHost
	}
	if c.registration().Status == RegRegistered {
		aft |= StatusRegistered
	}
	if c.cfg.InHouse {
		aft |= StatusInHouseEnabled
	}
	if c.cfg.Bonus {
		aft |= StatusBonusEnabled
	}
	if c.cfg.Debit {
		aft |= StatusDebitEnabled
	}
	if c.cfg.Asset != 0 && c.cfg.enabled() {
		aft |= StatusAnyAFTEnabled
	}
	r := StatusReply{Asset: c.cfg.Asset, Lock: c.lockStatus(), Available: c.available(cond),
		HostCashout: c.st.HostCashout, AFTStatus: aft, MaxIndex: MaxHistory,
		Cashable: cond.Credits.Cashable, Restricted: cond.Credits.Restricted, NonRestricted: cond.Credits.NonRestricted,
		TransferLimit: max(0, min(c.cfg.TransferLimit, cond.CreditLimit-cond.Credits.Total()))}
	if cond.Credits.Restricted > 0 {
		r.RestrictedExpiration, r.RestrictedPool = cond.Credits.RestrictedExpiration, cond.Credits.RestrictedPool
	}
	return r
}

// HostCashoutWanted reports whether a cash-out the player asks for goes
// to the host: host cashout enabled and AFT to the host possible. The
// machine then raises 6A (with 66, cash-out button pressed) and waits
// for the host's 0x72 instead of printing a ticket; in soft mode it
// falls back to its own cash-out device when the host does not come.
func (c *Core) HostCashoutWanted(cond Conditions) bool {
	return c.st.HostCashout&HostCashoutEnabled != 0 && c.available(cond)&TransferFromMachineOK != 0
}
