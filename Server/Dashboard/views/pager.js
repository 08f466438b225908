// Pages of a class's objects, as the data browser reads them: by keyset for orders by createdAt (each page an index
// range, whatever the size of the class), by `skip` for other orders (up to SKIP_LIMIT rows). Used by the data
// browser, the users screen and the files screen.
import { api, classPath, emptyToUndefined } from '../api.js';
import { h, message, replace } from '../dom.js';
import { and, PAGE_SIZE, paging, SKIP_LIMIT } from '../where.js';

/**
 * `query()` answers the current {where, order} (and any other parameters of the find, such as returnACL);
 * `draw(rows)` draws a page; `error` and `notice` are status lines; `root.dataset.state` is "loading" while a page
 * is read, then "ready". Answers {element (the pager bar), load(), restart(), rows}.
 */
export function pager(className, { query, draw, error, notice, root }) {
  const view = { page: 0, cursors: [null], rows: [], hasNext: false, loads: 0 };
  const bar = h('div', { class: 'pager' });

  async function load() {
    const ticket = ++view.loads; // only the latest request draws the page
    root.dataset.state = 'loading';
    error.show('');
    for (const button of bar.querySelectorAll('button')) button.disabled = true;
    const { where = {}, order, ...more } = query();
    const mode = paging(order);
    const condition = mode.keyset ? and(where, view.cursors[view.page]) : where;
    try {
      const reply = await api.get(classPath(className), {
        ...more, where: emptyToUndefined(condition), order: mode.order, limit: PAGE_SIZE + 1,
        skip: mode.keyset || !view.page ? undefined : view.page * PAGE_SIZE,
      });
      if (ticket !== view.loads) return;
      view.hasNext = reply.results.length > PAGE_SIZE;
      view.rows = reply.results.slice(0, PAGE_SIZE);
      if (mode.keyset && view.hasNext) view.cursors[view.page + 1] = mode.after(view.rows.at(-1));
    } catch (failure) {
      if (ticket !== view.loads) return;
      view.rows = [];
      view.hasNext = false;
      error.show(message(failure));
    }
    draw(view.rows);
    renderBar(order, mode);
    root.dataset.state = 'ready';
  }

  function renderBar(order, mode) {
    const first = view.page * PAGE_SIZE;
    const skipEnd = !mode.keyset && first + PAGE_SIZE >= SKIP_LIMIT;
    notice.show(skipEnd && view.hasNext
      ? `Sorted by ${order}, paging stops at ${SKIP_LIMIT.toLocaleString('en')} rows: sort by createdAt or narrow the filter to see further.`
      : '');
    replace(bar,
      h('button', { type: 'button', name: 'previous', disabled: view.page === 0, onClick: () => turn(-1) }, '‹ Previous'),
      h('span', { class: 'range' }, view.rows.length ? `rows ${(first + 1).toLocaleString('en')}–${(first + view.rows.length).toLocaleString('en')}` : ''),
      h('button', { type: 'button', name: 'next', disabled: !view.hasNext || skipEnd, onClick: () => turn(1) }, 'Next ›'));
  }

  function turn(step) {
    view.page += step;
    load();
  }

  /** Back to the first page (a new condition or order). */
  function restart() {
    view.page = 0;
    view.cursors = [null];
    return load();
  }

  return { element: bar, load, restart, get rows() { return view.rows; } };
}
