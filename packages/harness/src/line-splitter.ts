/** Longest line handed to a meter; longer ones (a huge tool result) are skipped whole. */
const MAX_LINE_BYTES = 8 * 1024 * 1024;

/** Splits a byte stream into lines for JSONL parsing, without unbounded buffering. */
export class LineSplitter {
  private pending = "";
  private skipping = false;

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer): void {
    const parts = (this.pending + chunk.toString("utf8")).split("\n");
    this.pending = parts.pop() ?? "";
    for (const part of parts) {
      if (this.skipping) this.skipping = false;
      else this.emit(part);
    }
    if (this.pending.length > MAX_LINE_BYTES) {
      this.pending = "";
      this.skipping = true;
    }
  }

  end(): void {
    if (!this.skipping && this.pending !== "") this.emit(this.pending);
    this.pending = "";
  }

  private emit(line: string): void {
    const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (trimmed.trim() !== "") this.onLine(trimmed);
  }
}
