// Files: the `_File` rows a page at a time (newest first, or those whose name starts with a text), with previews of
// images served by this origin, sizes and owners; administrators upload and delete files.
import { api } from '../api.js';
import { confirm, h, message, replace, statusLine } from '../dom.js';
import { href } from '../router.js';
import { state } from '../state.js';
import { isImage } from '../types.js';
import { condition } from '../where.js';
import { resultsTable, sameOriginURL, webURL } from './cells.js';
import { pager } from './pager.js';

/** "512 B", "1.5 KiB", "20.0 MiB". */
export function sizeLabel(bytes) {
  const size = Number(bytes);
  if (!Number.isFinite(size)) return '';
  if (size < 1024) return `${size} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = size;
  let unit = -1;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
  return `${value.toFixed(1)} ${units[unit]}`;
}

const COLUMNS = [
  {
    name: 'preview', label: '', content: (file) => {
      const url = sameOriginURL(file.url);
      return url && isImage(file) ? h('img', { class: 'thumb', src: url, alt: '' }) : null;
    },
  },
  {
    name: 'name', type: 'String',
    content: (file) => (webURL(file.url) ? h('a', { href: webURL(file.url), target: '_blank', rel: 'noopener noreferrer' }, file.name ?? file.objectId) : file.name),
  },
  {
    name: 'size', type: 'Number',
    content: (file) => {
      const bytes = file.metaData?.size;
      return bytes === undefined ? h('span', { class: 'unset' })
        : h('span', { class: 'value', title: `${Number(bytes).toLocaleString('en')} bytes`, dataset: { bytes: String(bytes) } }, sizeLabel(bytes));
    },
  },
  { name: 'mime_type', type: 'String' },
  {
    name: 'owner', type: 'String',
    content: (file) => {
      const owner = file.metaData?.owner;
      if (!owner || owner === 'unknown') return h('span', { class: 'unset' }, owner ?? '');
      return h('a', { href: href('class', '_User', { where: { objectId: owner } }) }, owner);
    },
  },
  { name: 'objectId', type: 'String' },
  { name: 'createdAt', type: 'Date' },
];

export function filesView() {
  const error = statusLine();
  const notice = statusLine('notice');
  const done = statusLine('notice');
  const root = h('div', { class: 'files screen', dataset: { state: 'loading' } });
  const holder = h('div', { class: 'table-wrap' });
  let where = {};
  const pages = pager('_File', {
    query: () => ({ where, order: '-createdAt' }),
    draw: (rows) => replace(holder, resultsTable(rows, COLUMNS, {
      className: '_File', empty: 'No files.', actions: state.canEdit ? deleteButton : undefined,
    })),
    error, notice, root,
  });

  function deleteButton(file) {
    return h('button', {
      type: 'button', name: 'deleteFile', class: 'danger',
      onClick: async () => {
        error.show('');
        done.show('');
        if (!await confirm('Delete file', `Delete ${file.name ?? file.objectId}? Its content is removed from the file storage; objects that point to it keep a dead link.`, { label: 'Delete' })) return;
        try {
          await api.delete(`/files/${encodeURIComponent(file.objectId)}`);
          done.show(`${file.name ?? file.objectId} deleted.`);
          await pages.load();
        } catch (failure) {
          error.show(message(failure));
        }
      },
    }, 'Delete');
  }

  const search = h('input', { type: 'text', name: 'search', autocomplete: 'off', placeholder: 'name starts with…' });
  const find = h('form', {
    class: 'toolbar',
    onSubmit: (event) => {
      event.preventDefault();
      where = search.value.trim() ? condition('name', 'starts', search.value.trim()) : {};
      pages.restart();
    },
  }, search, h('button', { type: 'submit', name: 'searchFiles', class: 'primary' }, 'Search'),
  h('button', { type: 'button', name: 'refresh', onClick: () => pages.load() }, 'Refresh'),
  h('span', { class: 'spacer' }), state.canEdit ? uploadControl() : null);

  function uploadControl() {
    const chooser = h('input', { type: 'file', name: 'file', multiple: true });
    return h('span', { class: 'upload' }, chooser, h('button', {
      type: 'button', name: 'uploadFile',
      onClick: async () => {
        error.show('');
        done.show('');
        if (!chooser.files.length) { error.show('Choose a file to upload.'); return; }
        const names = [];
        let failed = null;
        try {
          for (const file of chooser.files) {
            done.show(`Uploading ${file.name}…`);
            names.push((await api.upload(file)).name);
          }
          chooser.value = '';
        } catch (failure) {
          failed = failure;
        }
        await pages.restart();
        done.show(names.length ? `Uploaded ${names.join(', ')}.` : '');
        if (failed) error.show(message(failed));
      },
    }, 'Upload'));
  }

  pages.load();
  return replace(root, find, error, done, notice, holder, pages.element);
}
