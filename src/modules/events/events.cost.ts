// Event cost: parsing of the `cost` parameter and TEC's formatting of `cost` / `cost_details`
// (reference/tec-api.md §5.7, §5.8 offers.price, §11.1 cost).

/** What is stored for an event's cost. `values` are the raw cost strings as sent (one per array item; a CSV string is ONE value). */
export interface StoredCost {
  values: string[];
  currency_symbol: string;
  currency_position: string;
  currency_code: string;
}

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  values: string[];
}

const DEFAULT_SYMBOL = '$';

/** A number as written: digits, optionally grouped by `,` or `.` (e.g. `1.000,50`). */
const NUMBER_PATTERN = /\d+(?:[.,]\d+)*/g;

/** Commas separating list items in a CSV cost (not the ones between two digits, as in `25,55`). */
const CSV_COMMA = /\s*(?:(?<!\d),|,(?!\d))\s*/;

/** Text around the numbers that is not a currency symbol: whitespace and range dashes. */
const NON_SYMBOL = /[\s\-–—]+/;

/** From the `cost` parameter (string, number, or array of strings/numbers): raw values, plus the currency symbol and position inferred from the text when consistent (e.g. "$10" → "$"/"prefix", "20$" → "$"/"postfix", "€6.50 - €8.50" → "€"/"prefix"; mixed symbols → none: ""). Empty input → values []. Returns undefined when the input is not a string, number or array of them. */
export function parseCostInput(
  raw: unknown,
): { values: string[]; currency_symbol: string; currency_position: string } | undefined {
  const items = Array.isArray(raw) ? raw : [raw];
  if (!items.every(isScalarCost)) return undefined;
  const values = items.map(String).filter((value) => value.trim() !== '');
  // A CSV string is one stored value, but its items count separately for the symbol (TEC: "free, 20$, 30$" → "$").
  const parts = Array.isArray(raw) ? values : values.flatMap((value) => value.split(CSV_COMMA));
  return { values, ...inferCurrency(parts) };
}

function isScalarCost(item: unknown): item is string | number {
  return typeof item === 'string' || (typeof item === 'number' && Number.isFinite(item));
}

/**
 * TEC's `parse_currency_symbol` / `parse_currency_position`: every part holding a number has a symbol
 * (possibly none), and all must agree; parts without a number ("free") are ignored.
 */
function inferCurrency(parts: string[]): { currency_symbol: string; currency_position: string } {
  const none = { currency_symbol: '', currency_position: '' };
  let found: { currency_symbol: string; currency_position: string } | undefined;
  for (const part of parts) {
    const text = part.trim();
    const firstNumber = text.search(/\d/);
    if (firstNumber === -1) continue;
    const tokens = new Set(
      text
        .replace(NUMBER_PATTERN, ' ')
        .split(NON_SYMBOL)
        .filter((token) => token !== ''),
    );
    if (tokens.size > 1) return none;
    const [symbol = ''] = tokens;
    const position = symbol === '' ? '' : text.slice(0, firstNumber).includes(symbol) ? 'prefix' : 'postfix';
    if (found && (found.currency_symbol !== symbol || found.currency_position !== position)) return none;
    found = { currency_symbol: symbol, currency_position: position };
  }
  return found ?? none;
}

/** The numbers found in the stored values, as normalised numeric strings sorted numerically, duplicates removed (e.g. ["0","20","30"], "25,55" → "25.55", "€6.50 - €8.50" → ["6.5","8.5"], "5,50 7,50" → ["5.5","7.5"], "1,000" → "1000", "Donation" → none). */
export function costNumbers(stored: StoredCost): string[] {
  const numbers = stored.values.flatMap((value) => (value.match(NUMBER_PATTERN) ?? []).flatMap(normaliseNumber));
  return [...new Set(numbers)].sort((a, b) => Number(a) - Number(b));
}

/**
 * One written number as canonical decimal strings (usually one; a run like `1,2,3` that is neither
 * thousands-grouped nor a decimal is read as a list).
 */
function normaliseNumber(written: string): string[] {
  const lastComma = written.lastIndexOf(',');
  const lastDot = written.lastIndexOf('.');
  if (lastComma !== -1 && lastDot !== -1) {
    // Both separators: the last one is the decimal separator, the other groups thousands.
    const decimalAt = Math.max(lastComma, lastDot);
    const integer = written.slice(0, decimalAt).replace(/[.,]/g, '');
    return [canonical(integer, written.slice(decimalAt + 1))];
  }
  const separator = lastComma !== -1 ? ',' : lastDot !== -1 ? '.' : undefined;
  if (separator === undefined) return [canonical(written, '')];
  const [head = '', ...groups] = written.split(separator);
  const thousands = groups.every((group) => group.length === 3);
  if (groups.length === 1) {
    // `1,000` groups thousands; `25,55` and `1.000` are decimals.
    return separator === ',' && thousands ? [canonical(head + groups[0], '')] : [canonical(head, groups[0] ?? '')];
  }
  return thousands ? [canonical(head + groups.join(''), '')] : [head, ...groups].map((digits) => canonical(digits, ''));
}

/** Digits without leading zeros in the integer part nor trailing zeros in the fraction: "006" + "50" → "6.5". */
function canonical(integer: string, fraction: string): string {
  const int = integer.replace(/^0+(?=\d)/, '');
  const frac = fraction.replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}

/** The formatted `cost` and the `cost_details` object (key order: currency_symbol, currency_code, currency_position, values) per TEC: min and max of the numbers; a value equal to 0 is `freeLabel`; numeric values are decorated with the symbol (stored one, else default "$") before (position "prefix", or empty position → prefix) or after ("postfix"/"suffix"); min == max → that value, else "{min} – {max}" (en dash with spaces); no numbers but non-numeric text → that text (trimmed, e.g. "Donation"); nothing → "". cost_details shows the STORED symbol/code/position ("" when not stored), and values = costNumbers. Display a number with two decimals when it has a fractional part ("6.50"), as an integer otherwise ("10"). */
export function formatCost(stored: StoredCost, freeLabel: string): { cost: string; cost_details: CostDetails } {
  const numbers = costNumbers(stored);
  const cost_details: CostDetails = {
    currency_symbol: stored.currency_symbol,
    currency_code: stored.currency_code,
    currency_position: stored.currency_position,
    values: numbers,
  };
  if (numbers.length === 0) {
    const text = stored.values.map((value) => value.trim()).find((value) => value !== '') ?? '';
    return { cost: text, cost_details };
  }
  const display = (number: string): string => {
    const amount = Number(number);
    const shown = Number.isInteger(amount) ? number : amount.toFixed(2);
    if (shown === '0' || shown === '0.00') return freeLabel;
    const symbol = stored.currency_symbol || DEFAULT_SYMBOL;
    const before = stored.currency_position === '' || stored.currency_position === 'prefix';
    return before ? symbol + shown : shown + symbol;
  };
  const min = display(numbers[0]);
  const max = display(numbers[numbers.length - 1]);
  return { cost: min === max ? min : `${min} – ${max}`, cost_details };
}

/** JSON-LD `offers.price`: the lowest number as a string ("Free"/0 → "0"), or undefined when there is no number. */
export function costPrice(stored: StoredCost): string | undefined {
  const [lowest] = costNumbers(stored);
  if (lowest !== undefined) return lowest;
  return stored.values.some((value) => value.trim().toLowerCase() === 'free') ? '0' : undefined;
}

/** ISO 4217 codes of the currency symbols a cost is commonly written with (ambiguous ones such as `kr` are left out). */
const SYMBOL_CODES: Readonly<Record<string, string>> = {
  $: 'USD',
  US$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  '₽': 'RUB',
  '₩': 'KRW',
  '₺': 'TRY',
  '₪': 'ILS',
  '₴': 'UAH',
  R$: 'BRL',
  A$: 'AUD',
  C$: 'CAD',
  CHF: 'CHF',
  zł: 'PLN',
  Ft: 'HUF',
  lei: 'RON',
  Kč: 'CZK',
};

/**
 * JSON-LD `offers.priceCurrency`: the stored code, else the one the stored symbol stands for (the
 * default symbol `$` when none), a three-letter symbol being a code itself (`EUR 15`); undefined
 * when the symbol names no single currency (TEC says USD whatever the symbol).
 */
export function costCurrency(stored: StoredCost): string | undefined {
  if (stored.currency_code !== '') return stored.currency_code;
  const symbol = stored.currency_symbol || DEFAULT_SYMBOL;
  return SYMBOL_CODES[symbol] ?? (/^[A-Z]{3}$/.test(symbol) ? symbol : undefined);
}

/** The stored cost columns of an event (its values are kept as a JSON array of the raw strings). */
const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The stored cost values: a JSON array of strings, written by this service only. */
function storedValues(json: string): string[] {
  const values: unknown = JSON.parse(json);
  if (!isStringArray(values)) throw new Error(`stored cost is not a JSON array of strings: ${json}`);
  return values;
}

export function readStoredCost(row: {
  cost: string;
  currency_symbol: string;
  currency_position: string;
  currency_code: string;
}): StoredCost {
  return {
    values: row.cost === '' ? [] : storedValues(row.cost),
    currency_symbol: row.currency_symbol,
    currency_position: row.currency_position,
    currency_code: row.currency_code,
  };
}
