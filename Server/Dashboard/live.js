// The open class's changes as they commit (from /dashboard/changes, server-sent events): the data browser redraws the
// rows it shows that changed, marks the ones deleted, and counts the objects created since it loaded. One feed at a
// time: opening another view closes it.
//
// The browser's EventSource reconnects by itself after a stream ends (each lasts a few minutes); a refused one (the
// instance serves its most streams, or the session ended) is tried again here after RETRY_MILLISECONDS.

const RETRY_MILLISECONDS = 15000;
let current = null;

/**
 * Follows `className`: `onChange({kind, objectId, updatedKeys})` for each change, `onState('live' | 'reconnecting' |
 * 'off')` as the feed connects and drops.
 */
export function follow(className, onChange, onState = () => {}) {
  stopFollowing();
  const feed = { source: null, timer: null };
  current = feed;
  const open = () => {
    if (current !== feed) return;
    const source = new EventSource(`/dashboard/changes?className=${encodeURIComponent(className)}`);
    feed.source = source;
    source.addEventListener('open', () => onState('live'));
    source.addEventListener('error', () => {
      if (source.readyState !== EventSource.CLOSED) { onState('reconnecting'); return; }
      onState('off');
      feed.timer = setTimeout(open, RETRY_MILLISECONDS);
    });
    source.addEventListener('change', (event) => {
      if (current !== feed) return;
      let change;
      try { change = JSON.parse(event.data); } catch { return; } // the next refresh shows it
      onChange(change);
    });
  };
  open();
}

/** Closes the feed of the view on screen, if any. */
export function stopFollowing() {
  if (!current) return;
  clearTimeout(current.timer);
  current.source?.close();
  current = null;
}
