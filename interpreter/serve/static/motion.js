// What just happened, shown by moving the pieces: the play page asks for a snapshot of
// where every visible piece is drawn just before it draws a new position, and after
// drawing it, pieces that moved slide from where they were (FLIP: First, Last, Invert,
// Play), pieces that were just turned up flip over, and pieces new to the table fade in.
//
// The contract with play.js: window.TabletopMotion = {before(board) -> snapshot,
// after(board, snapshot, lastMove)}. The snapshot is a plain value the caller holds for
// one drawing; this script keeps no piece, place or position of its own between calls
// (a hot-seat table forgets the last seat's view: nothing of it may stay here), only
// counts of what it animated (`played`), for tests.
"use strict";

(function () {
  const DURATION = 300; // ms: long enough to follow, short enough not to wait for
  const EASE = "cubic-bezier(0.2, 0.8, 0.2, 1)";
  const still = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  // A piece's key: what it is (data-piece) and where (its place), then which of several
  // identical pieces there by order, so that a move of one of three "white pawn" pieces
  // is told from the others staying.
  function pieces(board) {
    const out = [];
    const seen = new Map();
    for (const node of board.querySelectorAll("g.tt-piece[data-piece]")) {
      const placeEl = node.parentElement && node.parentElement.closest("[data-place]");
      const place = placeEl ? placeEl.getAttribute("data-place") : "";
      const code = node.getAttribute("data-piece");
      const base = `${code}\u0000${place}`;
      const n = seen.get(base) || 0;
      seen.set(base, n + 1);
      const box = node.getBoundingClientRect();
      if (!box.width && !box.height) continue; // not drawn (a closed panel, a hidden zone)
      out.push({ key: `${base}\u0000${n}`, code, place, node, box });
    }
    return out;
  }

  // Where every visible piece is on the screen now: {key: {code, place, box}}.
  function before(board) {
    if (!board) return null;
    const snap = new Map();
    for (const p of pieces(board)) snap.set(p.key, { code: p.code, place: p.place, box: p.box });
    return snap;
  }

  const centre = (b) => ({ x: b.left + b.width / 2, y: b.top + b.height / 2 });

  // The screen's pixels in the piece's own drawing units (a zone's picture is scaled to
  // fit the page, and a CSS translate on an SVG group is in the picture's units).
  function unitsPerPixel(node) {
    const svg = node.ownerSVGElement;
    const ctm = node.parentNode && node.parentNode.getScreenCTM && node.parentNode.getScreenCTM();
    if (!svg || !ctm || !ctm.a) return 1;
    return 1 / Math.hypot(ctm.a, ctm.b);
  }

  function slide(node, from, to) {
    const a = centre(from);
    const b = centre(to);
    const k = unitsPerPixel(node);
    const dx = (a.x - b.x) * k;
    const dy = (a.y - b.y) * k;
    if (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5) return null;
    return node.animate([
      { transform: `translate(${dx}px, ${dy}px)` },
      { transform: "translate(0px, 0px)" },
    ], { duration: DURATION, easing: EASE });
  }

  function flip(node) {
    node.classList.add("tt-turning"); // transform-box: the piece's own box, so it turns in place
    const run = node.animate([
      { transform: "scaleX(0)" },
      { transform: "scaleX(1)" },
    ], { duration: DURATION, easing: "ease-out" });
    run.finished.then(() => node.classList.remove("tt-turning"), () => node.classList.remove("tt-turning"));
    return run;
  }

  const fade = (node) => node.animate([{ opacity: 0 }, { opacity: 1 }],
    { duration: DURATION, easing: "ease-in" });

  // The places the last move took pieces from or brought them to ({marks: {place:
  // "to" | "from"}}, as the server's view says it); a piece new to a place it brought
  // pieces to, and like none before, was turned up (a card drawn, revealed).
  function marked(lastMove, wanted) {
    const marks = (lastMove && lastMove.marks) || {};
    return new Set(Object.entries(marks).filter(([, part]) => (part === "from") === (wanted === "from"))
      .map(([name]) => name));
  }

  // Where a piece new to its place came from: the same piece gone from another place,
  // else one like it still in a place the move took from (a pile drawn as one piece).
  function origin(p, left, snapshot, from) {
    for (const [key, old] of left) {
      if (old.code === p.code) { left.delete(key); return old; }
    }
    for (const old of snapshot.values()) {
      if (old.code === p.code && from.has(old.place) && old.place !== p.place) return old;
    }
    return null;
  }

  // Animate what changed since `snapshot`: slide, flip, fade; a no-op without one.
  function after(board, snapshot, lastMove) {
    if (!board || !snapshot || !snapshot.size || still()) return;
    const now = pieces(board);
    const left = new Map(snapshot); // old pieces not yet matched to a new one
    const fresh = [];
    for (const p of now) {
      if (left.has(p.key)) {
        const old = left.get(p.key);
        left.delete(p.key);
        if (count(slide(p.node, old.box, p.box))) played.slid += 1;
      } else {
        fresh.push(p);
      }
    }
    const to = marked(lastMove, "to");
    const away = marked(lastMove, "from");
    let moving = false;
    for (const p of fresh) {
      const from = origin(p, left, snapshot, away);
      if (from) {
        if (count(slide(p.node, from.box, p.box))) { played.slid += 1; moving = true; }
      } else if (to.has(p.place)) {
        count(flip(p.node));
        played.flipped += 1;
      } else {
        count(fade(p.node));
        played.faded += 1;
      }
    }
    // a piece sliding in from another zone's picture is drawn outside its own until it lands
    if (moving) {
      board.classList.add("tt-moving");
      setTimeout(() => board.classList.remove("tt-moving"), DURATION + 50);
    }
  }

  // Counts of what was animated, for tests; never what or where.
  const played = { slid: 0, flipped: 0, faded: 0, runs: 0 };
  function count(animation) {
    if (animation) played.runs += 1;
    return animation;
  }

  // Stop every animation now (the hot seat covers the table: nothing of it stays alive).
  function stop(board) {
    for (const a of document.getAnimations()) {
      const target = a.effect && a.effect.target;
      if (!board || (target && board.contains(target)) || (target && !target.isConnected)) a.cancel();
    }
    if (board) board.classList.remove("tt-moving");
  }

  window.TabletopMotion = Object.freeze({ before, after, stop, played, DURATION });
})();
