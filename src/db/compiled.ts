import type { Compilable, CompiledQuery } from 'kysely';
import type { Dialect } from './connect.js';
import { dialectOfExecutor } from './dialect.js';
import type { Executor } from './schema.js';

/** A parameter of a query compiled once, given anew at each execution. */
class Slot {
  constructor(readonly index: number) {}
}

interface Compiled<Row> {
  query: CompiledQuery<Row>;
  /** Where each slot's value goes in the parameter list. */
  slots: { position: number; index: number }[];
}

/** `slot(i)` marks the statement's parameter `i`, typed as the value each call gives for it. */
export type Slots<Params extends readonly unknown[]> = <I extends number>(index: I) => Params[I];

/**
 * A statement whose SQL does not change between calls, compiled once per dialect: Kysely would
 * build and compile its whole operation tree on every execution, a large share of reading one event
 * that is not cached, and of the writes of a create (docs/performance-log.md). `build` marks every
 * parameter that may change with `slot(i)`, typed by the annotation of its `slot` parameter
 * (`slot: Slots<[id: number]>`); each call then gives the values of the slots, in that order.
 */
export function compiledOnce<Params extends readonly unknown[], Row>(
  build: (db: Executor, slot: Slots<Params>) => Compilable<Row>,
) {
  const compiled = new Map<Dialect, Compiled<Row>>();
  // The slot stands in for its value only while the statement is compiled; it is replaced at each call.
  const slot = (<I extends number>(index: I) => new Slot(index)) as unknown as Slots<Params>;
  return async (db: Executor, values: Params): Promise<Row[]> => {
    const dialect = dialectOfExecutor(db);
    let entry = compiled.get(dialect);
    if (!entry) {
      const query = build(db, slot).compile();
      const slots = query.parameters.flatMap((value, position) =>
        value instanceof Slot ? [{ position, index: value.index }] : [],
      );
      entry = { query, slots };
      compiled.set(dialect, entry);
    }
    const parameters = [...entry.query.parameters];
    for (const { position, index } of entry.slots) parameters[position] = values[index];
    return (await db.executeQuery<Row>({ ...entry.query, parameters })).rows;
  };
}

/** Slots for `columns`, from slot `first` on, as a record typed like the table's columns. */
export function columnSlots<Columns, Name extends keyof Columns>(
  columns: readonly Name[],
  slot: Slots<readonly unknown[]>,
  first: number,
): Pick<Columns, Name> {
  return Object.fromEntries(columns.map((column, i) => [column, slot(first + i)])) as unknown as Pick<Columns, Name>;
}
