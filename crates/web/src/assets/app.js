'use strict';
// The page of one game (`/GAME`): the board drawn from the server's view of the position
// (cells, pieces, each legal move's from and to), seats for people and engines, analysis
// streamed over a WebSocket, exact solves, clocks, and the record in the URL fragment.
// No rule of any game is here: every position, legal move and result comes from the server.
(function () {
  const SVG = 'http://www.w3.org/2000/svg';
  const $ = id => document.getElementById(id);
  const game = location.pathname.replace(/^\/+|\/+$/g, '');
  const params = new URLSearchParams(location.search);
  const watchKey = params.get('watch');

  let info = null;          // the game's description (/api/games)
  let rec = { start: 'start', moves: [] };   // the record
  let cursor = 0;           // moves shown (0 .. rec.moves.length)
  let view = null;          // the state at the cursor, from the server
  let seats = [];           // {human: bool, spec, time}
  let tc = { ms: 0, moves: null };           // time control: per side, moves per side
  let clocks = [];          // ms left per seat
  let turnStarted = 0;      // performance.now() when the running clock started
  let flagged = null;       // the seat whose clock reached zero
  let selected = null;      // the spot whose moves are shown
  let generation = 0;       // requests of older generations are dropped
  let search = null;        // {ws, purpose: 'play' | 'analyse', position}
  let analysing = false;
  let arrows = [];          // [{from, to, kind}]
  let solved = null;        // {position, ...}
  let watchState = null;    // the watched game's last message
  let paused = false;       // engines wait (after a take-back) until the user plays or resumes
  let written = null;       // the fragment this page wrote last

  // ---------------------------------------------------------------- helpers
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function message(text, kind) {
    const m = $('message');
    m.textContent = text || '';
    m.className = kind || '';
  }
  async function api(path, body) {
    const r = await fetch('/api/game/' + game + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const data = await r.json().catch(() => ({ error: 'the server answered ' + r.status }));
    if (!r.ok) {
      const e = new Error(data.error || ('the server answered ' + r.status));
      e.moveIndex = data.move_index;
      throw e;
    }
    return data;
  }
  function fmtMs(ms) {
    ms = Math.max(0, ms);
    const s = Math.floor(ms / 1000);
    const m = Math.floor(s / 60);
    const tenth = ms < 10000 ? '.' + Math.floor((ms % 1000) / 100) : '';
    return m + ':' + String(s % 60).padStart(2, '0') + tenth;
  }
  function fmtCount(n) {
    if (n >= 1e9) return (n / 1e9).toFixed(2) + ' G';
    if (n >= 1e6) return (n / 1e6).toFixed(2) + ' M';
    if (n >= 1e4) return (n / 1e3).toFixed(1) + ' k';
    return String(n);
  }
  function luminance(hex) {
    const n = parseInt(hex.slice(1), 16);
    const r = (n >> 16) & 255, g = (n >> 8) & 255, b = n & 255;
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255;
  }
  // A dot in player i's colour.
  function swatch(i) {
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = view ? view.board.players[i].colour : '#999';
    return sw;
  }
  function playerName(p) {
    return info ? info.players[p].name : String(p);
  }

  // ---------------------------------------------------------------- the URL fragment
  // #start=POSITION&moves=M1~M2~...&seats=human~engine@1000&clock=120000~150&ply=N
  function writeHash() {
    if (watchKey) return;
    const h = new URLSearchParams();
    if (rec.start !== 'start') h.set('start', rec.start);
    if (rec.moves.length) h.set('moves', rec.moves.join('~'));
    h.set('seats', seats.map(s => s.human ? 'human' : s.spec + '@' + s.time).join('~'));
    if (tc.ms) h.set('clock', tc.ms + (tc.moves ? '~' + tc.moves : ''));
    if (cursor < rec.moves.length) h.set('ply', String(cursor));
    const hash = '#' + h.toString();
    written = hash;
    if (location.hash !== hash) history.replaceState(null, '', location.pathname + location.search + hash);
  }
  function readHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    rec = {
      start: h.get('start') || 'start',
      moves: h.get('moves') ? h.get('moves').split('~').filter(m => m.length) : [],
    };
    seats = info.players.map((_, i) => ({ human: i === 0, spec: 'engine', time: 1000 }));
    if (h.get('seats')) {
      h.get('seats').split('~').forEach((s, i) => {
        if (i >= seats.length) return;
        if (s === 'human') { seats[i] = { human: true, spec: 'engine', time: 1000 }; return; }
        const at = s.lastIndexOf('@');
        const time = at > 0 ? parseInt(s.slice(at + 1), 10) : 1000;
        seats[i] = { human: false, spec: at > 0 ? s.slice(0, at) : s, time: time > 0 ? time : 1000 };
      });
    }
    tc = { ms: 0, moves: info.move_limit };
    if (h.get('clock')) {
      const [ms, moves] = h.get('clock').split('~');
      tc = { ms: parseInt(ms, 10) || 0, moves: moves ? parseInt(moves, 10) : null };
    }
    const ply = h.get('ply');
    cursor = ply !== null ? Math.max(0, Math.min(rec.moves.length, parseInt(ply, 10) || 0)) : rec.moves.length;
    resetClocks();
  }

  // ---------------------------------------------------------------- clocks
  function resetClocks() {
    clocks = info.players.map(() => tc.ms);
    flagged = null;
    turnStarted = performance.now();
  }
  function clockRunning() {
    if (watchKey) return watchState && !watchState.over ? watchState.to_move : null;
    if (!tc.ms || !view || flagged !== null || view.result || cursor !== rec.moves.length) return null;
    return view.to_move;
  }
  function clockLeft(p) {
    if (watchKey) {
      if (!watchState) return 0;
      const base = watchState.clocks[p];
      return clockRunning() === p ? base - (performance.now() - watchState.received) : base;
    }
    return clockRunning() === p ? clocks[p] - (performance.now() - turnStarted) : clocks[p];
  }
  function chargeClock() {
    // The mover's clock, when a move is made at the end of the game.
    const p = clockRunning();
    if (p !== null && p !== undefined) clocks[p] -= performance.now() - turnStarted;
    turnStarted = performance.now();
  }
  function renderClocks() {
    const box = $('clocks');
    const on = watchKey ? !!(watchState && watchState.time_ms) : !!tc.ms;
    box.hidden = !on;
    if (!on || !view) return;
    const running = clockRunning();
    if (box.children.length !== info.players.length) {
      box.replaceChildren();
      info.players.forEach((pl, i) => {
        const c = document.createElement('span');
        c.className = 'clock';
        c.dataset.player = pl.letter;
        const t = document.createElement('span');
        t.className = 'time';
        c.append(swatch(i), t);
        box.append(c);
      });
    }
    info.players.forEach((pl, i) => {
      const c = box.children[i];
      const left = clockLeft(i);
      c.querySelector('.time').textContent = fmtMs(left);
      c.classList.toggle('running', running === i);
      c.classList.toggle('low', left < 10000);
      c.classList.toggle('flag', flagged === i || left <= 0);
    });
    if (!watchKey && running !== null && running !== undefined && clockLeft(running) <= 0) {
      flagged = running;
      clocks[running] = 0;
      stopSearch();
      render();
    }
  }
  setInterval(renderClocks, 100);

  // ---------------------------------------------------------------- the board
  function spotCentre(s) {
    const sh = s.shape;
    if (sh.kind === 'band') return [(sh.x1 + sh.x2) / 2, (sh.y1 + sh.y2) / 2];
    return [sh.x, sh.y];
  }
  function pieceRadius(s) {
    const sh = s.shape;
    if (sh.kind === 'rect') return Math.min(sh.w, sh.h, 1) * 0.36;
    if (sh.kind === 'hex') return sh.r * 0.56;
    if (sh.kind === 'circle') return sh.r * 0.8;
    return 0.36;
  }
  function hexPoints(x, y, r) {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 180 * (60 * i - 90);
      pts.push((x + r * Math.cos(a)).toFixed(4) + ',' + (y + r * Math.sin(a)).toFixed(4));
    }
    return pts.join(' ');
  }
  // Where a zone's caption goes: beside a slanted or horizontal band along it, outside the
  // board; above an upright band; below a box.
  function captionPlace(s) {
    const sh = s.shape;
    if (sh.kind === 'band') {
      const dx = sh.x2 - sh.x1, dy = sh.y2 - sh.y1;
      if (Math.abs(dx) < Math.abs(dy) * 0.3) {
        return { x: (sh.x1 + sh.x2) / 2, y: Math.min(sh.y1, sh.y2) - 0.85, angle: 0 };
      }
      const len = Math.hypot(dx, dy);
      let nx = -dy / len, ny = dx / len;
      const mx = (sh.x1 + sh.x2) / 2, my = (sh.y1 + sh.y2) / 2;
      if (nx * mx + ny * my < 0) { nx = -nx; ny = -ny; }
      let angle = Math.atan2(dy, dx) * 180 / Math.PI;
      if (angle > 90) angle -= 180;
      if (angle <= -90) angle += 180;
      return { x: mx + nx * 0.8, y: my + ny * 0.8, angle };
    }
    const [cx, cy] = spotCentre(s);
    return { x: cx, y: cy + (sh.h ? sh.h / 2 + 0.32 : 0.8), angle: 0 };
  }
  // The width of the frame round a board of squares, where its coordinates are written.
  const FRAME = 0.55;
  // Each rectangular cell's column and row, counted from the top-left cell's centre in steps
  // of the cell's own size (so not from the order of the list): their parity shades squares.
  function gridPlaces(b) {
    const rects = b.spots.filter(s => s.role.kind === 'cell' && s.shape.kind === 'rect');
    const x0 = Math.min(...rects.map(s => s.shape.x)), y0 = Math.min(...rects.map(s => s.shape.y));
    const out = {};
    for (const s of rects) {
      out[s.id] = { col: Math.round((s.shape.x - x0) / s.shape.w), row: Math.round((s.shape.y - y0) / s.shape.h) };
    }
    return out;
  }
  // The outer edges of a board's cells: [left, top, right, bottom].
  function cellBox(b) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const s of b.spots) {
      if (s.role.kind !== 'cell' || s.shape.kind !== 'rect') continue;
      const sh = s.shape;
      x0 = Math.min(x0, sh.x - sh.w / 2); y0 = Math.min(y0, sh.y - sh.h / 2);
      x1 = Math.max(x1, sh.x + sh.w / 2); y1 = Math.max(y1, sh.y + sh.h / 2);
    }
    return [x0, y0, x1, y1];
  }
  function bounds(b) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    const add = (x, y, m) => { x0 = Math.min(x0, x - m); y0 = Math.min(y0, y - m); x1 = Math.max(x1, x + m); y1 = Math.max(y1, y + m); };
    for (const s of b.spots) {
      const sh = s.shape;
      if (sh.kind === 'rect') { add(sh.x - sh.w / 2, sh.y - sh.h / 2, 0); add(sh.x + sh.w / 2, sh.y + sh.h / 2, 0); }
      else if (sh.kind === 'band') { add(sh.x1, sh.y1, 0.5); add(sh.x2, sh.y2, 0.5); }
      else add(sh.x, sh.y, sh.r);
      if (s.role.kind !== 'cell') {
        // The caption, about 0.2 units a letter.
        const c = captionPlace(s);
        const half = s.caption.length * 0.1;
        const a = c.angle * Math.PI / 180;
        add(c.x + Math.cos(a) * half, c.y + Math.sin(a) * half, 0.25);
        add(c.x - Math.cos(a) * half, c.y - Math.sin(a) * half, 0.25);
      }
    }
    if (b.layout.kind === 'clock') add(0, 0, b.layout.radius + 2.0);
    if (b.layout.kind === 'squares') {
      const [l, t, r, bt] = cellBox(b);
      add(l - FRAME, t - FRAME, 0);
      add(r + FRAME, bt + FRAME, 0);
    }
    return [x0 - 0.35, y0 - 0.45, x1 - x0 + 0.7, y1 - y0 + 0.9];
  }
  // Where the pieces of a zone (an exit edge, a hand, off the board) are drawn.
  function zoneSlots(s, n) {
    const sh = s.shape;
    const out = [];
    const cap = Math.max(n, sh.kind === 'band' ? 6 : 4);
    for (let i = 0; i < n; i++) {
      const t = (i + 0.5) / cap;
      if (sh.kind === 'band') out.push([sh.x1 + (sh.x2 - sh.x1) * t, sh.y1 + (sh.y2 - sh.y1) * t]);
      else if (sh.kind === 'rect') {
        if (sh.h >= sh.w) out.push([sh.x, sh.y - sh.h / 2 + sh.h * t]);
        else out.push([sh.x - sh.w / 2 + sh.w * t, sh.y]);
      } else out.push([sh.x, sh.y]);
    }
    return out;
  }
  function zoneRadius(s) {
    const sh = s.shape;
    if (sh.kind === 'band') {
      const len = Math.hypot(sh.x2 - sh.x1, sh.y2 - sh.y1);
      return Math.min(0.4, len / 6 * 0.42);
    }
    if (sh.kind === 'rect') return sh.h >= sh.w ? Math.min(sh.w, sh.h / 4) * 0.42 : Math.min(sh.h, sh.w / 4) * 0.42;
    return 0.3;
  }
  function crown(g, x, y, r, colour) {
    const w = r * 1.05, h = r * 0.75;
    const pts = [
      [-w / 2, h / 2], [-w / 2, -h / 2], [-w / 4, 0], [0, -h / 1.6], [w / 4, 0], [w / 2, -h / 2], [w / 2, h / 2],
    ].map(([a, b]) => (x + a).toFixed(3) + ',' + (y + b + r * 0.05).toFixed(3)).join(' ');
    el('polygon', { points: pts, fill: colour, class: 'piece' }, g);
  }
  function drawPiece(g, p, x, y, r) {
    const colour = view.board.players[p.player].colour;
    const dark = luminance(colour) < 0.5;
    const ink = dark ? '#f4f1e8' : '#24262b';
    const stroke = dark ? '#000' : '#3a3a3a';
    const pg = el('g', { class: 'piece', 'data-piece': p.kind, 'data-player': view.board.players[p.player].letter }, g);
    el('circle', { cx: x, cy: y + r * 0.08, r: r, fill: 'rgba(0,0,0,.22)', class: 'piece' }, pg);
    el('circle', { cx: x, cy: y, r: r, fill: colour, stroke: stroke, 'stroke-width': r * 0.09, class: 'piece' }, pg);
    const sym = p.symbol || { kind: 'plain' };
    if (sym.kind === 'crown') crown(pg, x, y, r, ink);
    if (sym.kind === 'ring') el('circle', { cx: x, cy: y, r: r * 0.55, fill: 'none', stroke: ink, 'stroke-width': r * 0.1, class: 'piece' }, pg);
    if (sym.kind === 'text') {
      const size = String(sym.text).length > 2 ? r * 0.8 : r * 1.05;
      const t = el('text', { x: x, y: y + r * 0.04, class: 'piece-label', fill: ink, 'font-size': size }, pg);
      t.textContent = String(sym.text);
    }
    if (p.fixed) el('circle', { cx: x, cy: y, r: r * 1.14, fill: 'none', stroke: '#c8951a', 'stroke-width': r * 0.16, class: 'piece' }, pg);
    if (p.captive) {
      el('circle', { cx: x, cy: y, r: r * 1.12, fill: 'none', stroke: '#c0392b', 'stroke-width': r * 0.13, 'stroke-dasharray': (r * 0.3) + ' ' + (r * 0.18), class: 'piece' }, pg);
    }
  }
  function shapeElement(g, s, cls, extra) {
    const sh = s.shape;
    let e;
    if (sh.kind === 'rect') e = el('rect', { x: sh.x - sh.w / 2, y: sh.y - sh.h / 2, width: sh.w, height: sh.h, rx: 0.06 }, g);
    else if (sh.kind === 'hex') e = el('polygon', { points: hexPoints(sh.x, sh.y, sh.r * 0.985) }, g);
    else if (sh.kind === 'circle') e = el('circle', { cx: sh.x, cy: sh.y, r: sh.r }, g);
    else e = el('path', { d: bandPath(sh, 0.475) }, g);
    e.setAttribute('class', cls);
    for (const k in (extra || {})) e.setAttribute(k, extra[k]);
    return e;
  }
  // A band as a stadium: the segment thickened to 2 × half, with round ends.
  function bandPath(sh, half) {
    const dx = sh.x2 - sh.x1, dy = sh.y2 - sh.y1;
    const len = Math.hypot(dx, dy) || 1;
    const nx = -dy / len * half, ny = dx / len * half;
    const f = v => v.toFixed(3);
    return 'M' + f(sh.x1 + nx) + ' ' + f(sh.y1 + ny) + ' L' + f(sh.x2 + nx) + ' ' + f(sh.y2 + ny) +
      ' A' + half + ' ' + half + ' 0 0 0 ' + f(sh.x2 - nx) + ' ' + f(sh.y2 - ny) +
      ' L' + f(sh.x1 - nx) + ' ' + f(sh.y1 - ny) +
      ' A' + half + ' ' + half + ' 0 0 0 ' + f(sh.x1 + nx) + ' ' + f(sh.y1 + ny) + ' Z';
  }
  function arrow(g, from, to, kind) {
    const a = spotCentre(from), b = spotCentre(to);
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const len = Math.hypot(dx, dy);
    if (len < 1e-6) return;
    const ux = dx / len, uy = dy / len;
    const head = 0.42, w = 0.17;
    const ex = b[0] - ux * head, ey = b[1] - uy * head;
    el('line', { x1: a[0] + ux * 0.15, y1: a[1] + uy * 0.15, x2: ex, y2: ey, class: 'arrow ' + kind, 'stroke-width': w }, g);
    const px = -uy, py = ux;
    el('polygon', {
      class: 'arrow-head ' + kind,
      points: [[b[0], b[1]], [ex + px * head * 0.62, ey + py * head * 0.62], [ex - px * head * 0.62, ey - py * head * 0.62]]
        .map(p => p[0].toFixed(3) + ',' + p[1].toFixed(3)).join(' '),
    }, g);
  }
  function humanToMove() {
    if (watchKey || !view || view.result || flagged !== null) return false;
    const p = view.to_move;
    return p !== null && seats[p] && seats[p].human;
  }
  // A move that touches no spot: a pass.
  function isPass(m) { return m.from === null && m.to === null; }
  function drawBoard() {
    const svg = $('board');
    const b = view.board;
    svg.replaceChildren();
    if (!b.pictured) {
      // A game without a picture: its position in notation.
      svg.setAttribute('viewBox', '0 0 10 2');
      svg.dataset.layout = 'none';
      const t = el('text', { x: 5, y: 1.1, class: 'notation-only' }, svg);
      t.textContent = view.position;
      return;
    }
    const [x, y, w, h] = bounds(b);
    svg.setAttribute('viewBox', [x, y, w, h].map(v => v.toFixed(3)).join(' '));
    svg.dataset.layout = b.layout.kind;
    const spots = {};
    for (const s of b.spots) spots[s.id] = s;
    const showCoords = $('coords').checked;
    const base = el('g', { class: 'spots' }, svg);
    if (b.layout.kind === 'clock') {
      const R = b.layout.radius;
      el('circle', { cx: 0, cy: 0, r: R + 1.15, fill: '#fbf8f0', stroke: '#5c5240', 'stroke-width': 0.09 }, base);
      el('circle', { cx: 0, cy: 0, r: R + 0.95, fill: 'none', stroke: '#b3a484', 'stroke-width': 0.03 }, base);
      for (let i = 0; i < 60; i++) {
        const a = i * Math.PI / 30;
        const r0 = R + (i % 5 === 0 ? 0.78 : 0.88), r1 = R + 0.95;
        el('line', { x1: r0 * Math.sin(a), y1: -r0 * Math.cos(a), x2: r1 * Math.sin(a), y2: -r1 * Math.cos(a), stroke: '#8a7c60', 'stroke-width': i % 5 === 0 ? 0.06 : 0.025 }, base);
      }
    }
    if (b.layout.kind === 'grid') {
      // An upright frame behind the cells (the board of a game that drops its pieces).
      el('rect', { x: x + 0.25, y: y + 0.3, width: w - 0.5, height: h - 0.6, rx: 0.3, class: 'grid-frame' }, base);
    }
    const places = gridPlaces(b);
    const squares = b.layout.kind === 'squares';
    if (squares) {
      // A board of squares in a frame, which holds the coordinates.
      const [l, t, r, bt] = cellBox(b);
      el('rect', { x: l - FRAME, y: t - FRAME, width: r - l + 2 * FRAME, height: bt - t + 2 * FRAME, rx: 0.12, class: 'board-frame' }, base);
    }
    const lastFrom = b.last ? b.last.from : null, lastTo = b.last ? b.last.to : null;
    const over = el('g', { class: 'overlays' }, svg);
    for (const s of b.spots) {
      const c = spotCentre(s);
      if (s.role.kind === 'cell') {
        let cls = 'cell';
        const at = places[s.id];
        // A chequered board: the bottom-left square dark, as on a chess board.
        if (at && squares) cls += (at.col + b.layout.rows - 1 - at.row) % 2 === 0 ? ' square dark' : ' square light';
        else if (at) cls += ' sq-' + ((at.col + at.row) % 2);
        else if (s.shape.kind === 'hex') cls += s.grade ? ' grade-' + s.grade : ' hexcell';
        else if (b.layout.kind === 'grid') cls += ' slot';
        else cls += ' dial';
        if (s.marks.some(m => m.kind === 'goal')) cls += ' goal';
        const e = shapeElement(base, s, cls, { 'data-cell': s.id });
        const title = el('title', {}, e);
        title.textContent = s.caption;
        for (const m of s.marks) {
          if (m.kind === 'exit') {
            const t = shapeElement(base, s, 'exit-tint', { fill: b.players[m.player].colour, 'fill-opacity': 0.2, stroke: b.players[m.player].colour, 'stroke-width': 0.05, 'stroke-opacity': 0.55 });
            if (t.tagName === 'polygon') t.setAttribute('points', hexPoints(c[0], c[1], s.shape.r * 0.8));
          }
          if (m.kind === 'goal') crown(base, c[0], c[1] - 0.05, 0.5, 'rgba(120, 80, 0, .35)');
        }
        if (b.layout.kind === 'clock') {
          // The dial's numerals, outside the positions.
          const R = b.layout.radius + 1.62;
          const a = Math.atan2(c[0], -c[1]);
          const n = el('text', { x: (R * Math.sin(a)).toFixed(3), y: (-R * Math.cos(a)).toFixed(3), class: 'numeral' }, base);
          n.textContent = s.id;
        }
      } else {
        let colour = s.role.player !== undefined ? b.players[s.role.player].colour : '#999';
        if (luminance(colour) > 0.8) colour = '#9c9178';
        const z = el('g', { class: 'zone', 'data-spot': s.id }, base);
        const sh = s.shape;
        if (sh.kind === 'band') {
          el('path', { d: bandPath(sh, 0.475), fill: colour, 'fill-opacity': 0.28 }, z);
          el('line', { x1: sh.x1, y1: sh.y1, x2: sh.x2, y2: sh.y2, stroke: colour, 'stroke-opacity': 0.85, 'stroke-width': 0.07, 'stroke-dasharray': '.2 .12', class: 'zone-line' }, z);
        } else {
          shapeElement(z, s, 'zone-box', { fill: colour, 'fill-opacity': 0.14, stroke: colour, 'stroke-opacity': 0.7, 'stroke-width': 0.05, 'stroke-dasharray': '.15 .1' });
        }
        const title = el('title', {}, z);
        title.textContent = s.caption;
        const cap = captionPlace(s);
        const t = el('text', { x: cap.x.toFixed(3), y: cap.y.toFixed(3), class: 'zone-caption',
          transform: 'rotate(' + cap.angle.toFixed(2) + ' ' + cap.x.toFixed(3) + ' ' + cap.y.toFixed(3) + ')' }, base);
        t.textContent = s.caption;
      }
      if (s.id === lastFrom || s.id === lastTo) {
        shapeElement(over, s, 'last ' + (s.id === lastTo ? 'to' : 'from'));
      }
    }
    // Pieces: on cells one each, in zones side by side.
    const byZone = {};
    const pieces = el('g', { class: 'pieces' }, svg);
    for (const p of b.pieces) {
      const s = spots[p.spot];
      if (!s) continue;
      if (s.role.kind === 'cell') {
        const c = spotCentre(s);
        drawPiece(pieces, p, c[0], c[1], pieceRadius(s));
      } else (byZone[p.spot] = byZone[p.spot] || []).push(p);
    }
    for (const id in byZone) {
      const s = spots[id];
      const slots = zoneSlots(s, byZone[id].length);
      byZone[id].forEach((p, i) => drawPiece(pieces, p, slots[i][0], slots[i][1], zoneRadius(s)));
    }
    // Coordinates on demand, over the pieces: a board of squares has its files along the
    // bottom and its ranks along the left, in the frame; a row's squares have theirs below
    // them; any other cell has its own in its lower part.
    if (showCoords && squares) {
      const coords = el('g', { class: 'coords' }, svg);
      const [l, , , bt] = cellBox(b);
      const xs = [], ys = [];
      for (const s of b.spots) {
        const at = places[s.id];
        if (!at) continue;
        xs[at.col] = s.shape.x;
        ys[at.row] = s.shape.y;
      }
      b.layout.files.forEach((f, i) => {
        if (xs[i] === undefined) return;
        const t = el('text', { x: xs[i], y: bt + FRAME / 2, class: 'coord edge', 'data-file': f }, coords);
        t.textContent = f;
      });
      b.layout.ranks.forEach((r, i) => {
        if (ys[i] === undefined) return;
        const t = el('text', { x: l - FRAME / 2, y: ys[i], class: 'coord edge', 'data-rank': r }, coords);
        t.textContent = r;
      });
    } else if (showCoords && b.layout.kind !== 'clock') {
      const coords = el('g', { class: 'coords' }, svg);
      const row = b.layout.kind === 'row';
      for (const s of b.spots) {
        if (s.role.kind !== 'cell') continue;
        const c = spotCentre(s);
        const below = row && s.shape.kind === 'rect';
        const dy = below ? s.shape.h / 2 + 0.22 : s.shape.kind === 'rect' ? s.shape.h * 0.3 : (s.shape.r || 0.5) * 0.66;
        const t = el('text', { x: c[0], y: c[1] + dy, class: 'coord' + (below ? '' : ' halo') }, coords);
        t.textContent = s.id;
      }
    }
    // Clock hands: the long hand on the last move's target, the short one on where it came from.
    if (b.layout.kind === 'clock') {
      const hands = el('g', {}, svg);
      const angleOf = id => {
        const s = spots[id];
        if (!s || s.role.kind !== 'cell') return null;
        const c = spotCentre(s);
        return Math.atan2(c[0], -c[1]);
      };
      let long = lastTo !== null ? angleOf(lastTo) : null;
      let short = lastFrom !== null ? angleOf(lastFrom) : null;
      if (long === null) long = 2 * Math.PI / 12 * 2;   // ten past ten
      if (short === null) short = 2 * Math.PI / 12 * 10;
      const R = b.layout.radius;
      el('line', { x1: 0, y1: 0, x2: (R * 0.52 * Math.sin(short)).toFixed(3), y2: (-R * 0.52 * Math.cos(short)).toFixed(3), class: 'hand', 'stroke-width': 0.22 }, hands);
      el('line', { x1: 0, y1: 0, x2: (R * 0.8 * Math.sin(long)).toFixed(3), y2: (-R * 0.8 * Math.cos(long)).toFixed(3), class: 'hand', 'stroke-width': 0.12 }, hands);
      el('circle', { cx: 0, cy: 0, r: 0.2, fill: '#3a3326' }, hands);
    }
    // Selection and targets.
    const marks = el('g', { class: 'marks' }, svg);
    if (selected !== null && spots[selected]) {
      const s = spots[selected];
      if (s.role.kind === 'cell') shapeElement(marks, s, 'selected');
      else shapeElement(marks, s, 'target-ring');
      for (const m of b.moves) {
        if (m.from !== selected || m.to === null || !spots[m.to]) continue;
        const t = spots[m.to];
        if (t.role.kind === 'cell') {
          const c = spotCentre(t);
          el('circle', { cx: c[0], cy: c[1], r: pieceRadius(t) * 0.42, class: 'target', 'data-target': t.id }, marks);
        } else {
          shapeElement(marks, t, 'target-ring', { 'data-target': t.id });
        }
      }
    }
    // Where a piece may be placed (moves that leave no spot), for a person to move.
    if (humanToMove()) {
      for (const m of b.moves) {
        if (m.from !== null || m.to === null || !spots[m.to] || spots[m.to].role.kind !== 'cell') continue;
        const c = spotCentre(spots[m.to]);
        el('circle', { cx: c[0], cy: c[1], r: pieceRadius(spots[m.to]) * 0.3, class: 'target drop-target', 'data-target': m.to }, marks);
      }
    }
    for (const a of arrows) {
      if (spots[a.from] && spots[a.to]) arrow(marks, spots[a.from], spots[a.to], a.kind);
      // A move that places a piece (no spot it leaves): a ring on where it goes.
      else if (a.from === null && spots[a.to]) shapeElement(marks, spots[a.to], 'target-ring drop ' + a.kind);
    }
  }
  function onBoardClick(ev) {
    const t = ev.target.closest('[data-cell], [data-spot]');
    if (!t || !view) return;
    const id = t.getAttribute('data-cell') || t.getAttribute('data-spot');
    clickSpot(id);
  }
  function clickSpot(id) {
    if (!humanToMove()) {
      if (watchKey) message('watching: the server\'s players move here', 'info');
      else if (view && !view.result && flagged === null) message(playerName(view.to_move) + ' is played by the engine (change it under Seats)', 'info');
      return;
    }
    const moves = view.board.moves;
    // A move that places a piece on this spot (nothing leaves a spot): one click plays it.
    const drops = moves.filter(m => m.from === null && m.to === id);
    if (selected === null && drops.length === 1) { playMove(drops[0].text); return; }
    if (selected !== null) {
      const m = moves.filter(m => m.from === selected && m.to === id);
      if (m.length === 1) { selected = null; playMove(m[0].text); return; }
    }
    const from = moves.filter(m => m.from === id && m.to !== null);
    selected = from.length && selected !== id ? id : null;
    message('');
    drawBoard();
  }

  // ---------------------------------------------------------------- the panels
  function renderStatus() {
    const turn = $('turn');
    turn.replaceChildren();
    $('result').textContent = '';
    $('result-words').textContent = '';
    if (view.result) {
      $('result').textContent = view.result;
      $('result-words').textContent = view.result_words;
    } else if (flagged !== null) {
      // A clock reached zero: with two players the other wins; with three, the game ends
      // with the flagger's loss.
      const others = info.players.filter((_, i) => i !== flagged);
      $('result').textContent = others.length === 1 ? 'winner ' + others[0].letter : 'loss ' + info.players[flagged].letter;
      $('result-words').textContent = playerName(flagged) + ' lost on time';
    } else if (view.to_move !== null) {
      turn.append(swatch(view.to_move), document.createTextNode(playerName(view.to_move) + ' to move' +
        (watchKey ? '' : seats[view.to_move].human ? '' : ' (engine)')));
      if (cursor < rec.moves.length) turn.append(document.createTextNode(' — looking back at ply ' + cursor + ' of ' + rec.moves.length));
    }
    $('position').textContent = view.position;
    $('pass').hidden = !(humanToMove() && view.board.pictured && view.board.moves.some(isPass));
    if (!$('pass').hidden) $('pass').textContent = view.board.moves.find(isPass).text;
    $('first').disabled = $('back').disabled = cursor === 0;
    $('forward').disabled = $('last').disabled = cursor === rec.moves.length;
    $('undo').disabled = watchKey || rec.moves.length === 0;
    const facts = $('facts');
    facts.replaceChildren();
    for (const f of view.board.facts) {
      const dt = document.createElement('dt');
      dt.textContent = f.label;
      const dd = document.createElement('dd');
      dd.textContent = f.value;
      facts.append(dt, dd);
    }
    if (watchKey && watchState) {
      const dt = document.createElement('dt');
      dt.textContent = 'server game';
      const dd = document.createElement('dd');
      dd.textContent = '#' + watchState.id + (watchState.over ? ', over (' + watchState.reason + ')' : ', live') +
        (watchState.illegal ? '; refused: ' + watchState.illegal.side + ' ' + watchState.illegal.text : '');
      facts.append(dt, dd);
    }
    document.querySelectorAll('.seat').forEach((s, i) => s.classList.toggle('to-move', view.to_move === i && !view.result));
  }
  function renderMoves() {
    const box = $('moves');
    box.replaceChildren();
    rec.moves.forEach((m, i) => {
      const d = document.createElement('div');
      d.className = 'mv' + (i + 1 === cursor ? ' current' : '') + (i >= cursor ? ' ahead' : '');
      d.textContent = (i + 1) + '. ' + m;
      d.addEventListener('click', () => goTo(i + 1));
      box.append(d);
    });
    // Keep the current move in sight, scrolling the list only (not the page).
    const cur = box.querySelector('.current');
    if (cur) {
      const top = cur.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = top - box.clientHeight / 2;
      }
    }
  }
  function renderSeats() {
    const box = $('seats');
    box.replaceChildren();
    info.players.forEach((pl, i) => {
      const row = document.createElement('div');
      row.className = 'seat';
      row.dataset.player = pl.letter;
      const name = document.createElement('span');
      name.className = 'name';
      name.append(swatch(i), document.createTextNode(watchKey && watchState ? (watchState.names[i] || pl.name) : pl.name));
      const who = document.createElement('select');
      who.className = 'who';
      who.innerHTML = '<option value="human">person</option><option value="engine">engine</option>';
      who.value = seats[i].human ? 'human' : 'engine';
      const spec = document.createElement('input');
      spec.className = 'spec';
      spec.value = seats[i].spec;
      spec.title = 'engine specification, as arena match --engine: engine, paranoid, brs, maxn, mcts, greedy, random, with ,depth=N ,time=1s ,eval=NAME ...';
      spec.spellcheck = false;
      const time = document.createElement('input');
      time.type = 'number';
      time.className = 'time';
      time.min = '0.05';
      time.step = '0.1';
      time.value = String(seats[i].time / 1000);
      time.title = 'seconds per move (when the spec has no limit of its own and no clock is set)';
      const update = () => {
        seats[i] = { human: who.value === 'human', spec: spec.value.trim() || 'engine', time: Math.max(50, Math.round(parseFloat(time.value) * 1000) || 1000) };
        spec.disabled = time.disabled = seats[i].human;
        writeHash();
        if (view) { renderStatus(); paused = false; afterChange(); }
      };
      who.addEventListener('change', update);
      spec.addEventListener('change', update);
      time.addEventListener('change', update);
      spec.disabled = time.disabled = seats[i].human;
      if (watchKey) {
        // The server's agents play: their names only.
        row.classList.add('watched');
        row.append(name);
      } else row.append(name, who, spec, time);
      box.append(row);
    });
    $('time-control').value = String(tc.ms);
    $('moves-per-side').value = tc.moves ? String(tc.moves) : '';
  }
  // Moves as separate chips (Chexers' moves have spaces), at most `max` of them.
  function moveChips(box, label, moves, max) {
    box.replaceChildren();
    box.title = '';
    if (!moves.length) return;
    box.append(document.createTextNode(label + ' '));
    moves.slice(0, max).forEach(m => {
      const c = document.createElement('span');
      c.className = 'chip';
      c.textContent = m;
      box.append(c, document.createTextNode(' '));
    });
    if (moves.length > max) box.append(document.createTextNode('… (' + moves.length + ' moves)'));
    box.title = moves.join('  ');
  }
  function showInfo(i, who) {
    $('search-who').textContent = who;
    $('info-depth').textContent = i.depth;
    let score = i.mate !== null && i.mate !== undefined
      ? (i.mate > 0 ? 'wins in ' + i.mate : 'loses in ' + (-i.mate))
      : String(i.score);
    $('info-score').textContent = score;
    $('info-scores').textContent = i.scores && i.scores.length > 2
      ? 'each player: ' + i.scores.map((v, k) => info.players[k].name + ' ' + v).join(', ') : '';
    $('info-nodes').textContent = fmtCount(i.nodes);
    $('info-nps').textContent = fmtCount(i.nps);
    $('info-time').textContent = (i.ms / 1000).toFixed(1) + ' s';
    $('info-best').textContent = i.best || '';
    moveChips($('info-pv'), 'PV:', i.pv || [], 24);
    const m = i.best && view ? view.board.moves.find(x => x.text === i.best) : null;
    arrows = arrows.filter(a => a.kind !== 'best');
    if (m && m.to) arrows.push({ from: m.from, to: m.to, kind: 'best' });
    drawBoard();
  }

  // ---------------------------------------------------------------- searches
  function stopSearch() {
    if (search) {
      const s = search;
      search = null;
      try { s.ws.close(); } catch (e) { /* closed already */ }
    }
    arrows = arrows.filter(a => a.kind !== 'best');
  }
  function startSearch(purpose) {
    stopSearch();
    const p = view.to_move;
    const body = { start: rec.start, moves: rec.moves.slice(0, cursor) };
    let who;
    if (purpose === 'play') {
      const seat = seats[p];
      body.spec = seat.spec;
      if (tc.ms) {
        body.clock = { remaining_ms: Math.max(1, Math.round(clockLeft(p))) };
        if (tc.moves) {
          const mine = Math.floor(cursor / info.players.length);
          body.clock.moves_to_go = Math.max(1, tc.moves - mine);
        }
      } else body.time_ms = seat.time;
      who = 'engine (' + seat.spec + ') is thinking for ' + playerName(p) + '…';
    } else {
      body.spec = $('analysis-spec').value.trim() || 'engine';
      body.analyse = true;
      body.time_ms = Math.max(1, Math.min(600, parseFloat($('analysis-time').value) || 30)) * 1000;
      who = 'analysing for ' + playerName(p) + ' with ' + body.spec + '…';
    }
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/game/' + game + '/search');
    const me = { ws, purpose, position: view.position, gen: generation };
    search = me;
    $('search-who').textContent = who;
    ws.onopen = () => ws.send(JSON.stringify(body));
    ws.onmessage = ev => {
      if (search !== me) return;
      const m = JSON.parse(ev.data);
      if (m.type === 'queued') $('search-who').textContent = who + ' (waiting for a free search slot)';
      else if (m.type === 'info') showInfo(m, who);
      else if (m.type === 'error') { message(m.error); search = null; ws.close(); }
      else if (m.type === 'done') {
        search = null;
        ws.close();
        if (m.depth) showInfo(m, purpose === 'play' ? playerName(p) + ' played ' + (m.best || '') : 'analysis done (' + (m.stopped ? 'stopped' : 'time') + ')');
        if (purpose === 'play' && m.best && me.gen === generation && view.position === me.position) {
          if (!m.depth) $('search-who').textContent = playerName(p) + ' (' + body.spec + ') played ' + m.best;
          playMove(m.best, true);
        } else if (purpose === 'analyse') {
          analysing = false;
          $('analyse').classList.remove('on');
          $('analyse').textContent = 'Analyse';
        }
      }
    };
    ws.onerror = () => { if (search === me) message('the search connection failed'); };
  }
  // What happens once a position is shown: an engine's move, analysis, or nothing.
  function afterChange() {
    if (!view) return;
    const live = !watchKey && !view.result && flagged === null && cursor === rec.moves.length;
    if (live && !paused && !seats[view.to_move].human) {
      if (!(search && search.purpose === 'play' && search.position === view.position)) startSearch('play');
      return;
    }
    if (search && search.position !== view.position) stopSearch();
    if (analysing && !view.result && !(search && search.position === view.position)) startSearch('analyse');
    if (!analysing && search && search.purpose === 'analyse') stopSearch();
  }

  // ---------------------------------------------------------------- moves and navigation
  async function load(at) {
    const gen = ++generation;
    const body = { start: rec.start, moves: rec.moves.slice(0, at) };
    const s = await api('/state', body);
    if (gen !== generation) return false;
    view = s;
    return true;
  }
  function render() {
    if (!view) return;
    if (solved && solved.position !== view.position) { solved = null; $('solve-result').replaceChildren(); arrows = arrows.filter(a => a.kind !== 'solve'); }
    renderStatus();
    renderMoves();
    drawBoard();
    renderClocks();
    writeHash();
  }
  async function refresh() {
    selected = null;
    try {
      if (await load(cursor)) { render(); afterChange(); }
    } catch (e) {
      if (e.moveIndex && e.moveIndex <= rec.moves.length) {
        // A record with a bad move (a link typed by hand, a file): keep the moves before it.
        rec.moves = rec.moves.slice(0, e.moveIndex - 1);
        cursor = Math.min(cursor, rec.moves.length);
        paused = true;
        await refresh();
        message('the record stops at its move ' + e.moveIndex + ': ' + e.message);
        return;
      }
      message(e.message);
    }
  }
  async function playMove(text, byEngine) {
    if (!text) return false;
    if (flagged !== null) { message('the game is over: a clock reached zero'); return false; }
    const gen = ++generation;
    const base = rec.moves.slice(0, cursor);
    try {
      const s = await api('/play', { start: rec.start, moves: base, move: text });
      if (gen !== generation) return false;
      if (cursor === rec.moves.length) chargeClock(); else turnStarted = performance.now();
      rec.moves = base.concat([s.played]);
      cursor = rec.moves.length;
      view = s;
      selected = null;
      if (!byEngine) { paused = false; message(''); }
      arrows = arrows.filter(a => a.kind !== 'best');
      render();
      afterChange();
      return true;
    } catch (e) {
      if (gen === generation) message(e.message);
      return false;
    }
  }
  function goTo(n) {
    n = Math.max(0, Math.min(rec.moves.length, n));
    if (n === cursor) return;
    cursor = n;
    stopSearch();
    refresh();
  }
  function undo() {
    if (!rec.moves.length) return;
    stopSearch();
    // Take back to the last position where a person is to move (or one move, if no seat is a
    // person's); engines then wait until a move is made or a seat changes.
    const n = rec.moves.length - 1;
    const anyHuman = seats.some(s => s.human);
    rec.moves = rec.moves.slice(0, n);
    cursor = n;
    paused = true;
    flagged = null;
    const gen = ++generation;
    const step = async () => {
      const s = await api('/state', { start: rec.start, moves: rec.moves.slice(0, cursor) });
      if (gen !== generation) return;
      view = s;
      if (anyHuman && cursor > 0 && !seats[view.to_move].human) {
        rec.moves = rec.moves.slice(0, cursor - 1);
        cursor -= 1;
        return step();
      }
      turnStarted = performance.now();
      render();
      message('taken back: engines wait until you move', 'info');
    };
    step().catch(e => message(e.message));
  }
  function newGame(start) {
    stopSearch();
    rec = { start: start || 'start', moves: [] };
    cursor = 0;
    paused = false;
    resetClocks();
    message('');
    refresh();
  }

  // ---------------------------------------------------------------- records as files
  function recordText() {
    const lines = ['# plyforge record: ' + info.title, 'game ' + game, 'start ' + (rec.start === 'start' ? info.start : rec.start)];
    rec.moves.forEach((m, i) => lines.push((i + 1) + '. ' + m));
    if (view && cursor === rec.moves.length && view.result) lines.push('result ' + view.result);
    return lines.join('\n') + '\n';
  }
  function parseRecord(text) {
    const out = { game: game, start: 'start', moves: [] };
    for (let line of text.split(/\r?\n/)) {
      line = line.trim();
      if (!line || line.startsWith('#')) continue;
      let m;
      if ((m = /^game\s+(\S+)$/.exec(line))) out.game = m[1];
      else if ((m = /^start\s+(.+)$/.exec(line))) out.start = m[1];
      else if (/^result\b/.test(line)) continue;
      else out.moves.push(line.replace(/^\d+\.\s*/, '').replace(/^move\s+/, ''));
    }
    return out;
  }

  // ---------------------------------------------------------------- watching a server game
  function watch() {
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/watch/' + encodeURIComponent(watchKey) + '/socket');
    ws.onmessage = async ev => {
      const m = JSON.parse(ev.data);
      if (m.type === 'gone') { message('this game is no longer in the record file'); return; }
      if (m.type !== 'game') return;
      m.received = performance.now() - (m.since_ms || 0);
      const first = !watchState;
      watchState = m;
      const follow = cursor === rec.moves.length;
      rec = { start: m.start || 'start', moves: m.moves };
      if (follow || first) cursor = rec.moves.length;
      if (first) renderSeats();
      $('title').textContent = info.title + ' — server game #' + m.id + ': ' + m.names.join(' – ');
      if (m.error) message(m.error);
      try { if (await load(cursor)) { render(); renderSeats(); afterChange(); } } catch (e) { message(e.message); }
      if (m.over && m.result) $('result-words').textContent = view.result ? view.result_words : m.result + ' (' + m.reason + ')';
    };
    ws.onclose = () => setTimeout(watch, 1000);
  }

  // ---------------------------------------------------------------- wiring
  async function main() {
    const r = await fetch('/api/games');
    const all = await r.json();
    info = all.games.find(g => g.name === game);
    const nav = $('game-nav');
    for (const g of all.games) {
      const a = document.createElement('a');
      a.href = '/' + g.name;
      a.textContent = g.title;
      if (g.name === game) a.className = 'current';
      nav.append(a);
    }
    $('watch-nav').hidden = !all.watching;
    if (!info) { message('unknown game ' + game); return; }
    document.title = info.title + ' — plyforge';
    $('title').textContent = info.title;
    $('solve-panel').hidden = !info.has_solver;
    readHash();
    renderSeats();
    $('start-input').value = rec.start === 'start' ? '' : rec.start;
    if (watchKey) {
      for (const id of ['move-input', 'undo', 'new-game', 'set-start', 'start-input', 'time-control', 'moves-per-side', 'load']) $(id).disabled = true;
      $('title').textContent = info.title + ' — server game';
      watch();
    }
    if (!$('coords').dataset.touched && info.name && ['row', 'squares'].includes(await firstLayout())) $('coords').checked = true;
    await refresh();
    renderSeats();
  }
  async function firstLayout() {
    try { return (await api('/state', { start: rec.start, moves: [] })).board.layout.kind; } catch (e) { return null; }
  }

  $('board').addEventListener('click', onBoardClick);
  $('move-form').addEventListener('submit', async ev => {
    ev.preventDefault();
    const input = $('move-input');
    const text = input.value.trim();
    if (!text) return;
    if (watchKey) { message('watching: moves cannot be played here'); return; }
    if (!humanToMove() && !(view && !view.result && cursor < rec.moves.length)) {
      if (view && !view.result && flagged === null && !seats[view.to_move].human) {
        message(playerName(view.to_move) + ' is played by the engine (change it under Seats)');
        return;
      }
    }
    stopSearch();
    if (await playMove(text)) { input.value = ''; input.classList.remove('bad'); }
    else { input.classList.add('bad'); afterChange(); }
  });
  $('move-input').addEventListener('input', () => $('move-input').classList.remove('bad'));
  $('first').addEventListener('click', () => goTo(0));
  $('back').addEventListener('click', () => goTo(cursor - 1));
  $('forward').addEventListener('click', () => goTo(cursor + 1));
  $('last').addEventListener('click', () => { paused = false; goTo(rec.moves.length); });
  $('undo').addEventListener('click', undo);
  $('pass').addEventListener('click', () => {
    const m = view && view.board.moves.find(isPass);
    if (m) playMove(m.text);
  });
  $('new-game').addEventListener('click', () => newGame(rec.start));
  $('set-start').addEventListener('click', async () => {
    const text = $('start-input').value.trim() || 'start';
    try {
      await api('/state', { start: text, moves: [] });
      newGame(text);
    } catch (e) { message(e.message); }
  });
  $('coords').addEventListener('change', () => { $('coords').dataset.touched = '1'; if (view) drawBoard(); });
  $('copy-position').addEventListener('click', () => {
    navigator.clipboard && navigator.clipboard.writeText(view ? view.position : '').then(
      () => message('position copied', 'info'), () => message('select the position and copy it', 'info'));
  });
  $('share').addEventListener('click', () => {
    writeHash();
    navigator.clipboard && navigator.clipboard.writeText(location.href).then(
      () => message('link copied: it reopens this game', 'info'), () => message(location.href, 'info'));
  });
  $('download').addEventListener('click', () => {
    const blob = new Blob([recordText()], { type: 'text/plain' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = game + '-record.txt';
    document.body.append(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  });
  $('load').addEventListener('change', async ev => {
    const f = ev.target.files[0];
    if (!f) return;
    const r = parseRecord(await f.text());
    ev.target.value = '';
    if (r.game !== game) {
      location.href = '/' + r.game + '#' + new URLSearchParams({ start: r.start, moves: r.moves.join('~') }).toString();
      return;
    }
    try {
      await api('/state', { start: r.start, moves: r.moves });
      stopSearch();
      rec = { start: r.start, moves: r.moves };
      cursor = rec.moves.length;
      paused = true;
      resetClocks();
      message('loaded ' + r.moves.length + ' moves; engines wait until you move', 'info');
      refresh();
    } catch (e) { message('the record cannot be loaded: ' + e.message); }
  });
  $('time-control').addEventListener('change', () => {
    tc.ms = parseInt($('time-control').value, 10) || 0;
    resetClocks();
    writeHash();
    render();
  });
  $('moves-per-side').addEventListener('change', () => {
    const n = parseInt($('moves-per-side').value, 10);
    tc.moves = n > 0 ? n : null;
    writeHash();
  });
  $('analyse').addEventListener('click', () => {
    analysing = !analysing;
    $('analyse').classList.toggle('on', analysing);
    $('analyse').textContent = analysing ? 'Stop' : 'Analyse';
    if (!analysing) {
      if (search && search.purpose === 'analyse') {
        // Ask the server to stop (the socket closes after its last line).
        search.ws.send(JSON.stringify({ type: 'stop' }));
      }
    } else afterChange();
    if (analysing && search && search.purpose === 'play') message('the engine is to move: analysis starts at the next person\'s turn', 'info');
  });
  $('solve').addEventListener('click', async () => {
    const box = $('solve-result');
    box.textContent = 'solving…';
    const started = performance.now();
    const position = view.position;
    const tick = setInterval(() => { box.textContent = 'solving… ' + ((performance.now() - started) / 1000).toFixed(0) + ' s'; }, 500);
    $('solve').disabled = true;
    try {
      const s = await api('/solve', { start: rec.start, moves: rec.moves.slice(0, cursor) });
      if (view.position !== position) return;
      solved = { position, ...s };
      box.replaceChildren();
      const v = document.createElement('div');
      v.innerHTML = '<strong></strong> <span class="muted"></span>';
      v.querySelector('strong').textContent = s.words;
      v.querySelector('span').textContent = '(value ' + s.value + ', ' + ((performance.now() - started) / 1000).toFixed(1) + ' s)';
      const b = document.createElement('div');
      b.className = 'best';
      moveChips(b, 'best:', s.best, 64);
      box.append(v, b);
      if (s.line && s.line.length) {
        const l = document.createElement('div');
        l.className = 'line';
        moveChips(l, 'line:', s.line, 16);
        box.append(l);
      }
      arrows = arrows.filter(a => a.kind !== 'solve');
      for (const t of s.best) {
        const m = view.board.moves.find(x => x.text === t);
        if (m && m.to) arrows.push({ from: m.from, to: m.to, kind: 'solve' });
      }
      drawBoard();
    } catch (e) {
      box.textContent = e.message;
    } finally {
      clearInterval(tick);
      $('solve').disabled = false;
    }
  });
  document.addEventListener('keydown', ev => {
    if (ev.target.closest('input, select, textarea')) return;
    if (ev.key === 'ArrowLeft') goTo(cursor - 1);
    else if (ev.key === 'ArrowRight') goTo(cursor + 1);
    else if (ev.key === 'Home') goTo(0);
    else if (ev.key === 'End') goTo(rec.moves.length);
    else if (ev.key === 'Escape') { selected = null; view && drawBoard(); }
  });
  window.addEventListener('hashchange', () => {
    // A link pasted into this tab: open its game with its seats and clock.
    if (watchKey || location.hash === written) return;
    stopSearch();
    readHash();
    paused = false;
    renderSeats();
    $('start-input').value = rec.start === 'start' ? '' : rec.start;
    refresh();
  });
  main().catch(e => message(e.message));
})();
