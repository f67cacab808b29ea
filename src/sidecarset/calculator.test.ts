import { describe, expect, it } from 'vitest';
import { parseQuantity } from '../kube/quantity.js';
import { evaluateExpression, formatCalcValue, goFloatG, type CalcValue } from './calculator.js';

const q = (s: string): CalcValue => ({ quantity: parseQuantity(s)! });
const evalText = (expr: string, vars: Record<string, CalcValue> = {}) => {
  const r = evaluateExpression(expr, vars);
  return 'error' in r ? { error: r.error } : formatCalcValue(r.value);
};

// The vectors of OpenKruise's pkg/util/calculator/calculator_test.go.
describe('resourcesPolicy expressions (OpenKruise calculator test vectors)', () => {
  it.each([
    ['2 + 3', '5'], ['10 - 4', '6'], ['3 * 4', '12'], ['15 / 3', '5'], ['(2 + 3) * 4', '20'],
    ['50%', '0.5'], ['100% * 2', '2'], ['max(10, 20)', '20'], ['min(10, 20)', '10'], ['1e2', '100'], ['1E2', '100'],
    ['min(max(max(max(0.5,0.5*0.5),0.5-1.0),0.5-1.0),3.0)', '0.5'],
    ['40m + 20m', '60m'], ['100Mi - 50Mi', '50Mi'], ['2 * 40m', '80m'], ['100m / 2', '50m'], ['100m', '100m'],
    ['max(40m, 20)', '20'], ['min(40m, 20m)', '20m'], ['min(max(max(max(500m,0.5*0.5),0.5-1.0),0.5-1.0),3.0)', '500m'],
    ['20 - 10', '10'], ['10 - 10', '0'],
  ])('%s = %s', (expr, want) => {
    expect(evalText(expr)).toBe(want);
  });

  it.each([
    ['cpu', '100m', '100m'], ['cpu * 2', '50m', '100m'], ['max(cpu, 200m)', '100m', '200m'],
    ['min(max(max(max(0.5,0.5*cpu),cpu-1.0),cpu-1.0),3.0)', '0.5', '500m'], ['max(0.25, cpu)', '100m', '250m'],
    ['max(cpu, 0.75)', '500m', '750m'], ['min(0.8, cpu)', '1.0', '800m'], ['min(cpu, 1.5)', '2.0', '1500m'],
    ['max(min(2*cpu,-cpu+3.0),2*cpu-3.0)', '1.5', '1500m'], ['max(min(2*cpu,3.0-cpu),2*cpu-3.0)', '1.5', '1500m'],
  ])('%s with cpu=%s is %s', (expr, cpu, want) => {
    expect(evalText(expr, { cpu: q(cpu) })).toBe(want);
  });

  it('memory variables keep their binary form', () => {
    expect(evalText('memory + 100Mi', { memory: q('200Mi') })).toBe('300Mi');
    expect(evalText('0.5 * memory + max(0, memory-2Gi)', { memory: q('8Gi') })).toBe('10Gi');
    expect(evalText('memory*30%', { memory: q('600Mi') })).toBe('180Mi');
  });

  it.each([
    ['10 / 0', 'division by zero'],
    ['40m * 2m', 'multiplication of two quantities'],
    ['2 / 40m', 'division by quantity'],
    ['unknown(1, 2)', 'unknown function: unknown'],
    ['max(1)', 'max function requires exactly 2 arguments, got 1'],
    ['undefined_var', 'undefined variable: undefined_var'],
    ['-10', 'calculation result is negative: -10'],
    ['-100m', 'calculation result is negative: -100m'],
    ['50m - 100m', 'calculation result is negative: -50m'],
    ['5..5', 'parse error: syntax error at line 1, col 5'],
    ['5%%', 'parse error: syntax error at line 1, col 4'],
    ['cpu +', 'parse error: syntax error at line 1, col 6'],
    // A semantic error recorded before the syntax error wins, as in OpenKruise.
    ['foo +', 'undefined variable: foo'],
    // The last error recorded wins.
    ['a + b', 'undefined variable: b'],
    ['1e3Mi', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ])('%s fails: %s', (expr, error) => {
    expect(evalText(expr, { cpu: { number: 1 } })).toEqual({ error });
  });

  it('an absurdly nested expression is an error, not a crash', () => {
    expect(evalText(`${'('.repeat(100_000)}1${')'.repeat(100_000)}`)).toEqual({ error: 'expression nested too deeply' });
  });

  it('numbers OpenKruise cannot read count as 0, as Go ignores the parse error', () => {
    expect(evalText('2x + 1')).toBe('1');
  });

  it('formats floats as Go’s %g', () => {
    expect([1e6, 123456, 0.5, 1e-5, -2.5e-7, 1.5e21].map(goFloatG)).toEqual(['1e+06', '123456', '0.5', '1e-05', '-2.5e-07', '1.5e+21']);
  });
});
