// A three-way merge of lines, for the merge view (views/merge3.ts): what
// the person's text and another writer's have each changed from their
// common base, taken from both where they do not touch, and a conflict
// where they do (changes that touch or abut are a conflict, as in git's
// merge; both sides making the same change is not).

/** base[a0, a1) was replaced by side[b0, b1). */
interface Hunk {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

/** The hunks that turn a into b, in order (Myers' O(ND) diff on lines). */
export function diffLines(a: readonly string[], b: readonly string[]): Hunk[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const n = a.length - pre - suf;
  const m = b.length - pre - suf;
  if (n === 0 && m === 0) return [];
  if (n === 0 || m === 0) return [{ a0: pre, a1: pre + n, b0: pre, b1: pre + m }];
  // Forward Myers, keeping each round's furthest points (the window
  // -d..d of them) to walk back; past maxD rounds the rest is one hunk.
  const maxD = 2000;
  const off = n + m + 1;
  const v = new Int32Array(2 * off + 1);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= n + m && !found; d++) {
    if (d > maxD) return [{ a0: pre, a1: pre + n, b0: pre, b1: pre + m }];
    trace.push(v.slice(off - d - 1, off + d + 2)); // trace[d][k + d + 1] = v[k] before round d
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[pre + x] === b[pre + y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk back through the rounds to the edit script.
  const edits: { x: number; y: number; kind: "del" | "ins" }[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const pv = trace[d];
    const at = (k: number) => pv[k + d + 1];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const pk = down ? k + 1 : k - 1;
    const px = at(pk);
    const py = px - pk;
    while (x > px + (down ? 0 : 1) && y > py + (down ? 1 : 0)) {
      x--;
      y--;
    }
    edits.push({ x: px, y: py, kind: down ? "ins" : "del" });
    x = px;
    y = py;
  }
  edits.reverse();
  // Group consecutive edits into hunks.
  const hunks: Hunk[] = [];
  for (const e of edits) {
    const a0 = pre + e.x;
    const b0 = pre + e.y;
    const last = hunks[hunks.length - 1];
    const h = e.kind === "del" ? { a0, a1: a0 + 1, b0, b1: b0 } : { a0, a1: a0, b0, b1: b0 + 1 };
    if (last && last.a1 === h.a0 && last.b1 === h.b0) {
      last.a1 = h.a1;
      last.b1 = h.b1;
    } else {
      hunks.push(h);
    }
  }
  return hunks;
}

export type Block =
  | { kind: "same"; lines: string[] }
  | { kind: "conflict"; base: string[]; mine: string[]; theirs: string[] };

/** Merges mine and theirs, both made from base, into blocks: lines both
 * agree on (taken from whichever side changed them), and conflicts. */
export function merge3(base: readonly string[], mine: readonly string[], theirs: readonly string[]): Block[] {
  const hm = diffLines(base, mine).map((h) => ({ ...h, side: 0 }));
  const ht = diffLines(base, theirs).map((h) => ({ ...h, side: 1 }));
  const all = [...hm, ...ht].sort((p, q) => p.a0 - q.a0 || p.a1 - q.a1);
  const out: Block[] = [];
  const push = (lines: readonly string[]) => {
    if (!lines.length) return;
    const last = out[out.length - 1];
    if (last?.kind === "same") last.lines.push(...lines);
    else out.push({ kind: "same", lines: [...lines] });
  };
  let at = 0;
  for (let i = 0; i < all.length; ) {
    // A group: hunks that overlap or abut in the base.
    let a0 = all[i].a0;
    let a1 = all[i].a1;
    let j = i + 1;
    while (j < all.length && all[j].a0 <= a1) {
      a1 = Math.max(a1, all[j].a1);
      j++;
    }
    const group = all.slice(i, j);
    i = j;
    push(base.slice(at, a0));
    const sides = [mine, theirs];
    const hunks = [hm, ht];
    const take = (s: number) => {
      const hs = hunks[s].filter((h) => h.a0 >= a0 && h.a1 <= a1);
      if (!hs.length) return base.slice(a0, a1);
      const b0 = hs[0].b0 - (hs[0].a0 - a0);
      const b1 = hs[hs.length - 1].b1 + (a1 - hs[hs.length - 1].a1);
      return sides[s].slice(b0, b1);
    };
    const mineLines = take(0);
    const theirsLines = take(1);
    if (group.every((h) => h.side === 0)) push(mineLines);
    else if (group.every((h) => h.side === 1)) push(theirsLines);
    else if (mineLines.length === theirsLines.length && mineLines.every((l, k) => l === theirsLines[k])) push(mineLines);
    else out.push({ kind: "conflict", base: base.slice(a0, a1), mine: mineLines, theirs: theirsLines });
    at = a1;
  }
  push(base.slice(at));
  return out;
}
