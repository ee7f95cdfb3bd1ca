/**
 * Output kept in memory: a fixed head and a rolling tail, so a server that logs for hours stays
 * small. A command keeps megabytes of each; a card shows a few thousand characters.
 */
export class OutputBuffer {
  head = "";
  tail = "";
  dropped = 0;
  total = 0;
  constructor(
    private readonly headMax: number,
    private readonly tailMax: number,
  ) {}

  append(text: string): void {
    this.total += text.length;
    if (this.dropped === 0 && this.tail === "" && this.head.length + text.length <= this.headMax) {
      this.head += text;
      return;
    }
    if (this.dropped === 0 && this.tail === "") {
      const room = this.headMax - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    this.tail += text;
    // Trim in steps rather than per chunk, so a chatty process does not copy the tail every time.
    if (this.tail.length > this.tailMax * 1.5) {
      const cut = this.tail.length - this.tailMax;
      this.tail = this.tail.slice(cut);
      this.dropped += cut;
    }
  }

  /** Output from character `from` (counted over all output) to the end. */
  since(from: number): string {
    const note = `\n[… ${this.dropped} characters not kept in memory …]\n`;
    if (from < this.head.length) return this.head.slice(from) + (this.dropped > 0 ? note : "") + this.tail;
    const inTail = from - this.head.length - this.dropped;
    return inTail >= 0 ? this.tail.slice(inTail) : note + this.tail;
  }
}
