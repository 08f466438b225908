// The location hash says what the main area shows, so links (pointers, relations) and the back button work:
// #/class/<Class>?where=<JSON>&order=<order>  the data browser
// #/schema/<Class>                            the class's schema and permissions
import { parse, stringify } from './json.js';

export function currentRoute() {
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const [, view = '', className = ''] = path.split('/').map(decodeURIComponent);
  const params = new URLSearchParams(query);
  let where = {};
  try { where = params.has('where') ? parse(params.get('where')) : {}; } catch { where = {}; }
  return { view, className, where, order: params.get('order') || undefined };
}

export function href(view, className, { where, order } = {}) {
  const params = [];
  if (where && Object.keys(where).length) params.push(`where=${encodeURIComponent(stringify(where))}`);
  if (order) params.push(`order=${encodeURIComponent(order)}`);
  return `#/${view}/${encodeURIComponent(className)}${params.length ? `?${params.join('&')}` : ''}`;
}

export function go(view, className, options) {
  location.hash = href(view, className, options);
}
