// CSV cells as every file of a run folder writes and reads them (RFC 4180 quoting, no other escaping).

/** Quotes a CSV cell when it needs it (RFC 4180). */
export function csvCell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Splits one CSV line into cells (handles quoted cells). */
function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** A whole CSV file: the header, one line a row, a trailing newline. */
export function csvFile(header: string, lines: readonly string[]): string {
  return `${[header, ...lines].join('\n')}\n`;
}

/** The data lines of a CSV file split into cells; null when the first line is not exactly `header`. */
export function csvBody(text: string, header: string): string[][] | null {
  const lines = text.split('\n').filter((l) => l.length > 0);
  if (lines.length === 0 || lines[0] !== header) return null;
  return lines.slice(1).map(splitCsvLine);
}
