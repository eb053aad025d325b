/**
 * A binary min-heap: `pop()` returns the item with the smallest priority. `compare` orders
 * priorities (default: numbers ascending).
 */
export class PriorityQueue {
  constructor(compare = (a, b) => a - b) {
    this.compare = compare;
    this.heap = [];
  }

  get size() {
    return this.heap.length;
  }

  push(value, priority) {
    this.heap.push({ value, priority });
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

  less(i, j) {
    return this.compare(this.heap[i].priority, this.heap[j].priority) < 0;
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
