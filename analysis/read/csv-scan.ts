// A forward-only scanner over a CSV file of plain fields (no quotes), fast enough for 200 000-line raw
// files: numbers are read in place, without splitting lines or slicing cells.

import { RawFileError } from '../errors.ts';

const COMMA = 44;
const LF = 10;
const CR = 13;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
/** Digits a double holds exactly; longer numbers go through Number(). */
const MAX_FAST_DIGITS = 15;

/** Reads a raw CSV file field by field, line by line; every error names the file and the line. */
export class CsvScanner {
  private pos = 0;
  /** Fields read on the current line, and whether the last one ended with a comma. */
  private field = 0;
  private sawComma = false;
  /** 1-based line number of the line being read. */
  line = 1;

  constructor(
    readonly text: string,
    readonly path: string,
  ) {}

  /**
   * Checks the header line is exactly `header` (or one of the `older` headers an earlier version wrote)
   * and moves to the first record; returns the header found.
   */
  header(header: string, older: readonly string[] = []): string {
    const end = this.lineEnd(0);
    const first = this.text.slice(0, end).replace(/\r$/, '');
    if (first !== header && !older.includes(first)) {
      throw new RawFileError(
        `${this.path}: the header is "${first}" but must be exactly "${header}"; the file was not written by this hedgebench version`,
      );
    }
    this.pos = end + 1;
    this.line = 2;
    return first;
  }

  /** Number of records after the header (lines, not counting a trailing empty one). */
  countRecords(): number {
    let n = 0;
    let i = this.pos;
    const t = this.text;
    while (i < t.length) {
      const e = this.lineEnd(i);
      if (e > i && !(e === i + 1 && t.charCodeAt(i) === CR)) n++;
      i = e + 1;
    }
    return n;
  }

  private lineEnd(from: number): number {
    const e = this.text.indexOf('\n', from);
    return e < 0 ? this.text.length : e;
  }

  private fieldEnd(from: number): number {
    const t = this.text;
    let i = from;
    for (
      let c = t.charCodeAt(i);
      i < t.length && c !== COMMA && c !== LF && c !== CR;
      c = t.charCodeAt(++i)
    ) {}
    return i;
  }

  /** Moves past the delimiter after a field ending at `end`; a line end is left for `endRecord`. */
  private step(end: number): void {
    this.sawComma = this.text.charCodeAt(end) === COMMA;
    this.pos = this.sawComma ? end + 1 : end;
  }

  /** Before each field: the line must not have ended yet. */
  private begin(fields: number): void {
    if (this.field > 0 && !this.sawComma) throw this.error(`has ${this.field} fields, expected ${fields}`);
    this.field++;
  }

  /** The next of `fields` fields as a number; NaN when empty. Plain decimals parse in place, others via Number(). */
  num(fields: number): number {
    this.begin(fields);
    const t = this.text;
    let i = this.pos;
    let neg = false;
    if (t.charCodeAt(i) === MINUS) {
      neg = true;
      i++;
    }
    let v = 0;
    let digits = 0;
    let scale = 1;
    let c = t.charCodeAt(i);
    while (c >= ZERO && c <= NINE) {
      v = v * 10 + (c - ZERO);
      digits++;
      c = t.charCodeAt(++i);
    }
    if (c === DOT) {
      c = t.charCodeAt(++i);
      while (c >= ZERO && c <= NINE) {
        v = v * 10 + (c - ZERO);
        scale *= 10;
        digits++;
        c = t.charCodeAt(++i);
      }
    }
    const atEnd = i >= t.length || c === COMMA || c === LF || c === CR;
    if (atEnd && digits > 0 && digits <= MAX_FAST_DIGITS) {
      this.step(i);
      // An exact integer divided by an exact power of ten: the same double Number() gives.
      const x = v / scale;
      return neg ? -x : x;
    }
    const end = this.fieldEnd(this.pos);
    const cell = t.slice(this.pos, end);
    this.step(end);
    if (cell === '') return Number.NaN;
    const x = Number(cell);
    if (Number.isNaN(x)) throw this.error(`"${cell}" is not a number`);
    return x;
  }

  /** The next of `fields` fields as text; one of `known` comes back as that constant (no string per line). */
  str<T extends string>(fields: number, known: readonly T[]): T | string {
    this.begin(fields);
    const end = this.fieldEnd(this.pos);
    const len = end - this.pos;
    for (const k of known) {
      if (k.length === len && this.text.startsWith(k, this.pos)) {
        this.step(end);
        return k;
      }
    }
    const cell = this.text.slice(this.pos, end);
    this.step(end);
    return cell;
  }

  /** Ends a record of `fields` fields: the line must end here. */
  endRecord(fields: number): void {
    if (this.sawComma || this.field !== fields) {
      throw this.error(`has ${this.sawComma ? 'more than ' : ''}${this.field} fields, expected ${fields}`);
    }
    const t = this.text;
    let i = this.pos;
    if (t.charCodeAt(i) === CR) i++;
    this.pos = i + 1;
    this.line++;
    this.field = 0;
    this.sawComma = false;
  }

  /** An error about the current line, naming the file and the line. */
  error(what: string): RawFileError {
    const start = this.text.lastIndexOf('\n', Math.max(0, this.pos - 1)) + 1;
    const text = this.text.slice(start, this.lineEnd(start)).replace(/\r$/, '');
    return new RawFileError(`${this.path} line ${this.line}: "${text}" ${what}`);
  }
}
