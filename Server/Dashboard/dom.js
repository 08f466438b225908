// Building DOM without markup strings (so nothing rendered is ever parsed as HTML), and the console's dialogs.

const PROPERTIES = new Set(['value', 'checked', 'disabled', 'hidden', 'selected', 'readOnly', 'multiple', 'open', 'type']);

/** h('button', {class: 'primary', onClick: …, dataset: {id}}, 'Save', child…) */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'style') throw new Error('style attributes are not allowed (CSP): use a class');
    if (/^on[A-Z]/.test(key)) element.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === 'class') element.className = value;
    else if (key === 'text') element.textContent = value;
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (PROPERTIES.has(key)) element[key] = value;
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

export const message = (error) => (error instanceof Error ? error.message : String(error));

/** A line that shows an error (or a notice) and hides when empty. */
export function statusLine(className = 'error') {
  const line = h('p', { class: className, role: 'alert', hidden: true });
  line.show = (text) => { line.textContent = text ?? ''; line.hidden = !text; };
  return line;
}

/**
 * A modal dialog: `actions` are {label, name, primary, run}; `run` may be async: its error is shown in the dialog,
 * which stays open; otherwise the dialog closes (unless run returns false). Resolves with the action's name, or
 * null when cancelled.
 */
export function modal(title, body, actions, { wide = false, cancelLabel = 'Cancel' } = {}) {
  return new Promise((resolve) => {
    const error = statusLine();
    const buttons = actions.map((action) => h('button', {
      type: 'button', class: action.primary ? 'primary' : action.danger ? 'danger' : '', dataset: { action: action.name },
      onClick: async () => {
        error.show('');
        for (const button of buttons) button.disabled = true;
        try {
          if ((await action.run?.()) !== false) finish(action.name);
        } catch (failure) {
          error.show(message(failure));
        } finally {
          for (const button of buttons) button.disabled = false;
        }
      },
    }, action.label));
    const cancel = h('button', { type: 'button', dataset: { action: 'cancel' }, onClick: () => finish(null) }, cancelLabel);
    const dialog = h('dialog', { class: wide ? 'wide' : '' },
      h('h2', { text: title }), body, error, h('div', { class: 'actions' }, buttons, cancel));
    dialog.addEventListener('cancel', (event) => { event.preventDefault(); finish(null); });
    function finish(result) {
      dialog.close();
      dialog.remove();
      resolve(result);
    }
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** Asks for confirmation; with `typed`, the user must type that text first. Resolves true or false. */
export async function confirm(title, text, { label = 'Confirm', typed } = {}) {
  const input = typed ? h('input', { type: 'text', name: 'confirm', autocomplete: 'off' }) : null;
  const body = h('div', {}, h('p', { text }), typed ? h('label', {}, `Type ${typed} to confirm: `, input) : null);
  const run = () => {
    if (typed && input.value !== typed) throw new Error(`Type ${typed} exactly to confirm.`);
  };
  return (await modal(title, body, [{ label, name: 'confirm', danger: true, run }])) === 'confirm';
}

/** Copies text to the clipboard (falls back to selecting it in a text field). */
export async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    field?.select();
    document.execCommand?.('copy');
  }
}
