// jst-tracker's board: the little script the server-rendered pages work without.
// - transition buttons call the REST interface (POST /rest/api/3/issue/KEY/transitions) with the
//   viewer's own rights: the browser resends the Basic credential it was given at the prompt;
// - the project picker shows the chosen project at once;
// - while the tab is visible, the page polls /_board/version/<PROJECT> with If-None-Match (a 304
//   costs the server next to nothing) and, when the version moved, swaps in the fresh <main>.
'use strict';
(() => {
  const POLL_MS = 2000;
  const body = document.body;
  const pollUrl = body.dataset.poll;
  let version = body.dataset.version;
  const flash = document.getElementById('flash');

  function say(text) {
    if (!flash) return;
    flash.textContent = text;
    flash.hidden = text === '';
  }

  async function refresh() {
    const res = await fetch(location.href, { cache: 'no-store', headers: { Accept: 'text/html' } });
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const fresh = doc.querySelector('main');
    const current = document.querySelector('main');
    if (fresh && current) current.replaceWith(document.adoptNode(fresh));
    if (doc.body.dataset.version) version = doc.body.dataset.version;
  }

  document.addEventListener('click', async (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[data-transition]') : null;
    if (!button) return;
    const buttons = document.querySelectorAll('button[data-transition]');
    buttons.forEach((b) => { b.disabled = true; });
    say(`Moving ${button.dataset.issue}…`);
    try {
      const res = await fetch(`/rest/api/3/issue/${encodeURIComponent(button.dataset.issue)}/transitions`, {
        method: 'POST',
        // X-Jst-Board: a 401 then carries the board's Basic challenge, which the browser answers from
        // the credential it holds for the page (packages/tracker/src/http/board/routes.ts).
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Jst-Board': '1' },
        body: JSON.stringify({ transition: { id: button.dataset.transition } }),
      });
      if (res.status === 204) {
        say('');
        await refresh();
        return;
      }
      const error = await res.json().catch(() => ({}));
      const messages = [...(error.errorMessages || []), ...Object.values(error.errors || {})];
      say(`Not moved (HTTP ${res.status}): ${messages.join(' ') || res.statusText}`);
    } catch (e) {
      say(`Not moved: ${e instanceof Error ? e.message : String(e)}`);
    }
    buttons.forEach((b) => { b.disabled = false; });
  });

  document.addEventListener('change', (event) => {
    const target = event.target;
    if (target instanceof HTMLSelectElement && target.name === 'project' && target.form) {
      const jql = target.form.querySelector('input[name="jql"]');
      if (jql) jql.value = '';
      target.form.submit();
    }
  });

  async function poll() {
    if (!document.hidden) {
      try {
        const res = await fetch(pollUrl, { cache: 'no-store', headers: version ? { 'If-None-Match': `"${version}"` } : {} });
        if (res.status === 200) {
          version = (await res.json()).version;
          await refresh();
        }
      } catch {
        // The server is restarting or the network is down: try again on the next tick.
      }
    }
    setTimeout(poll, POLL_MS);
  }
  if (pollUrl) setTimeout(poll, POLL_MS);
})();
