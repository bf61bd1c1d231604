// The seats' page of the table server: the lobby with the tables' cards, a
// seat played with its token (from the cashier or the cabinet), or a table
// watched. Everything the page shows comes from the server's "state"
// messages, which the server sends only after the step is in its ledger;
// the page computes nothing but the display.
"use strict";

const T = {
  pt: {
    title: "Mesas de póquer", lobby: "Mesas", seat_code: "Código do lugar", sit: "Sentar",
    seat_hint: "O código do lugar é dado pela caixa ou pela máquina onde comprou a cave.",
    watch: "Ver a mesa", players: "Jogadores", cave_now: "Cave agora",
    fold: "Desistir", check: "Passar", call: "Acompanhar", bet: "Apostar", raise: "Subir para",
    all_in: "Tudo (all in)", extra: "Mais tempo", rest: "Descansar", back: "Voltar ao jogo",
    replay: "Últimas mãos", leave: "Sair da mesa", card: "Cartão da mesa", session: "A sua sessão",
    this_hand: "Esta mão", last_hand: "Última mão", replay_title: "Repetição das últimas mãos",
    close: "Fechar", left_title: "Sessão terminada",
    bought_in: "Caves e reposições", fees: "Comissão na cave", wagered: "Apostado", won: "Ganho",
    hands: "Mãos jogadas", stack: "Fichas na mesa", cashed_out: "Levantado", net: "Lucro ou perda",
    status_waiting: "À espera de jogadores", status_playing: "Em jogo", status_between: "Entre mãos",
    status_over: "Partida terminada", status_closing: "Mesa a fechar", status_stopped: "Fora de serviço",
    hand: "Mão", pot: "Pote", side_pot: "Pote lateral", seconds: "s", your_turn: "É a sua vez",
    ante: "Comprar as cartas", no_ante: "Não comprar", estardilho: "Estardilho", no_estardilho: "Sem estardilho",
    restardilho: "Restardilho", no_restardilho: "Sem restardilho",
    leaving: "Sai no fim desta mão", dealer_holdem: "B", dealer_synthetic: "M", resting: "Descanso",
    all_in_badge: "Tudo", folded: "Desistiu", connected: "ligado", disconnected: "sem ligação",
    k_post: "pôs", k_return: "recebe de volta", k_board: "Cartas na mesa", k_show: "mostra",
    k_award: "ganha", k_rake: "comissão", k_carry: "Pó: o pote fica para a próxima mão",
    k_void: "Mão anulada por falha do sistema: as apostas foram devolvidas", k_hand_end: "Fim da mão",
    k_end: "Fim da partida", k_extra_time: "pediu mais tempo", timeout: "(tempo esgotado)",
    a_fold: "desiste", a_check: "passa", a_call: "acompanha", a_bet: "aposta", a_raise: "sobe para",
    a_small_blind: "pequena aposta", a_big_blind: "grande aposta", a_dead_blind: "aposta morta",
    a_ante: "compra as cartas", a_po_ante: "aposta do pó", a_no_ante: "não compra",
    a_estardilho: "estardilho", a_restardilho: "restardilho", a_no_estardilho: "sem estardilho", a_no_restardilho: "sem restardilho",
    no_hands: "Ainda não jogou nenhuma mão.", refused: "Recusado: ",
  },
  en: {
    title: "Poker tables", lobby: "Tables", seat_code: "Seat code", sit: "Sit down",
    seat_hint: "The seat code comes from the cashier or the machine where you bought your cave.",
    watch: "Watch the table", players: "Players", cave_now: "Cave now",
    fold: "Fold", check: "Check", call: "Call", bet: "Bet", raise: "Raise to",
    all_in: "All in", extra: "More time", rest: "Take a rest", back: "Back to the game",
    replay: "Last hands", leave: "Leave the table", card: "Table card", session: "Your session",
    this_hand: "This hand", last_hand: "Last hand", replay_title: "Replay of your last hands",
    close: "Close", left_title: "Session over",
    bought_in: "Caves and re-buys", fees: "Commission on the cave", wagered: "Wagered", won: "Won",
    hands: "Hands played", stack: "Chips at the table", cashed_out: "Cashed out", net: "Profit or loss",
    status_waiting: "Waiting for players", status_playing: "Playing", status_between: "Between hands",
    status_over: "Partida over", status_closing: "Table closing", status_stopped: "Out of service",
    hand: "Hand", pot: "Pot", side_pot: "Side pot", seconds: "s", your_turn: "Your turn",
    ante: "Buy the cards", no_ante: "Do not buy", estardilho: "Estardilho", no_estardilho: "No estardilho",
    restardilho: "Restardilho", no_restardilho: "No restardilho",
    leaving: "Leaves at the end of this hand", dealer_holdem: "D", dealer_synthetic: "H", resting: "Resting",
    all_in_badge: "All in", folded: "Folded", connected: "connected", disconnected: "disconnected",
    k_post: "posts", k_return: "gets back", k_board: "Board", k_show: "shows",
    k_award: "wins", k_rake: "commission", k_carry: "Pó: the pot stays for the next hand",
    k_void: "Hand void after a system failure: the bets were returned", k_hand_end: "End of the hand",
    k_end: "End of the partida", k_extra_time: "asked for more time", timeout: "(time out)",
    a_fold: "folds", a_check: "checks", a_call: "calls", a_bet: "bets", a_raise: "raises to",
    a_small_blind: "small blind", a_big_blind: "big blind", a_dead_blind: "dead blind",
    a_ante: "buys the cards", a_po_ante: "pó ante", a_no_ante: "does not buy",
    a_estardilho: "estardilho", a_restardilho: "restardilho", a_no_estardilho: "no estardilho", a_no_restardilho: "no restardilho",
    no_hands: "You have not played a hand yet.", refused: "Refused: ",
  },
};

let lang = localStorage.getItem("lang") || "pt";
const $ = (id) => document.getElementById(id);
const tr = (k) => (T[lang] && T[lang][k]) || T.pt[k] || k;

// euro writes cents as people read them: Portuguese "1.234,50 €", English
// "€1,234.50" (the server's internal/money.Euro; a test checks that both
// agree).
function euro(l, cents) {
  const neg = cents < 0;
  let c = BigInt(Math.abs(cents));
  const whole = (c / 100n).toString(), frac = (c % 100n).toString().padStart(2, "0");
  const sep = l === "en" ? "," : ".", dec = l === "en" ? "." : ",";
  let g = "";
  for (let i = 0; i < whole.length; i++) {
    if (i > 0 && (whole.length - i) % 3 === 0) g += sep;
    g += whole[i];
  }
  const s = g + dec + frac;
  if (l === "en") return (neg ? "-€" : "€") + s;
  return (neg ? "-" : "") + s + " €";
}
const eur = (c) => euro(lang, c);

// parseCents reads an amount typed in euros ("12,5", "12.50", "1.234,50")
// as integer cents, or null.
function parseCents(text) {
  let s = String(text).trim().replace(/\s|€/g, "");
  if (!s) return null;
  const decSep = lang === "en" ? "." : ",";
  const thou = lang === "en" ? "," : ".";
  s = s.split(thou).join("");
  if (decSep !== ".") s = s.replace(decSep, ".");
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  return parseInt(m[1], 10) * 100 + (m[2] ? parseInt(m[2].padEnd(2, "0"), 10) : 0);
}

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
function cardEl(c) {
  const el = document.createElement("span");
  el.className = "card";
  if (!c) { el.classList.add("back"); return el; }
  el.dataset.card = c;
  const rank = c[0] === "T" ? "10" : c[0];
  el.textContent = rank + SUITS[c[1]];
  if (c[1] === "D" || c[1] === "H") el.classList.add("red");
  return el;
}

let ws = null, state = null, offset = 0, seatToken = null, watchTable = null;
let replay = null, replayHand = 0, replayFrame = 0;

function applyLang() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = tr(el.dataset.i18n); });
  document.querySelectorAll("button.lang").forEach((b) => b.classList.toggle("on", b.dataset.lang === lang));
  if (state) render(); else if (!$("lobby").hidden) lobby();
  if (replay && !$("replay").hidden) renderReplay();
}

async function lobby() {
  $("lobby").hidden = false; $("game").hidden = true;
  const list = $("tables");
  try {
    const r = await fetch("api/v1/tables");
    const tables = await r.json();
    list.replaceChildren();
    for (const t of tables) {
      const d = document.createElement("div");
      d.className = "table-card"; d.id = "lobby-" + t.id;
      const h = document.createElement("h3"); h.textContent = t.title[lang] || t.title.pt; d.append(h);
      const ul = document.createElement("ul");
      for (const line of t.card[lang] || t.card.pt) { const li = document.createElement("li"); li.textContent = line; ul.append(li); }
      const li = document.createElement("li");
      li.textContent = `${tr("players")}: ${t.players}/${t.seats} · ${tr("cave_now")}: ${eur(t.required_cave)} · ${tr("status_" + t.status)}`;
      ul.append(li); d.append(ul);
      const a = document.createElement("a"); a.href = "#table=" + encodeURIComponent(t.id); a.textContent = tr("watch");
      d.append(a); list.append(d);
    }
  } catch (e) { list.textContent = String(e); }
}

function route() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (ws) { ws.onclose = null; ws.close(); ws = null; }
  state = null; seatToken = h.get("seat"); watchTable = h.get("table");
  if (!seatToken && !watchTable) { lobby(); return; }
  $("lobby").hidden = true; $("game").hidden = false; $("left").hidden = true;
  connect();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(proto + "//" + location.host + location.pathname.replace(/[^/]*$/, "") + "ws");
  ws.onopen = () => {
    $("conn").textContent = tr("connected");
    ws.send(JSON.stringify(seatToken ? { type: "hello", token: seatToken } : { type: "hello", table: watchTable }));
  };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "state") { state = m; offset = m.now_ms - Date.now(); $("error").textContent = ""; render(); }
    else if (m.type === "replay") { replay = m; replayHand = Math.max(0, m.hands.length - 1); replayFrame = 0; renderReplay(); $("replay").hidden = false; }
    else if (m.type === "left") { showLeft(m); seatToken = null; }
    else if (m.type === "error") { $("error").textContent = tr("refused") + m.message; }
  };
  ws.onclose = () => {
    $("conn").textContent = tr("disconnected");
    setTimeout(() => { if ((seatToken || watchTable) && (!ws || ws.readyState === WebSocket.CLOSED)) connect(); }, 1000);
  };
}

function send(m) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m)); }

// Seats around the oval, seat 1 at the bottom, in the order of the seats.
function seatPos(i, n) {
  const a = Math.PI / 2 + (2 * Math.PI * i) / n;
  return { left: 50 + 44 * Math.cos(a), top: 50 + 40 * Math.sin(a) };
}

function render() {
  const s = state, t = s.table, me = s.you;
  $("table-title").textContent = t.title[lang] || t.title.pt;
  $("status").textContent = tr("status_" + t.status); $("status").dataset.status = t.status;
  $("conn").textContent = tr(ws && ws.readyState === WebSocket.OPEN ? "connected" : "disconnected");
  $("hand-no").textContent = s.hand ? `${tr("hand")} ${s.hand}` : ""; $("hand-no").dataset.hand = s.hand;
  const card = $("table-card"); card.replaceChildren();
  for (const line of t.card[lang] || t.card.pt) { const li = document.createElement("li"); li.textContent = line; card.append(li); }
  // A chemin de fer table has its own table and decisions (chemin.js).
  const chemin = typeof isChemin === "function" && isChemin(s);
  $("title").textContent = tr(chemin ? "c_title" : "title");
  document.body.classList.toggle("chemin", chemin);
  $("felt").classList.toggle("chemin", chemin);
  $("center").hidden = chemin; $("chemin-center").hidden = !chemin; $("announce-panel").hidden = !chemin;
  $("chemin-actions").hidden = true;
  if (chemin) { renderChemin(); return; }
  document.querySelector("#log").previousElementSibling.textContent = tr("this_hand");
  document.querySelector("#last h2").textContent = tr("last_hand");
  $("btn-replay").textContent = tr("replay");

  const seats = $("seats"); seats.replaceChildren();
  const bySeat = {}; for (const sv of s.seats || []) bySeat[sv.seat] = sv;
  for (let n = 1; n <= t.seats; n++) {
    const sv = bySeat[n], el = document.createElement("div");
    el.className = "seat"; el.id = "seat-" + n; el.dataset.seat = n;
    const p = seatPos(n - 1, t.seats); el.style.left = p.left + "%"; el.style.top = p.top + "%";
    if (!sv) { el.classList.add("empty"); el.textContent = String(n); seats.append(el); continue; }
    el.dataset.player = sv.player;
    if (s.to_act === n) el.classList.add("to-act");
    if (me && me.seat === n) el.classList.add("you");
    if (sv.folded) el.classList.add("folded");
    const name = document.createElement("div"); name.className = "name"; name.textContent = `${n}. ${sv.player}`;
    const stack = document.createElement("div"); stack.className = "stack"; stack.dataset.cents = sv.stack; stack.textContent = eur(sv.stack);
    const bet = document.createElement("div"); bet.className = "bet"; bet.dataset.cents = sv.bet; bet.textContent = sv.bet ? eur(sv.bet) : "";
    const cs = document.createElement("div"); cs.className = "hole";
    if (sv.cards && sv.cards.length) { cs.dataset.cards = sv.cards.join(" "); sv.cards.forEach((c) => cs.append(cardEl(c))); }
    else if (sv.in_hand && !sv.folded) { cs.append(cardEl(null), cardEl(null)); }
    const badges = document.createElement("div"); badges.className = "badges";
    const badge = (k) => { const b = document.createElement("span"); b.textContent = tr(k); badges.append(b); };
    if (s.dealer === n && s.hand) badge(t.game === "holdem" ? "dealer_holdem" : "dealer_synthetic");
    if (sv.resting) badge("resting");
    if (sv.all_in) badge("all_in_badge");
    if (sv.folded) badge("folded");
    el.append(name, stack, bet, cs, badges); seats.append(el);
  }
  const board = $("board"); board.replaceChildren(); board.dataset.cards = (s.board || []).join(" ");
  (s.board || []).forEach((c) => board.append(cardEl(c)));
  // The pots are split only where a player is all in; otherwise the
  // bets of the round are one pot.
  const pots = s.pots || [], allIn = (s.seats || []).some((x) => x.all_in && x.in_hand);
  const total = pots.reduce((a, b) => a + b, 0);
  $("pots").textContent = !pots.length ? "" : allIn
    ? pots.map((p, i) => `${i ? tr("side_pot") : tr("pot")}: ${eur(p)}`).join(" · ")
    : `${tr("pot")}: ${eur(total)}`;
  $("pots").dataset.cents = total;

  renderControls();
  renderTotals();
  renderLog($("log"), s.current, false);
  const last = $("last"); last.dataset.hand = (s.last && s.last.length) ? s.last[0].hand : 0;
  renderLast();
}

function renderControls() {
  const s = state, o = s.options, f = s.offer, me = s.you;
  $("seat-buttons").hidden = !me;
  $("btn-rest").textContent = me && (s.seats || []).some((x) => x.seat === me.seat && x.resting) ? tr("back") : tr("rest");
  $("btn-leave").disabled = !!(me && me.cash_out);
  if (me && me.cash_out) $("btn-leave").textContent = tr("leaving"); else $("btn-leave").textContent = tr("leave");
  $("offer").hidden = !f;
  if (f) {
    $("offer-text").textContent = `${tr(f.accept)} (${eur(f.amount)})?`;
    $("btn-accept").textContent = tr(f.accept); $("btn-accept").dataset.kind = f.accept;
    $("btn-decline").textContent = tr(f.decline); $("btn-decline").dataset.kind = f.decline;
  }
  $("actions").hidden = !o;
  if (o) {
    $("btn-check").hidden = !o.check;
    $("btn-call").hidden = o.check;
    $("btn-call").textContent = `${tr("call")} ${eur(o.call)}`;
    $("raise-box").hidden = !o.raise; $("btn-allin").hidden = !o.raise;
    if (o.raise) {
      const r = $("raise-range"); r.min = o.min_to; r.max = o.max_to;
      if (!(+r.value >= o.min_to && +r.value <= o.max_to)) r.value = o.min_to;
      $("raise-to").value = euro(lang, +r.value).replace(/\s?€/, "");
      $("btn-raise").textContent = o.opening ? tr("bet") : tr("raise");
    }
    $("btn-extra").hidden = !o.extra;
  }
  tick();
}

function tick() {
  const s = state;
  if (!s) return;
  const deadline = (s.offer && s.offer.deadline_ms) || s.deadline_ms;
  if (!deadline) { $("timer-bar").style.width = "0"; $("timer-text").textContent = ""; return; }
  const left = Math.max(0, deadline - (Date.now() + offset));
  const total = s.table.decision_seconds * 1000;
  $("timer-bar").style.width = Math.min(100, (100 * left) / total) + "%";
  const mine = s.options || s.offer || (typeof isChemin === "function" && isChemin(s) && cheminMine());
  $("timer-text").textContent = `${mine ? tr("your_turn") + " · " : ""}${Math.ceil(left / 1000)} ${tr("seconds")}`;
}
setInterval(tick, 200);

function totalsInto(dl, tot, extra) {
  dl.replaceChildren();
  const row = (k, v, id) => {
    const dt = document.createElement("dt"); dt.textContent = tr(k);
    const dd = document.createElement("dd"); dd.textContent = typeof v === "number" && k !== "hands" ? eur(v) : String(v);
    dd.id = id; dd.dataset.cents = v; dl.append(dt, dd);
  };
  row("bought_in", tot.bought_in, dl.id + "-bought-in");
  if (tot.fees) row("fees", tot.fees, dl.id + "-fees");
  row("wagered", tot.wagered, dl.id + "-wagered");
  row("won", tot.won, dl.id + "-won");
  row("hands", tot.hands, dl.id + "-hands");
  for (const [k, v] of extra) row(k, v, dl.id + "-" + k.replace("_", "-"));
}

function renderTotals() {
  const me = state.you;
  $("you-panel").hidden = !me;
  if (!me) return;
  totalsInto($("totals"), me.totals, [["stack", me.stack], ["net", me.stack - me.totals.bought_in]]);
}

function playerOf(seat) {
  const sv = (state.seats || []).find((x) => x.seat === seat);
  return sv ? sv.player : String(seat);
}

// lineOf writes one record of a hand for people.
function lineOf(r, names) {
  if (typeof isChemin === "function" && isChemin(state)) return cheminLine(r, names);
  const who = r.player || names[r.seat] || (r.seat ? String(r.seat) : "");
  const to = r.timeout ? " " + tr("timeout") : "";
  switch (r.kind) {
    case "hand_start": return `${tr("hand")} ${r.hand}` + (r.amount ? ` · ${tr("pot")}: ${eur(r.amount)}` : "");
    case "post": return `${who} ${tr("k_post")} ${tr("a_" + r.action)} ${eur(r.amount)}`;
    case "act": {
      const a = tr("a_" + r.action);
      if (r.action === "raise" || r.action === "bet") return `${who} ${a} ${eur(r.to)}${r.all_in ? " (" + tr("all_in_badge") + ")" : ""}${to}`;
      if (r.action === "call") return `${who} ${a} ${eur(r.amount)}${r.all_in ? " (" + tr("all_in_badge") + ")" : ""}${to}`;
      return `${who} ${a}${to}`;
    }
    case "board": return `${tr("k_board")}: ${r.cards.join(" ")}`;
    case "return": return `${who} ${tr("k_return")} ${eur(r.amount)}`;
    case "show": return `${who} ${tr("k_show")} ${r.cards.join(" ")} — ${r.value}`;
    case "award": return (r.shares || []).map((sh) => `${names[sh.seat] || sh.seat} ${tr("k_award")} ${eur(sh.amount)}`).join(", ") +
      ` (${r.pot ? tr("side_pot") : tr("pot")} ${eur(r.amount)}, ${tr("k_rake")} ${eur(r.rake || 0)})`;
    case "carry": return tr("k_carry");
    case "void": return tr("k_void");
    case "hand_end": return tr("k_hand_end");
    case "end": return tr("k_end");
    case "extra_time": return `${who} ${tr("k_extra_time")}`;
  }
  return r.kind;
}

function namesOf(recs) {
  const names = {};
  for (const sv of state.seats || []) names[sv.seat] = sv.player;
  for (const r of recs || []) { if (r.player && r.seat) names[r.seat] = r.player; for (const st of r.stacks || []) names[st.seat] = st.player; }
  return names;
}

function renderLog(ol, recs) {
  ol.replaceChildren();
  const names = namesOf(recs);
  for (const r of recs || []) { const li = document.createElement("li"); li.textContent = lineOf(r, names); li.dataset.kind = r.kind; ol.append(li); }
  ol.scrollTop = ol.scrollHeight;
}

// The last hand: the cards shown, the pots paid and every stack at its end.
function renderLast() {
  const body = $("last-body"); body.replaceChildren();
  const recs = state.last || [];
  if (!recs.length) return;
  const names = namesOf(recs);
  const h = document.createElement("div"); h.textContent = `${tr(isChemin(state) ? "c_coup" : "hand")} ${recs[0].hand}`; body.append(h);
  for (const r of recs) {
    if (r.kind === "show") {
      const d = document.createElement("div"); d.className = "show"; d.dataset.seat = r.seat; d.dataset.cards = r.cards.join(" ");
      d.append(document.createTextNode(`${r.player}: `)); r.cards.forEach((c) => d.append(cardEl(c)));
      d.append(document.createTextNode(" " + r.value)); body.append(d);
    } else if (r.kind === "award" || r.kind === "carry" || r.kind === "void") {
      const d = document.createElement("div"); d.className = r.kind; d.textContent = lineOf(r, names); body.append(d);
    } else if (r.kind === "hand_end") {
      const dl = document.createElement("dl");
      for (const st of r.stacks || []) {
        const dt = document.createElement("dt"); dt.textContent = `${st.seat}. ${st.player}`;
        const dd = document.createElement("dd"); dd.className = "end-stack"; dd.dataset.seat = st.seat; dd.dataset.cents = st.stack; dd.textContent = eur(st.stack);
        dl.append(dt, dd);
      }
      body.append(dl);
    }
  }
}

function renderReplay() {
  const hands = $("replay-hands"); hands.replaceChildren();
  const frame = $("replay-frame"); frame.replaceChildren();
  if (!replay.hands.length) { frame.textContent = tr("no_hands"); $("replay-pos").textContent = ""; return; }
  replay.hands.forEach((h, i) => {
    const b = document.createElement("button"); b.textContent = `${tr(isChemin(state) ? "c_coup" : "hand")} ${h.hand}`; b.disabled = i === replayHand;
    b.onclick = () => { replayHand = i; replayFrame = 0; renderReplay(); }; hands.append(b);
  });
  const h = replay.hands[replayHand], f = h.frames[replayFrame];
  const names = {}; for (const fs of f.seats) names[fs.seat] = fs.player;
  const line = document.createElement("p"); line.textContent = lineOf(f.record, names); frame.append(line);
  if (f.chemin) { cheminFrame(frame, f, names); $("replay-pos").textContent = `${replayFrame + 1} / ${h.frames.length}`; return; }
  const b = document.createElement("div"); f.board.forEach((c) => b.append(cardEl(c)));
  b.append(document.createTextNode(` ${tr("pot")}: ${eur(f.pot)}`)); frame.append(b);
  for (const fs of f.seats) {
    const d = document.createElement("div"); d.className = "fseat";
    d.append(document.createTextNode(`${fs.seat}. ${fs.player} ${eur(fs.stack)}${fs.bet ? " · " + eur(fs.bet) : ""}${fs.folded ? " · " + tr("folded") : ""} `));
    (fs.cards || []).forEach((c) => d.append(cardEl(c))); frame.append(d);
  }
  $("replay-pos").textContent = `${replayFrame + 1} / ${h.frames.length}`;
}

function showLeft(m) {
  const dl = $("left-totals");
  dl.id = "left-totals";
  totalsInto(dl, m.totals, [["cashed_out", m.amount], ["net", m.totals.cashed_out - m.totals.bought_in]]);
  $("left").dataset.cents = m.amount; $("left").hidden = false;
}

function act(kind, to) { $("error").textContent = ""; send(to ? { type: "act", kind, to } : { type: "act", kind }); }

$("btn-fold").onclick = () => act("fold");
$("btn-check").onclick = () => act("check");
$("btn-call").onclick = () => act("call");
$("btn-allin").onclick = () => act("all_in");
$("btn-raise").onclick = () => {
  const c = parseCents($("raise-to").value);
  if (c === null) { $("error").textContent = tr("refused") + $("raise-to").value; return; }
  act("raise", c);
};
$("raise-range").oninput = () => { $("raise-to").value = euro(lang, +$("raise-range").value).replace(/\s?€/, ""); };
$("btn-extra").onclick = () => send({ type: "extra" });
$("btn-accept").onclick = () => act($("btn-accept").dataset.kind);
$("btn-decline").onclick = () => act($("btn-decline").dataset.kind);
$("btn-rest").onclick = () => { const me = state && state.you; const sv = me && state.seats.find((x) => x.seat === me.seat); send({ type: "rest", on: !(sv && sv.resting) }); };
$("btn-leave").onclick = () => send({ type: "leave" });
$("btn-replay").onclick = () => send({ type: "replay" });
$("replay-prev").onclick = () => { if (replayFrame > 0) { replayFrame--; renderReplay(); } };
$("replay-next").onclick = () => { const h = replay.hands[replayHand]; if (h && replayFrame < h.frames.length - 1) { replayFrame++; renderReplay(); } };
$("replay-close").onclick = () => { $("replay").hidden = true; };
$("left-close").onclick = () => { $("left").hidden = true; location.hash = ""; };
$("seat-form").onsubmit = (e) => { e.preventDefault(); const c = $("seat-code").value.trim(); if (c) location.hash = "seat=" + encodeURIComponent(c); };
document.querySelectorAll("button.lang").forEach((b) => { b.onclick = () => { lang = b.dataset.lang; localStorage.setItem("lang", lang); applyLang(); }; });
window.addEventListener("hashchange", route);
applyLang();
route();
