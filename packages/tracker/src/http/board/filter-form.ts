import type { VisibleProject } from '../../domain/model.js';
import { html, type Html } from '../../kit/html.js';

/** The project picker and JQL filter: a plain GET form, so it works without script. */
export function filterForm(projects: VisibleProject[], current: string | undefined, jql: string): Html {
  return html`<form class="filter" method="get" action="/">
<label>Project <select name="project">${projects.map((p) => html`<option value="${p.key}"${p.key === current ? html` selected` : ''}>${p.key} · ${p.name}</option>`)}</select></label>
<label class="jql">JQL <input type="search" name="jql" value="${jql}" placeholder="assignee = currentUser() AND status != Done" autocomplete="off" spellcheck="false"></label>
<button type="submit">Show</button>
</form>`;
}
