import { html, type Html } from '../site/html.js';

export interface Option {
  readonly value: string;
  readonly label: string;
}

/** One form control, named by its API parameter (API.md §23.2). */
export type Field =
  | {
      kind: 'text' | 'url' | 'email' | 'date' | 'datetime' | 'textarea';
      name: string;
      label: string;
      required?: boolean;
      hint?: string;
    }
  | { kind: 'checkbox'; name: string; label: string }
  | { kind: 'select' | 'multiselect'; name: string; label: string; options: readonly Option[]; lookup?: string }
  | { kind: 'checkboxes'; name: string; label: string; options: readonly Option[] };

/** `data-lookup`: the editor's script (public/editor.js) adds a search box over the choices, read from /admin/lookup/. */
const lookupOf = (field: { lookup?: string }) => (field.lookup ? html` data-lookup="${field.lookup}"` : '');

const hintOf = (field: { hint?: string }) => (field.hint ? html`<p class="hint">${field.hint}</p>` : '');

/** What the form shows: the values entered (or stored), and the API's message per field. */
export interface FormState {
  readonly values: Readonly<Record<string, unknown>>;
  readonly errors: ReadonlyMap<string, string>;
}

const asText = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

const asList = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(asText) : typeof value === 'string' && value !== '' ? value.split(',') : [];

const truthy = (value: unknown) => value === true || value === '1' || value === 'on' || value === 'true';

/** A field with its label, its control and, when the API refused it, the message linked by aria-describedby. */
export function renderField(field: Field, state: FormState): Html {
  const id = `field-${field.name}`;
  const error = state.errors.get(field.name);
  const errorId = `${id}-error`;
  const described = error ? errorId : undefined;
  const value = state.values[field.name];
  const message = error ? html`<p class="field-error" id="${errorId}">${error}</p>` : '';
  const invalid = error ? html` aria-invalid="true" aria-describedby="${described}"` : '';
  switch (field.kind) {
    case 'checkbox':
      return html`<div class="form-row form-check">
        <input
          type="checkbox"
          id="${id}"
          name="${field.name}"
          value="1"
          ${truthy(value) ? html` checked` : ''}${invalid}
       ><label for="${id}">${field.label}</label>${message}
      </div>`;
    case 'select':
      return html`<div class="form-row">
        <label for="${id}">${field.label}</label
        ><select id="${id}" name="${field.name}"${lookupOf(field)} ${invalid}>
          ${field.options.map(
            (option) =>
              html`<option value="${option.value}" ${option.value === asText(value) ? html` selected` : ''}>
                ${option.label}
              </option>`,
          )}</select
        >${message}
      </div>`;
    case 'multiselect': {
      const chosen = new Set(asList(value));
      return html`<div class="form-row">
        <label for="${id}">${field.label}</label
        ><select
          id="${id}"
          name="${field.name}[]"${lookupOf(field)}
          multiple
          size="${Math.min(6, Math.max(2, field.options.length))}"
          ${invalid}
        >
          ${field.options.map(
            (option) =>
              html`<option value="${option.value}" ${chosen.has(option.value) ? html` selected` : ''}>
                ${option.label}
              </option>`,
          )}</select
        >${message}
      </div>`;
    }
    case 'checkboxes': {
      const chosen = new Set(asList(value));
      return html`<fieldset class="form-row checkboxes wide" ${invalid}>
        <legend>${field.label}</legend>
        ${field.options.map(
          (option, i) =>
            html`<span class="check"
              ><input
                type="checkbox"
                id="${id}-${i}"
                name="${field.name}[]"
                value="${option.value}"
                ${chosen.has(option.value) ? html` checked` : ''}
             ><label for="${id}-${i}">${option.label}</label></span
            >`,
        )}${field.options.length === 0 ? html`<span class="hint">—</span>` : ''}${message}
      </fieldset>`;
    }
    case 'textarea':
      return html`<div class="form-row wide">
        <label for="${id}">${field.label}</label
        ><textarea id="${id}" name="${field.name}" rows="4" ${invalid}>${asText(value)}</textarea>${hintOf(field)}${message}
      </div>`;
    default: {
      const type = field.kind === 'datetime' ? 'datetime-local' : field.kind;
      return html`<div class="form-row${field.required && field.kind !== 'datetime' ? ' wide' : ''}">
        <label for="${id}">${field.label}${field.required ? ' *' : ''}</label
        ><input
          type="${type}"
          id="${id}"
          name="${field.name}"
          value="${asText(value)}"
          ${field.required ? html` required` : ''}${invalid}
       >${hintOf(field)}${message}
      </div>`;
    }
  }
}

/**
 * The API body of a submitted form: text as entered (datetime-local values as the API's
 * `YYYY-MM-DD HH:MM`), checkboxes as booleans (an unchecked box is false), lists as arrays.
 */
export function bodyOf(fields: readonly Field[], form: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = form[field.name];
    switch (field.kind) {
      case 'checkbox':
        body[field.name] = truthy(value);
        break;
      case 'checkboxes':
      case 'multiselect':
        body[field.name] = asList(value);
        break;
      case 'datetime': {
        const text = asText(value);
        body[field.name] = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text) ? text.replace('T', ' ') : text;
        break;
      }
      default:
        if (value !== undefined) body[field.name] = asText(value);
    }
  }
  return body;
}

/** A stored `YYYY-MM-DD HH:MM:SS` as a datetime-local value. */
export function toDatetimeLocal(value: unknown): string {
  const text = asText(value);
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(text) ? `${text.slice(0, 10)}T${text.slice(11, 16)}` : text;
}
