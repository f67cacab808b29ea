// The expression language of SidecarSet `resourcesPolicy` (OpenKruise pkg/util/calculator): + - * /,
// parentheses, unary minus, max(a, b) and min(a, b), numbers ("0.5", "50%", "1e2"), Kubernetes
// quantities ("50m", "512Mi") and the variables `cpu` / `memory`. A number and a quantity combine
// as milli-quantities, as OpenKruise's does, truncating where it truncates; its error texts, including
// which error wins when several occur (the last one recorded), are kept. Pure.
import { formatQuantity, parseQuantity, QUANTITY_FORMAT_ERROR, compareQuantities, type Quantity } from '../kube/quantity.js';
import { addQuantities, milliQuantity, milliValue, negateQuantity, quantitySign, truncToBigInt } from './quantity-math.js';

export type CalcValue = { quantity: Quantity } | { number: number };
export type CalcResult = { value: CalcValue } | { error: string };

type TokenKind = 'NUMBER' | 'QUANTITY' | 'IDENT' | 'EOF' | 'CHAR';
type Token = { kind: TokenKind; text: string; line: number; col: number };

const VALID_UNITS: ReadonlySet<string> = new Set(['m', 'k', 'M', 'G', 'T', 'P', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi']);
const isDigit = (b: number) => b >= 0x30 && b <= 0x39;
// Go reads the input byte by byte, each byte as a Latin-1 rune.
const isLetter = (b: number) => b !== 0 && /\p{L}/u.test(String.fromCharCode(b));
const isSpace = (b: number) => (b >= 0x09 && b <= 0x0d) || b === 0x20 || b === 0x85 || b === 0xa0;

/** The calculator's lexer (lexer.go), over the UTF-8 bytes of the input. */
class Lexer {
  private pos = 0;
  private line = 1;
  private col = 1;
  constructor(private readonly bytes: Uint8Array) {}

  private peekByte(): number {
    return this.pos < this.bytes.length ? this.bytes[this.pos]! : 0;
  }
  private next(): number {
    if (this.pos >= this.bytes.length) return 0;
    const b = this.bytes[this.pos++]!;
    if (b === 0x0a) {
      this.line++;
      this.col = 1;
    } else this.col++;
    return b;
  }
  private text(start: number): string {
    return String.fromCharCode(...this.bytes.subarray(start, this.pos));
  }

  private readNumber(): string {
    const start = this.pos;
    let seenDot = false;
    let seenE = false;
    let seenPercent = false;
    let expectExponentDigit = false;
    for (;;) {
      const r = this.peekByte();
      if (r === 0) break;
      if (isDigit(r)) {
        expectExponentDigit = false;
        this.next();
        continue;
      }
      const c = String.fromCharCode(r);
      if (c === '.') {
        if (seenDot || seenE || seenPercent) break;
        seenDot = true;
      } else if (c === 'e' || c === 'E') {
        if (seenE || seenPercent) break;
        seenE = true;
        expectExponentDigit = true;
      } else if (c === '+' || c === '-') {
        if (!expectExponentDigit) break;
        expectExponentDigit = false;
      } else if (c === '%') {
        if (seenPercent) break;
        seenPercent = true;
      } else if (isLetter(r)) {
        if (!expectExponentDigit) while (isLetter(this.peekByte())) this.next();
        break;
      } else break;
      this.next();
    }
    return this.text(start);
  }

  private readIdentifier(): string {
    const start = this.pos;
    for (let r = this.peekByte(); r !== 0 && (isLetter(r) || isDigit(r) || r === 0x5f); r = this.peekByte()) this.next();
    return this.text(start);
  }

  private numberToken(): Token {
    this.pos--;
    this.col--;
    const text = this.readNumber();
    return this.token(isQuantityText(text) ? 'QUANTITY' : 'NUMBER', text);
  }

  private token(kind: TokenKind, text: string): Token {
    return { kind, text, line: this.line, col: this.col };
  }

  lex(): Token {
    while (this.peekByte() !== 0 && isSpace(this.peekByte())) this.next();
    const r = this.next();
    if (r === 0) return this.token('EOF', '');
    if (r === 0x2e || isDigit(r)) return this.numberToken();
    if (isLetter(r)) {
      this.pos--;
      this.col--;
      return this.token('IDENT', this.readIdentifier());
    }
    return this.token('CHAR', String.fromCharCode(r));
  }
}

/** isQuantity: a numeric part followed by one of the supported units. */
function isQuantityText(s: string): boolean {
  const numEnd = [...s].findIndex((c) => !/[0-9.eE+-]/.test(c));
  return numEnd > 0 && VALID_UNITS.has(s.slice(numEnd));
}

/** parseNumber: strconv.ParseFloat, a trailing % divides by 100; unparsable text reads as 0, as in Go. */
function parseNumber(text: string): number {
  const percent = text.endsWith('%');
  const body = percent ? text.slice(0, -1) : text;
  const n = /^[0-9.eE+-]*$/.test(body) && body !== '' ? Number(body) : NaN;
  const value = Number.isNaN(n) ? 0 : n;
  return percent ? value / 100 : value;
}

/** Go's %g for a float64: the shortest digits, in exponent form below 1e-4 and from 1e6 on. */
export function goFloatG(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}

export function formatCalcValue(v: CalcValue): string {
  return 'quantity' in v ? formatQuantity(v.quantity) : goFloatG(v.number);
}

const numberAsQuantity = (n: number): Quantity => milliQuantity(truncToBigInt(n * 1000));
const asQuantity = (v: CalcValue): Quantity => ('quantity' in v ? v.quantity : numberAsQuantity(v.number));
const scaled = (q: Quantity, f: (milli: number) => number): Quantity => milliQuantity(truncToBigInt(f(Number(milliValue(q)))), q.format);

class SyntaxError_ extends Error {}

/** The parser and its semantic actions, run as the grammar's reductions would run them. */
class Evaluator {
  private look: Token | undefined;
  lastError: string | undefined;
  constructor(private readonly lexer: Lexer, private readonly variables: Readonly<Record<string, CalcValue>>) {}

  private peek(): Token {
    return (this.look ??= this.lexer.lex());
  }
  private take(): Token {
    const t = this.peek();
    this.look = undefined;
    return t;
  }
  private isChar(c: string): boolean {
    const t = this.peek();
    return t.kind === 'CHAR' && t.text === c;
  }
  private expectChar(c: string): void {
    if (!this.isChar(c)) throw new SyntaxError_();
    this.take();
  }
  /** A rule's result; a failed operation that recorded no error records the rule's generic one. */
  private orError(v: CalcValue | null, message: string): CalcValue | null {
    if (v === null && this.lastError === undefined) this.lastError = message;
    return v;
  }

  parseInput(): CalcValue | null {
    const v = this.expr();
    if (this.peek().kind !== 'EOF') throw new SyntaxError_();
    return v;
  }

  syntaxError(): string {
    const t = this.peek();
    return `parse error: syntax error at line ${t.line}, col ${t.col}`;
  }

  private expr(): CalcValue | null {
    let left = this.term();
    while (this.isChar('+') || this.isChar('-')) {
      const op = this.take().text;
      const right = this.term();
      left = op === '+' ? this.orError(this.add(left, right), 'invalid addition operation') : this.orError(this.sub(left, right), 'invalid subtraction operation');
    }
    return left;
  }

  private term(): CalcValue | null {
    let left = this.factor();
    while (this.isChar('*') || this.isChar('/')) {
      const op = this.take().text;
      const right = this.factor();
      left = op === '*' ? this.orError(this.mul(left, right), 'invalid multiplication operation') : this.orError(this.div(left, right), 'invalid division operation');
    }
    return left;
  }

  private factor(): CalcValue | null {
    const t = this.take();
    switch (t.kind) {
      case 'NUMBER':
        return { number: parseNumber(t.text) };
      case 'QUANTITY': {
        const q = parseQuantity(t.text);
        if (q) return { quantity: q };
        this.lastError = QUANTITY_FORMAT_ERROR;
        return null;
      }
      case 'IDENT':
        return this.isChar('(') ? this.call(t.text) : this.variable(t.text);
      case 'CHAR':
        if (t.text === '(') {
          const v = this.expr();
          this.expectChar(')');
          return v;
        }
        if (t.text === '-') {
          const v = this.factor();
          if (v === null) return null;
          return 'quantity' in v ? { quantity: negateQuantity(v.quantity) } : { number: -v.number };
        }
        throw new SyntaxError_();
      default:
        throw new SyntaxError_();
    }
  }

  private variable(name: string): CalcValue | null {
    const lower = name.toLowerCase();
    const v = this.variables[lower];
    if (v === undefined) {
      this.lastError = `undefined variable: ${lower}`;
      return null;
    }
    return v;
  }

  private call(name: string): CalcValue | null {
    this.expectChar('(');
    const args = [this.expr()];
    if (this.isChar(',')) {
      this.take();
      args.push(this.expr());
    }
    this.expectChar(')');
    return this.orError(this.callFunc(name, args), 'function call failed');
  }

  private callFunc(name: string, args: (CalcValue | null)[]): CalcValue | null {
    const fn = name.toLowerCase();
    if (fn !== 'max' && fn !== 'min') {
      this.lastError = `unknown function: ${name}`;
      return null;
    }
    if (args.length !== 2) {
      this.lastError = `${fn} function requires exactly 2 arguments, got ${args.length}`;
      return null;
    }
    const [left, right] = args as [CalcValue | null, CalcValue | null];
    if (left === null || right === null) return null;
    const pickLeft = (cmp: number) => (fn === 'max' ? cmp >= 0 : cmp <= 0);
    if ('number' in left && 'number' in right) return pickLeft(Math.sign(left.number - right.number) || 0) ? left : right;
    const l = asQuantity(left);
    const r = asQuantity(right);
    return pickLeft(compareQuantities(l, r)) ? { quantity: l } : { quantity: r };
  }

  private add(l: CalcValue | null, r: CalcValue | null): CalcValue | null {
    if (l === null || r === null) return null;
    if ('number' in l && 'number' in r) return { number: l.number + r.number };
    return { quantity: addQuantities(asQuantity(l), asQuantity(r)) };
  }

  private sub(l: CalcValue | null, r: CalcValue | null): CalcValue | null {
    if (l === null || r === null) return null;
    if ('number' in l && 'number' in r) return { number: l.number - r.number };
    return { quantity: addQuantities(asQuantity(l), negateQuantity(asQuantity(r))) };
  }

  private mul(l: CalcValue | null, r: CalcValue | null): CalcValue | null {
    if (l === null || r === null) return null;
    if ('quantity' in l && 'quantity' in r) {
      this.lastError = 'multiplication of two quantities';
      return null;
    }
    if ('quantity' in l && 'number' in r) return { quantity: scaled(l.quantity, (m) => m * r.number) };
    if ('number' in l && 'quantity' in r) return { quantity: scaled(r.quantity, (m) => m * l.number) };
    return { number: (l as { number: number }).number * (r as { number: number }).number };
  }

  private div(l: CalcValue | null, r: CalcValue | null): CalcValue | null {
    if (l === null || r === null) return null;
    if ('quantity' in r) {
      this.lastError = 'division by quantity';
      return null;
    }
    if (r.number === 0) {
      this.lastError = 'division by zero';
      return null;
    }
    if ('quantity' in l) return { quantity: scaled(l.quantity, (m) => m / r.number) };
    return { number: l.number / r.number };
  }
}

/** Calculator.Parse: the value of `input` with `variables` bound (names in lower case), or the error. */
export function evaluateExpression(input: string, variables: Readonly<Record<string, CalcValue>>): CalcResult {
  const evaluator = new Evaluator(new Lexer(new TextEncoder().encode(input)), variables);
  let value: CalcValue | null;
  try {
    value = evaluator.parseInput();
  } catch (e) {
    // Go's parser stack grows without bound; ours is the call stack, so say so rather than crash.
    if (e instanceof RangeError) return { error: 'expression nested too deeply' };
    if (!(e instanceof SyntaxError_)) throw e;
    return { error: evaluator.lastError ?? evaluator.syntaxError() };
  }
  if (value === null) return { error: evaluator.lastError ?? 'no result from parser' };
  const negative = 'quantity' in value ? quantitySign(value.quantity) < 0 : value.number < 0;
  if (negative) return { error: `calculation result is negative: ${formatCalcValue(value)}` };
  return { value };
}
