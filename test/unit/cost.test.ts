import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  costNumbers,
  costPrice,
  formatCost,
  parseCostInput,
  type StoredCost,
} from '../../src/modules/events/events.cost.js';

/** What the create route would store for a `cost` parameter (no currency code is inferred). */
function storedFrom(raw: unknown): StoredCost {
  const parsed = parseCostInput(raw);
  assert.ok(parsed, `parseCostInput(${JSON.stringify(raw)}) should accept the input`);
  return { ...parsed, currency_code: '' };
}

function stored(values: string[], currency_symbol = '', currency_position = '', currency_code = ''): StoredCost {
  return { values, currency_symbol, currency_position, currency_code };
}

describe('parseCostInput', () => {
  it('keeps the raw values and infers the currency symbol and position', () => {
    assert.deepEqual(parseCostInput('$10'), { values: ['$10'], currency_symbol: '$', currency_position: 'prefix' });
    assert.deepEqual(parseCostInput('20$'), { values: ['20$'], currency_symbol: '$', currency_position: 'postfix' });
    assert.deepEqual(parseCostInput('$ 2'), { values: ['$ 2'], currency_symbol: '$', currency_position: 'prefix' });
    assert.deepEqual(parseCostInput('2 $'), { values: ['2 $'], currency_symbol: '$', currency_position: 'postfix' });
    assert.deepEqual(parseCostInput('€6.50 - €8.50'), {
      values: ['€6.50 - €8.50'],
      currency_symbol: '€',
      currency_position: 'prefix',
    });
    assert.deepEqual(parseCostInput(['0$', '20$', '30$']), {
      values: ['0$', '20$', '30$'],
      currency_symbol: '$',
      currency_position: 'postfix',
    });
  });

  it('infers nothing when there is no symbol, no number, or inconsistent symbols', () => {
    assert.deepEqual(parseCostInput('10'), { values: ['10'], currency_symbol: '', currency_position: '' });
    assert.deepEqual(parseCostInput(10), { values: ['10'], currency_symbol: '', currency_position: '' });
    assert.deepEqual(parseCostInput('Donation'), { values: ['Donation'], currency_symbol: '', currency_position: '' });
    assert.deepEqual(parseCostInput(['20¥', '30$']), {
      values: ['20¥', '30$'],
      currency_symbol: '',
      currency_position: '',
    });
    assert.equal(parseCostInput(['free', '20¥', '30$'])?.currency_symbol, '');
    assert.equal(parseCostInput(['$10', '20$'])?.currency_symbol, '');
    assert.equal(parseCostInput(['10', '$20'])?.currency_symbol, '');
  });

  it('ignores values without a number and reads a CSV string item by item for the symbol', () => {
    assert.deepEqual(parseCostInput(['free', '20¥']), {
      values: ['free', '20¥'],
      currency_symbol: '¥',
      currency_position: 'postfix',
    });
    // A CSV string is stored as ONE value.
    assert.deepEqual(parseCostInput('free, 20$, 30$'), {
      values: ['free, 20$, 30$'],
      currency_symbol: '$',
      currency_position: 'postfix',
    });
  });

  it('gives no values for empty input', () => {
    assert.deepEqual(parseCostInput(''), { values: [], currency_symbol: '', currency_position: '' });
    assert.deepEqual(parseCostInput('   '), { values: [], currency_symbol: '', currency_position: '' });
    assert.deepEqual(parseCostInput([]), { values: [], currency_symbol: '', currency_position: '' });
  });

  it('accepts numbers in arrays', () => {
    assert.deepEqual(parseCostInput([0, 12, '23']), {
      values: ['0', '12', '23'],
      currency_symbol: '',
      currency_position: '',
    });
  });

  it('rejects anything that is not a string, a number or an array of them', () => {
    assert.equal(parseCostInput({ cost: 10 }), undefined);
    assert.equal(parseCostInput([['10']]), undefined);
    assert.equal(parseCostInput(['10', { a: 1 }]), undefined);
    assert.equal(parseCostInput(true), undefined);
    assert.equal(parseCostInput([false]), undefined);
    assert.equal(parseCostInput(null), undefined);
    assert.equal(parseCostInput(undefined), undefined);
    assert.equal(parseCostInput(Number.NaN), undefined);
  });
});

describe('costNumbers', () => {
  it('normalises separators (PR-19, PR-20)', () => {
    assert.deepEqual(costNumbers(stored(['25.55'])), ['25.55']);
    assert.deepEqual(costNumbers(stored(['25,55'])), ['25.55']);
    assert.deepEqual(costNumbers(stored(['23'])), ['23']);
    assert.deepEqual(costNumbers(stored(['€6.50 - €8.50'])), ['6.5', '8.5']);
    assert.deepEqual(costNumbers(stored(['5,50 7,50'])), ['5.5', '7.5']);
  });

  it('tells thousands separators from decimal separators', () => {
    assert.deepEqual(costNumbers(stored(['1,000'])), ['1000']);
    assert.deepEqual(costNumbers(stored(['$1,000,000'])), ['1000000']);
    assert.deepEqual(costNumbers(stored(['1.000.000'])), ['1000000']);
    assert.deepEqual(costNumbers(stored(['1.000'])), ['1']);
    assert.deepEqual(costNumbers(stored(['1,000.50'])), ['1000.5']);
    assert.deepEqual(costNumbers(stored(['1.000,50'])), ['1000.5']);
    assert.deepEqual(costNumbers(stored(['10.00'])), ['10']);
    assert.deepEqual(costNumbers(stored(['007'])), ['7']);
  });

  it('sorts numerically and removes duplicates (PR-18)', () => {
    assert.deepEqual(costNumbers(stored(['0'])), ['0']);
    assert.deepEqual(costNumbers(stored([])), []);
    assert.deepEqual(costNumbers(stored(['0', '12'])), ['0', '12']);
    assert.deepEqual(costNumbers(stored(['0', '12', '23'])), ['0', '12', '23']);
    assert.deepEqual(costNumbers(stored(['23', '12', '0'])), ['0', '12', '23']);
    assert.deepEqual(costNumbers(stored(['100', '9', '20', '9.5'])), ['9', '9.5', '20', '100']);
    assert.deepEqual(costNumbers(stored(['10', '$10', '10.00'])), ['10']);
  });

  it('finds every number of a CSV value and none in text', () => {
    assert.deepEqual(costNumbers(stored(['free, 20$, 30$'])), ['20', '30']);
    assert.deepEqual(costNumbers(stored(['30,10,20'])), ['10', '20', '30']);
    assert.deepEqual(costNumbers(stored(['Donation'])), []);
  });
});

describe('formatCost', () => {
  it('formats a plain number with the default symbol but shows the stored (empty) currency (live create/update)', () => {
    assert.deepEqual(formatCost(storedFrom('10'), 'Free'), {
      cost: '$10',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['10'] },
    });
    assert.equal(formatCost(storedFrom('15'), 'Free').cost, '$15');
  });

  it('keeps the cost_details key order', () => {
    const { cost_details } = formatCost(stored(['10'], '$', 'prefix', 'USD'), 'Free');
    assert.deepEqual(Object.keys(cost_details), ['currency_symbol', 'currency_code', 'currency_position', 'values']);
    assert.equal(cost_details.currency_code, 'USD');
  });

  it('is empty without a cost', () => {
    const empty = {
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
    };
    assert.deepEqual(formatCost(stored([]), 'Free'), empty);
    assert.deepEqual(formatCost(storedFrom(''), 'Free'), empty);
    assert.deepEqual(formatCost(storedFrom([]), 'Free'), empty);
  });

  it('calls 0 free (API.md §18)', () => {
    assert.deepEqual(formatCost(storedFrom('0'), 'Free'), {
      cost: 'Free',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['0'] },
    });
    assert.equal(formatCost(storedFrom('0.00'), 'Free').cost, 'Free');
    assert.equal(formatCost(storedFrom('$0'), 'Free').cost, 'Free');
  });

  it('uses the translated free label', () => {
    assert.equal(formatCost(storedFrom('0'), 'Gratuit').cost, 'Gratuit');
    assert.equal(formatCost(storedFrom(['0€', '10€']), 'Gratuit').cost, 'Gratuit – 10€');
  });

  it('formats a postfix symbol (CE-19)', () => {
    assert.deepEqual(formatCost(storedFrom('20$'), 'Free'), {
      cost: '20$',
      cost_details: { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['20'] },
    });
  });

  it('formats a range with an en dash (CE-20)', () => {
    assert.deepEqual(formatCost(storedFrom(['0$', '20$', '30$']), 'Free'), {
      cost: 'Free – 30$',
      cost_details: {
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'postfix',
        values: ['0', '20', '30'],
      },
    });
  });

  it('uses min and max of unsorted values', () => {
    const result = formatCost(storedFrom(['30', '5', '12']), 'Free');
    assert.equal(result.cost, '$5 – $30');
    assert.deepEqual(result.cost_details.values, ['5', '12', '30']);
  });

  it('shows the stored symbol and position (SE-05)', () => {
    assert.deepEqual(formatCost(stored(['23'], '$', 'prefix'), 'Free'), {
      cost: '$23',
      cost_details: { currency_symbol: '$', currency_code: '', currency_position: 'prefix', values: ['23'] },
    });
    assert.equal(formatCost(stored(['23'], '€', 'suffix'), 'Free').cost, '23€');
    assert.equal(formatCost(stored(['23'], '€', ''), 'Free').cost, '€23');
  });

  it('shows fractional amounts with two decimals (PR-19, PR-20)', () => {
    assert.equal(formatCost(storedFrom('€6.50 - €8.50'), 'Free').cost, '€6.50 – €8.50');
    assert.equal(formatCost(storedFrom('5,50 7,50'), 'Free').cost, '$5.50 – $7.50');
    assert.equal(formatCost(storedFrom('25,55'), 'Free').cost, '$25.55');
    assert.deepEqual(formatCost(storedFrom('25,55'), 'Free').cost_details.values, ['25.55']);
    assert.equal(formatCost(storedFrom('1,000'), 'Free').cost, '$1000');
  });

  it('keeps non-numeric text', () => {
    assert.deepEqual(formatCost(storedFrom('Donation'), 'Free'), {
      cost: 'Donation',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
    });
    assert.equal(formatCost(stored(['  Donation  ']), 'Free').cost, 'Donation');
    assert.equal(formatCost(storedFrom(['Donation', '10']), 'Free').cost, '$10');
  });
});

describe('costPrice', () => {
  it('is the lowest number', () => {
    assert.equal(costPrice(stored(['10'])), '10');
    assert.equal(costPrice(stored(['30$', '20$'])), '20');
    assert.equal(costPrice(stored(['€6.50 - €8.50'])), '6.5');
    assert.equal(costPrice(stored(['1,000'])), '1000');
  });

  it('is "0" when free', () => {
    assert.equal(costPrice(stored(['0'])), '0');
    assert.equal(costPrice(stored(['0$', '20$', '30$'])), '0');
    assert.equal(costPrice(stored(['Free'])), '0');
  });

  it('is undefined without a number', () => {
    assert.equal(costPrice(stored([])), undefined);
    assert.equal(costPrice(stored(['Donation'])), undefined);
  });
});
