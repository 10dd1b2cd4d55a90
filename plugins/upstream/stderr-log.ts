/**
 * The last lines a stdio server wrote to its stderr, for status and for the reason given when
 * it fails to start. Bounded in lines and in line length: a server that floods stderr costs
 * nothing beyond that.
 */
export class StderrLog {
  readonly #lines: string[] = [];
  readonly #max: number;
  readonly #onLine: (line: string) => void;
  #partial = '';

  /** `onLine` sees every complete line (the gateway log, at debug level). */
  constructor(maxLines: number, onLine: (line: string) => void = () => {}) {
    this.#max = maxLines;
    this.#onLine = onLine;
  }

  append(chunk: Buffer | string): void {
    const text = this.#partial + chunk.toString();
    const lines = text.split('\n');
    this.#partial = lines.pop()!.slice(0, MAX_LINE);
    for (const line of lines) this.#push(line);
  }

  #push(line: string): void {
    const trimmed = line.replace(/\r$/, '');
    if (trimmed === '') return;
    this.#onLine(trimmed);
    this.#lines.push(trimmed.length > MAX_LINE ? `${trimmed.slice(0, MAX_LINE)}…` : trimmed);
    if (this.#lines.length > this.#max) this.#lines.splice(0, this.#lines.length - this.#max);
  }

  /** Forgets the lines so far: a new process of the server starts, and its stderr is its own. */
  clear(): void {
    this.#lines.length = 0;
    this.#partial = '';
  }

  /** The last `n` lines, oldest first (a line still being written included). */
  tail(n: number): string[] {
    const all = this.#partial ? [...this.#lines, this.#partial] : this.#lines;
    return all.slice(-n);
  }
}

const MAX_LINE = 1000;
