/**
 * A binary min-heap: `pop()` returns the item with the smallest priority. `compare` orders
 * priorities (default: numbers ascending). Equal priorities pop first in, first out: a job
 * queue must not starve the oldest of several equally urgent jobs.
 */
export class PriorityQueue {
  constructor(compare = (a, b) => a - b) {
    this.compare = compare;
    this.heap = [];
    this.seq = 0;
  }

  get size() {
    return this.heap.length;
  }

  push(value, priority) {
    this.heap.push({ value, priority, seq: this.seq++ });
    this.up(this.heap.length - 1);
  }

  peek() {
    return this.heap[0]?.value;
  }

  pop() {
    if (this.heap.length === 0) return undefined;
    const top = this.heap[0];
    const last = this.heap.pop();
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top.value;
  }

  /** Removes the first item equal (`===`) to `value`; says whether there was one. */
  remove(value) {
    const i = this.heap.findIndex((e) => e.value === value);
    if (i === -1) return false;
    const last = this.heap.pop();
    if (i < this.heap.length) {
      this.heap[i] = last;
      // The moved item may belong above or below its new place; only one of these moves it.
      this.up(i);
      this.down(i);
    }
    return true;
  }

  less(i, j) {
    const a = this.heap[i];
    const b = this.heap[j];
    const c = this.compare(a.priority, b.priority);
    return c < 0 || (c === 0 && a.seq < b.seq);
  }

  swap(i, j) {
    [this.heap[i], this.heap[j]] = [this.heap[j], this.heap[i]];
  }

  up(i) {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  down(i) {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < this.heap.length && this.less(l, min)) min = l;
      if (r < this.heap.length && this.less(r, min)) min = r;
      if (min === i) return;
      this.swap(i, min);
      i = min;
    }
  }
}
