import type { ToolUseBlock } from "../toolcall/types";

/** Stops a model that keeps making the very same call. */
export class RepetitionGuard {
  private last = "";
  private count = 0;

  constructor(private readonly limit = 3) {}

  /** Returns an explanation when this call is one repeat too many. */
  check(block: ToolUseBlock): string | undefined {
    const key = `${block.name}\u0000${JSON.stringify(Object.entries(block.params).sort(([a], [b]) => a.localeCompare(b)))}`;
    this.count = key === this.last ? this.count + 1 : 1;
    this.last = key;
    if (this.count < this.limit) return undefined;
    return `${block.name} was called ${this.count} times in a row with the same parameters. Kiln stopped it; try a different approach.`;
  }

  reset(): void {
    this.last = "";
    this.count = 0;
  }
}
