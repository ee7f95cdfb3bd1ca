export interface Disposable {
  dispose(): void;
}

function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/** Owns disposables so a class can release everything it registered in one call. */
export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.add(item);
    }
    return item;
  }

  get size(): number {
    return this.items.size;
  }

  /** Disposes what was added so far; the store stays usable. */
  clear(): void {
    const errors: unknown[] = [];
    for (const item of this.items) {
      try {
        item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    this.items.clear();
    if (errors.length > 0) throw new AggregateError(errors, "some disposables failed to dispose");
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  dispose(): void {
    this.listeners.clear();
  }
}
