/** Keeps the last `capBytes` of a stream: a runaway harness cannot fill memory. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private held = 0;
  total = 0;

  constructor(private readonly capBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.held += chunk.length;
    // Compact only when well over the cap, so pushes stay cheap.
    if (this.held > this.capBytes * 2) this.compact();
  }

  get truncated(): boolean {
    return this.total > this.capBytes;
  }

  text(): string {
    this.compact();
    return Buffer.concat(this.chunks).toString("utf8");
  }

  private compact(): void {
    const all = Buffer.concat(this.chunks);
    const kept = all.length > this.capBytes ? all.subarray(all.length - this.capBytes) : all;
    this.chunks = [Buffer.from(kept)];
    this.held = kept.length;
  }
}
