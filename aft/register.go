package aft

// Register answers long poll 0x73. It returns the reply and, when the
// registration changes, the record to commit. The reply already tells
// the registration that record makes, and the core answers from it
// (later 73, 72 and 74) until the commit; State moves at Committed.
//
// The sequence (SAS 8.1): 00 puts the machine in "registration ready"
// and clears the key; 01 with the machine's asset number, a key and a
// POS ID registers it (only from "ready"); 40 waits for the operator's
// acknowledgement at the machine (OperatorAcknowledge), which returns it
// to "ready"; 80 unregisters; FF reads. A request the machine cannot
// follow (01 when not ready, a wrong asset number, an unknown code)
// changes nothing and is answered with the current registration.
func (c *Core) Register(req RegisterRequest) (RegisterReply, *Registration) {
	cur := c.registration()
	next := cur
	switch req.Code {
	case RegInitialize:
		next = Registration{Status: RegReady}
	case RegRegister:
		if cur.Status != RegReady || c.cfg.Asset == 0 || req.Asset != c.cfg.Asset {
			return c.regReply(cur), nil
		}
		next = Registration{Status: RegRegistered, Key: req.Key, POSID: req.POSID}
		if req.POSID == NoPOSChange {
			next.POSID = cur.POSID
		}
	case RegRequestAck:
		if cur.Status != RegReady {
			return c.regReply(cur), nil
		}
		next.Status = RegPending
	case RegUnregister:
		next = Registration{Status: RegNotRegistered}
	default:
		return c.regReply(cur), nil
	}
	if next == cur && (c.st.Registration != nil || len(c.regs) > 0) {
		return c.regReply(cur), nil
	}
	return c.regReply(next), c.handOut(next)
}

// handOut keeps r as the registration the host now sees until its
// record is committed, and returns that record.
func (c *Core) handOut(r Registration) *Registration {
	c.regs = append(c.regs, r)
	return &r
}

// OperatorAcknowledge is the operator's acknowledgement, at the machine,
// of a registration the host asked for with 40: the record to commit
// (back to "ready", raising 6D), or nil when none is pending.
func (c *Core) OperatorAcknowledge() *Registration {
	cur := c.registration()
	if cur.Status != RegPending {
		return nil
	}
	cur.Status = RegReady
	return c.handOut(cur)
}

// Registration returns the current registration as the host sees it
// (not registered before the first), its record committed or not yet.
func (c *Core) Registration() RegisterReply { return c.regReply(c.registration()) }

func (c *Core) registration() Registration {
	if len(c.regs) > 0 {
		return c.regs[len(c.regs)-1]
	}
	if c.st.Registration == nil {
		return Registration{Status: RegNotRegistered}
	}
	return *c.st.Registration
}

func (c *Core) regReply(r Registration) RegisterReply {
	return RegisterReply{Status: r.Status, Asset: c.cfg.Asset, Key: r.Key, POSID: r.POSID}
}
